"""Comparing models on the same cases: is model b really better than model a?

One home for the whole comparison, in the order of the layers inside it: `joint` holds
the joint table of the models' outcomes and its resampling, `paired` the paired
bootstrap replicates and the paired permutation and McNemar tests, `net_benefit` the
difference in net benefit of two models at every threshold probability with its paired
band, `comparing` the comparison itself (`informed.compare`), `result` its result
(`Comparison`, with its JSON form and notebook view), `plots` its three plots (the models'
ROC curves on one plane, the forest of paired differences, the difference in net
benefit), `text` its terminal report and `html` its section of the HTML report.
`folds` compares two models across cross-validation folds (`compare_folds`) with the
tests of `fold_tests`: the corrected resampled t-test and the 5x2cv t and F tests;
`fold_plots` draws it (`plot_fold_differences`), `fold_text` and `fold_html` are its
terminal report and its section of the HTML page; `fold_pairs`
compares three or more models pair by pair (`compare_fold_pairs`), Holm over every pair
and measure.

The names load on first use (PEP 562): `informed.compare` does not load matplotlib.
The earlier paths keep working: `informed.compare`, `informed.Comparison`, and
`informed.inference.compare`, `.Comparison`, `.ModelResult`, `.JointOutcomes`,
`.joint_outcomes`, `.paired_permutation`, `.RANKING_COMPARED`, `.TABLE_COMPARED`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from informed._lazy import lazy_names

if TYPE_CHECKING:
    from informed.comparison.comparing import RANKING_COMPARED, TABLE_COMPARED, compare
    from informed.comparison.fold_pairs import FoldPairs, compare_fold_pairs
    from informed.comparison.fold_plots import plot_fold_differences
    from informed.comparison.fold_tests import (
        combined_ftest_5x2cv,
        corrected_ttest,
        naive_ttest,
        paired_ttest_5x2cv,
    )
    from informed.comparison.folds import FoldComparison, compare_folds
    from informed.comparison.joint import JointOutcomes, joint_outcomes
    from informed.comparison.net_benefit import NetBenefitDifference, net_benefit_difference
    from informed.comparison.paired import paired_permutation
    from informed.comparison.plots import (
        plot_differences,
        plot_models_roc,
        plot_net_benefit_difference,
    )
    from informed.comparison.result import Comparison, ModelResult

_SOURCES = {
    "RANKING_COMPARED": "informed.comparison.comparing",
    "TABLE_COMPARED": "informed.comparison.comparing",
    "compare": "informed.comparison.comparing",
    "combined_ftest_5x2cv": "informed.comparison.fold_tests",
    "corrected_ttest": "informed.comparison.fold_tests",
    "naive_ttest": "informed.comparison.fold_tests",
    "paired_ttest_5x2cv": "informed.comparison.fold_tests",
    "plot_fold_differences": "informed.comparison.fold_plots",
    "FoldPairs": "informed.comparison.fold_pairs",
    "compare_fold_pairs": "informed.comparison.fold_pairs",
    "FoldComparison": "informed.comparison.folds",
    "compare_folds": "informed.comparison.folds",
    "JointOutcomes": "informed.comparison.joint",
    "joint_outcomes": "informed.comparison.joint",
    "paired_permutation": "informed.comparison.paired",
    "NetBenefitDifference": "informed.comparison.net_benefit",
    "net_benefit_difference": "informed.comparison.net_benefit",
    "plot_differences": "informed.comparison.plots",
    "plot_net_benefit_difference": "informed.comparison.plots",
    "plot_models_roc": "informed.comparison.plots",
    "Comparison": "informed.comparison.result",
    "ModelResult": "informed.comparison.result",
}

__all__ = [
    "RANKING_COMPARED",
    "TABLE_COMPARED",
    "Comparison",
    "FoldComparison",
    "FoldPairs",
    "JointOutcomes",
    "ModelResult",
    "NetBenefitDifference",
    "combined_ftest_5x2cv",
    "compare",
    "compare_fold_pairs",
    "compare_folds",
    "corrected_ttest",
    "joint_outcomes",
    "naive_ttest",
    "net_benefit_difference",
    "paired_permutation",
    "paired_ttest_5x2cv",
    "plot_differences",
    "plot_fold_differences",
    "plot_models_roc",
    "plot_net_benefit_difference",
]

__getattr__, __dir__ = lazy_names(__name__, _SOURCES, __all__)
