"""The registry: every contingency measure of Powers, once, with what reports need of it.

Every measure is a function of a 2x2 table of counts laid out as the papers lay it out,
rows predicted (+P, -P) and columns actual (+R, -R)::

    counts[..., 0, 0] = tp    counts[..., 0, 1] = fp
    counts[..., 1, 0] = fn    counts[..., 1, 1] = tn

with any leading batch dimensions, so that the one-vs-rest views of all labels and
thousands of bootstrap replicates are one vectorised call. A measure of a table with
more than two labels is named by how it combines the per-label values (`Measure.overall`):
Powers' multiclass informedness is the bias-weighted average of the per-label
informedness, multiclass markedness the prevalence-weighted average of per-class
markedness (Powers 2003). Undefined values are NaN; `undefined_reason` names the margin
that vanished.

References
----------
Powers, D. M. W. (2003). Recall and Precision versus the Bookmaker. Proceedings of the
International Conference on Cognitive Science (ICCS 2003), Sydney.
Powers, D. M. W. (n.d.). The Bookmaker tests your Edge. Poster.
Powers, D. M. W. (2011). Evaluation: from precision, recall and F-measure to ROC,
informedness, markedness and correlation. J. Mach. Learn. Technol. 2(1):37-63.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
from numpy.typing import NDArray

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
)
from informed.measures.measure import Measure, OverallRule
from informed.measures.multiclass import (
    accuracy_multiclass,
    conditional_entropy,
    conditional_entropy_given_actual,
    error_multiclass,
    kappa_multiclass,
    matthews_correlation_multiclass,
    mutual_information,
)
from informed.measures.overall import (
    BIAS_GEOMETRIC_G,
    BIAS_HARMONIC_F,
    BIAS_WEIGHTED_INFORMEDNESS,
    MULTICLASS_CORRELATION,
    PREVALENCE_WEIGHTED_MARKEDNESS,
    Average,
    per_label_only,
)

__all__ = ["MEASURES"]

Floats = NDArray[np.float64]


# Short author-year citations; the References of the documentation (docs/references.md)
# and of every report give each in full.
_POWERS = "Powers (2003)"
_POSTER = "Powers (n.d.)"
_POWERS_2011 = "Powers (2011)"


def _m(
    function: Callable[..., Floats],
    overall: OverallRule | str,
    title: str,
    formula: str,
    *,
    aliases: tuple[str, ...] = (),
    low: float = 0.0,
    high: float = 1.0,
    chance: float | None = None,
    dual: str | None = None,
    symmetric: bool = False,
    requires: tuple[str, ...] = ("N",),
    source: str = _POWERS,
    takes_alpha: bool = False,
    proportion: tuple[tuple[str, ...], tuple[str, ...]] | None = None,
    undefined_otherwise: str = "undefined for this table",
    undefined_overall: str | None = None,
) -> Measure:
    return Measure(
        name=function.__name__,
        function=function,
        # a name of label weights: the average of the measure's own per-label values
        overall=Average(function, overall) if isinstance(overall, str) else overall,
        title=title,
        formula=formula,
        aliases=aliases,
        low=low,
        high=high,
        chance=chance,
        dual=dual,
        symmetric=symmetric,
        requires=requires,
        source=source,
        takes_alpha=takes_alpha,
        proportion=proportion,
        undefined_otherwise=undefined_otherwise,
        undefined_overall=undefined_overall,
    )


_REGISTERED = [
    _m(
        recall,
        "macro",
        "Recall",
        "tp / (tp + fn)",
        aliases=("sensitivity", "true positive rate", "tpr"),
        dual="precision",
        requires=("+R",),
        proportion=(("tp",), ("tp", "fn")),
    ),
    _m(
        inverse_recall,
        "macro",
        "Inverse recall",
        "tn / (fp + tn)",
        aliases=("specificity", "true negative rate", "tnr"),
        dual="inverse_precision",
        requires=("-R",),
        proportion=(("tn",), ("fp", "tn")),
    ),
    _m(
        precision,
        "macro",
        "Precision",
        "tp / (tp + fp)",
        aliases=("positive predictive value", "ppv", "confidence"),
        dual="recall",
        requires=("+P",),
        proportion=(("tp",), ("tp", "fp")),
    ),
    _m(
        inverse_precision,
        "macro",
        "Inverse precision",
        "tn / (fn + tn)",
        aliases=("negative predictive value", "npv"),
        dual="inverse_recall",
        requires=("-P",),
        proportion=(("tn",), ("fn", "tn")),
    ),
    _m(
        fallout,
        "macro",
        "Fallout",
        "fp / (fp + tn)",
        aliases=("false positive rate", "fpr"),
        requires=("-R",),
        proportion=(("fp",), ("fp", "tn")),
    ),
    _m(
        miss_rate,
        "macro",
        "Miss rate",
        "fn / (tp + fn)",
        aliases=("false negative rate", "fnr"),
        requires=("+R",),
        proportion=(("fn",), ("tp", "fn")),
    ),
    _m(
        accuracy,
        accuracy_multiclass,
        "Accuracy (Rand)",
        "(tp + tn) / N; trace / N for K labels",
        aliases=("rand accuracy",),
        dual="accuracy",
        symmetric=True,
        proportion=(("tp", "tn"), ("tp", "fp", "fn", "tn")),
    ),
    _m(
        error,
        error_multiclass,
        "Error",
        "(fp + fn) / N = 1 - accuracy",
        aliases=("error rate",),
        dual="error",
        symmetric=True,
        proportion=(("fp", "fn"), ("tp", "fp", "fn", "tn")),
    ),
    _m(
        jaccard,
        "macro",
        "Jaccard",
        "tp / (tp + fp + fn)",
        aliases=("tanimoto", "critical success index"),
        dual="jaccard",
        symmetric=True,
        requires=("tp+fp+fn",),
    ),
    _m(
        f_measure,
        "macro",
        "F-measure",
        "1 / (alpha / precision + (1 - alpha) / recall)",
        aliases=("F1", "F-score", "F-factor"),
        dual="f_measure",
        symmetric=True,
        requires=("tp+fp+fn",),
        takes_alpha=True,
    ),
    _m(
        inverse_f_measure,
        "macro",
        "Inverse F",
        "1 / (alpha / inverse_precision + (1 - alpha) / inverse_recall)",
        aliases=("IF",),
        dual="inverse_f_measure",
        symmetric=True,
        requires=("fp+fn+tn",),
        takes_alpha=True,
    ),
    _m(
        average_f_measure,
        BIAS_HARMONIC_F,
        "Average F",
        "1 / (pP(+) / F + pP(-) / IF); for K labels the bias-weighted harmonic mean of F(l)",
        aliases=("AvF",),
        takes_alpha=True,
    ),
    _m(
        g_measure,
        "macro",
        "G-measure",
        "sqrt(precision x recall)",
        aliases=("Fowlkes-Mallows (binary)",),
        dual="g_measure",
        symmetric=True,
        requires=("+P", "+R"),
    ),
    _m(
        inverse_g_measure,
        "macro",
        "Inverse G",
        "sqrt(inverse_precision x inverse_recall)",
        aliases=("IG",),
        dual="inverse_g_measure",
        symmetric=True,
        requires=("-P", "-R"),
    ),
    _m(
        average_g_measure,
        BIAS_GEOMETRIC_G,
        "Average G",
        "G^pP(+) x IG^pP(-); for K labels the bias-weighted geometric mean of G(l)",
        aliases=("AvG",),
        requires=("N", "+R", "-R", "+P", "-P"),
    ),
    _m(
        informedness,
        BIAS_WEIGHTED_INFORMEDNESS,
        "Informedness",
        # for K > 2 the bias weights pP(l) make it differ from scikit-learn's adjusted
        # balanced accuracy, which weights the classes equally (equal for two classes)
        "recall + inverse_recall - 1 = tpr - fpr; for K labels sum_l pP(l) B(l), "
        "bias-weighted (not scikit-learn's adjusted balanced accuracy)",
        aliases=("bookmaker", "Youden's J", "Youden index", "Youden", "Peirce skill score", "bm"),
        low=-1.0,
        chance=0.0,
        dual="markedness",
        requires=("+R", "-R"),
        source=_POSTER,
    ),
    _m(
        markedness,
        PREVALENCE_WEIGHTED_MARKEDNESS,
        "Markedness",
        "precision + inverse_precision - 1; for K labels sum_c pR(c) M(c)",
        aliases=("mk", "deltaP"),
        low=-1.0,
        chance=0.0,
        dual="informedness",
        requires=("+P", "-P"),
        source=_POWERS_2011,
    ),
    _m(
        correlation,
        MULTICLASS_CORRELATION,
        "Correlation",
        "sign(B) sqrt(B x M)",
        aliases=("Powers correlation",),
        low=-1.0,
        chance=0.0,
        dual="correlation",
        symmetric=True,
        requires=("+R", "-R", "+P", "-P"),
        source=_POWERS_2011,
        undefined_otherwise="informedness and markedness differ in sign",
        undefined_overall="informedness and markedness are undefined or differ in sign",
    ),
    _m(
        matthews_correlation,
        matthews_correlation_multiclass,
        "Matthews correlation",
        "(tp tn - fp fn) / sqrt(|+P| |+R| |-R| |-P|); R_K for K labels",
        aliases=("MCC", "phi", "R_K"),
        low=-1.0,
        chance=0.0,
        dual="matthews_correlation",
        symmetric=True,
        requires=("+R", "-R", "+P", "-P"),
        source="Matthews (1975); Gorodkin (2004)",
        undefined_overall="all predictions or all cases fall in one label",
    ),
    _m(
        kappa,
        kappa_multiclass,
        "Cohen's kappa",
        "(po - pe) / (1 - pe)",
        aliases=("Cohen's kappa",),
        low=-1.0,
        chance=0.0,
        dual="kappa",
        symmetric=True,
        source="Cohen (1960)",
        undefined_otherwise="chance agreement is 1 (both margins degenerate)",
        undefined_overall="all predictions or all cases fall in one label",
    ),
    _m(
        conditional_entropy,
        conditional_entropy,
        "Conditional entropy H(R|P)",
        "-sum p(l,c) log2(p(l,c) / pP(l)) bits",
        aliases=("H(R|P)",),
        high=float("inf"),
        dual="conditional_entropy_given_actual",
        source=_POWERS,
    ),
    _m(
        conditional_entropy_given_actual,
        conditional_entropy_given_actual,
        "Conditional entropy H(P|R)",
        "-sum p(l,c) log2(p(l,c) / pR(c)) bits",
        aliases=("H(P|R)",),
        high=float("inf"),
        dual="conditional_entropy",
        source="Cover & Thomas (1991)",
    ),
    _m(
        mutual_information,
        mutual_information,
        "Mutual information",
        "sum p(l,c) log2(p(l,c) / (pP(l) pR(c))) bits",
        aliases=("I(P;R)",),
        high=float("inf"),
        chance=0.0,
        dual="mutual_information",
        symmetric=True,
        source="Cover & Thomas (1991)",
    ),
    _m(
        bias,
        per_label_only,
        "Bias pP",
        "|+P| / N",
        aliases=("prediction rate",),
        dual="prevalence",
        undefined_overall="a per-label quantity: see per_label, or pass a positive label",
    ),
    _m(
        prevalence,
        per_label_only,
        "Prevalence pR",
        "|+R| / N",
        aliases=("base rate",),
        dual="bias",
        undefined_overall="a per-label quantity: see per_label, or pass a positive label",
    ),
    _m(
        bias_ratio,
        per_label_only,
        "Bias / prevalence",
        "|+P| / |+R|",
        high=float("inf"),
        requires=("+R",),
        undefined_overall="a per-label quantity: see per_label, or pass a positive label",
    ),
]

MEASURES: dict[str, Measure] = {m.name: m for m in _REGISTERED}
"""The registry: every measure by name, in report order."""
