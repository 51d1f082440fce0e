"""What every report shows, written once: the headline measures and the per-label columns.

The terminal, HTML and CSV reports read these lists; titles, formulas and sources come
from the registries (`informed.measures.MEASURES`, `informed.ranking.RANKING_MEASURES`).
"""

from __future__ import annotations

__all__ = ["HEADLINE", "PER_LABEL", "PER_LABEL_HEADINGS"]

HEADLINE = ("informedness", "markedness", "correlation")
"""The measures each report leads with: what was got right beyond chance."""

PER_LABEL = (
    "recall",
    "precision",
    "f_measure",
    "informedness",
    "markedness",
    "bias",
    "prevalence",
    "bias_ratio",
)
"""The one-vs-rest measures listed per label, with the label-bias diagnostics last."""

PER_LABEL_HEADINGS = {
    "recall": "recall",
    "precision": "precision",
    "f_measure": "F",
    "informedness": "informed.",
    "markedness": "marked.",
    "bias": "bias pP",
    "prevalence": "prev. pR",
    "bias_ratio": "pP / pR",
}
"""Short column headings for the terminal, where the registry's titles are too wide."""
