"""`informed.dvc`: a result as the metrics and plot files DVC reads (`dvc metrics diff`,
`dvc plots show`): `write(result, directory)`, or ``informed evaluate ... --dvc DIR``.

The adapter lives in `informed.integrations.dvc` (docs/dvc.md); it writes plain JSON, so
DVC is not needed to write the files, only to read them.
"""

from __future__ import annotations

from informed.integrations.dvc import (
    DECISION_THRESHOLDS,
    FILES,
    MAX_CASES,
    RENAMED,
    ROC_POINTS,
    ROC_RESOLUTION,
    DvcFiles,
    metrics,
    write,
)

__all__ = [
    "DECISION_THRESHOLDS",
    "FILES",
    "MAX_CASES",
    "RENAMED",
    "ROC_POINTS",
    "ROC_RESOLUTION",
    "DvcFiles",
    "metrics",
    "write",
]
