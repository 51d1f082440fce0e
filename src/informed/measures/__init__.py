"""The contingency measures of Powers, each defined once, and their registry.

Every measure is a function of a 2x2 table of counts laid out as the papers lay it out,
rows predicted (+P, -P) and columns actual (+R, -R)::

    counts[..., 0, 0] = tp    counts[..., 0, 1] = fp
    counts[..., 1, 0] = fn    counts[..., 1, 1] = tn

with any leading batch dimensions, so that the one-vs-rest views of all labels and
thousands of bootstrap replicates are one vectorised call.

`cells` holds the sums every measure reads (margins, diagonal, non-zero cells) of a dense
array or of the `Cells` of a sparse table, `counts` the arithmetic every measure shares
(safe ratios, cell names, averages),
`binary` the measures of a 2x2 table, `multiclass` those that read a whole table at once
(entropies, R_K, kappa), `overall` how a whole table gets one value from its per-label
values, `measure` what the registry records of a measure and why one is undefined, and
`registry` the `MEASURES` registry that every report, CLI column and JSON key reads,
`names` every name a measure goes by (title, aliases, any case) resolved to its registry
name, for every call and result that takes a measure's name.
"""

from __future__ import annotations

from informed.measures.binary import (
    accuracy,
    average_f_measure,
    average_g_measure,
    bias,
    bias_ratio,
    correlation,
    error,
    f_measure,
    fallout,
    g_measure,
    informedness,
    inverse_f_measure,
    inverse_g_measure,
    inverse_precision,
    inverse_recall,
    jaccard,
    kappa,
    markedness,
    matthews_correlation,
    miss_rate,
    precision,
    prevalence,
    recall,
    signed_geometric,
)
from informed.measures.cells import (
    Cells,
    Margins,
    as_cells,
    cell_sum,
    gather,
    margins,
    scatter,
)
from informed.measures.counts import (
    AVERAGES,
    cells,
    clip,
    label_weights,
    one_vs_rest_counts,
    ratio,
    weighted_geometric,
    weighted_harmonic,
    weighted_mean,
)
from informed.measures.measure import (
    LABEL_MARGINS,
    MARGIN_REASONS,
    Measure,
    OverallRule,
    label_margin,
    undefined_reason,
    undefined_reasons,
)
from informed.measures.multiclass import (
    accuracy_multiclass,
    conditional_entropy,
    conditional_entropy_given_actual,
    error_multiclass,
    kappa_multiclass,
    matthews_correlation_multiclass,
    mutual_information,
)
from informed.measures.names import (
    MEASURE_NAMES,
    ByMeasure,
    MeasureNames,
    measure_name,
    measure_names,
)
from informed.measures.overall import (
    BIAS_GEOMETRIC_G,
    BIAS_HARMONIC_F,
    BIAS_WEIGHTED_INFORMEDNESS,
    MEANS,
    MULTICLASS_CORRELATION,
    PREVALENCE_WEIGHTED_MARKEDNESS,
    Average,
    SignedGeometric,
    bias_geometric_g,
    bias_harmonic_f,
    bias_weighted_informedness,
    multiclass_correlation,
    per_label_only,
    prevalence_weighted_markedness,
)
from informed.measures.registry import (
    MEASURES,
)

__all__ = [
    "AVERAGES",
    "BIAS_GEOMETRIC_G",
    "BIAS_HARMONIC_F",
    "BIAS_WEIGHTED_INFORMEDNESS",
    "LABEL_MARGINS",
    "MARGIN_REASONS",
    "MEANS",
    "MEASURES",
    "MEASURE_NAMES",
    "MULTICLASS_CORRELATION",
    "PREVALENCE_WEIGHTED_MARKEDNESS",
    "Average",
    "ByMeasure",
    "Cells",
    "Margins",
    "Measure",
    "MeasureNames",
    "OverallRule",
    "SignedGeometric",
    "accuracy",
    "accuracy_multiclass",
    "as_cells",
    "average_f_measure",
    "average_g_measure",
    "bias",
    "bias_geometric_g",
    "bias_harmonic_f",
    "bias_ratio",
    "bias_weighted_informedness",
    "cell_sum",
    "cells",
    "clip",
    "conditional_entropy",
    "conditional_entropy_given_actual",
    "correlation",
    "error",
    "error_multiclass",
    "f_measure",
    "fallout",
    "g_measure",
    "gather",
    "informedness",
    "inverse_f_measure",
    "inverse_g_measure",
    "inverse_precision",
    "inverse_recall",
    "jaccard",
    "kappa",
    "kappa_multiclass",
    "label_margin",
    "label_weights",
    "margins",
    "markedness",
    "matthews_correlation",
    "matthews_correlation_multiclass",
    "measure_name",
    "measure_names",
    "miss_rate",
    "multiclass_correlation",
    "mutual_information",
    "one_vs_rest_counts",
    "per_label_only",
    "precision",
    "prevalence",
    "prevalence_weighted_markedness",
    "ratio",
    "recall",
    "scatter",
    "signed_geometric",
    "undefined_reason",
    "undefined_reasons",
    "weighted_geometric",
    "weighted_harmonic",
    "weighted_mean",
]
