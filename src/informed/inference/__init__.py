"""Intervals and tests, resampling the summaries rather than the rows.

`interval` holds the Interval every method returns and `checks` the argument checks they
share; `replicates` the percentile and BCa rules for bootstrap replicates, used by
`table_bootstrap` (a Table's cells resampled; `design` says how, for a report) and
`ranking_bootstrap` (a Ranking's tie groups resampled); `proportions` the Wilson and
Clopper-Pearson intervals. `significance` holds the result of every test: `independence`
(chi-square and G of a Table), `mcnemar` (two classifiers on the same cases),
`permutation` (a measure against chance) and `delong` (DeLong's interval and paired test
for AUC); `holm` adjusts the p-values of several tests. `threshold` bootstraps the value
at a ranking's best threshold. Slices (`informed.slices`): `slice_bootstrap` resamples
every slice from its own cells at once, `disparities` compares slices with the rest and
with a reference (`auc_differences` their AUCs, by DeLong's variances of independent
samples), `auc_spread` the spread of AUC across slices. `calibration_bands` and
`decision_curve_bands` resample a Ranking of probabilities for the bands of its CORP
curve (confidence, and consistency under calibration) and of its decision curve;
`slice_calibration` gives each slice's miscalibration (MCB) with its interval and the
spread of MCB across slices. `tally_intervals` gives the intervals of a
Tally's micro, macro and per-category values.

Comparing models on the same cases has its own home, `informed.comparison`, a layer
above; the names it had here (`compare`, `Comparison`, `ModelResult`, `JointOutcomes`,
`joint_outcomes`, `paired_permutation`, `RANKING_COMPARED`, `TABLE_COMPARED`) still load
from `informed.inference`, from there (`COMPATIBLE`).

The names load on first use (PEP 562): a report that shows no interval does not load
scipy.stats.
"""

from __future__ import annotations

import sys
from types import ModuleType
from typing import TYPE_CHECKING, Any

from informed._lazy import lazy_names

if TYPE_CHECKING:
    from informed.inference.auc_differences import AucDifferences, auc_differences
    from informed.inference.calibration_bands import ReliabilityBands, calibration_bands
    from informed.inference.decision_bands import DecisionCurveBands, decision_curve_bands
    from informed.inference.delong import delong_interval, delong_test
    from informed.inference.design import bootstrap_design, design_note
    from informed.inference.disparities import Disparities, disparities
    from informed.inference.independence import chi_square_test, g_test
    from informed.inference.interval import Interval
    from informed.inference.mcnemar import PairedCorrectness, mcnemar, paired_correctness
    from informed.inference.permutation import permutation_test
    from informed.inference.proportions import (
        PROPORTIONS,
        clopper_pearson_interval,
        proportion_interval,
        wilson_interval,
    )
    from informed.inference.ranking_bootstrap import (
        RANKING_QUOTA_MEASURES,
        RANKING_SUMMARIES,
        RankingBootstrap,
        bootstrap_ranking,
    )
    from informed.inference.significance import Significance, holm
    from informed.inference.slice_auc import AucSpread, auc_spread
    from informed.inference.slice_bootstrap import SliceBootstrap, bootstrap_slices
    from informed.inference.slice_calibration import SliceCalibration, slice_calibration
    from informed.inference.table_bootstrap import (
        BOOTSTRAP_METHODS,
        WEIGHTS_ARE,
        Bootstrap,
        bootstrap,
        intervals_report,
    )
    from informed.inference.tally_intervals import TallyIntervals, tally_intervals
    from informed.inference.threshold import threshold_interval

COMPATIBLE = {
    "RANKING_COMPARED": "informed.comparison.comparing",
    "TABLE_COMPARED": "informed.comparison.comparing",
    "compare": "informed.comparison.comparing",
    "Comparison": "informed.comparison.result",
    "ModelResult": "informed.comparison.result",
    "JointOutcomes": "informed.comparison.joint",
    "joint_outcomes": "informed.comparison.joint",
    "paired_permutation": "informed.comparison.paired",
}
"""Names that moved to `informed.comparison` (a higher layer), kept loadable from here so
that code written against `informed.inference` keeps working; nothing in this package
uses them (tests/test_architecture.py checks both)."""

_SOURCES = {
    **COMPATIBLE,
    "ReliabilityBands": "informed.inference.calibration_bands",
    "calibration_bands": "informed.inference.calibration_bands",
    "DecisionCurveBands": "informed.inference.decision_bands",
    "decision_curve_bands": "informed.inference.decision_bands",
    "delong_interval": "informed.inference.delong",
    "delong_test": "informed.inference.delong",
    "bootstrap_design": "informed.inference.design",
    "design_note": "informed.inference.design",
    "chi_square_test": "informed.inference.independence",
    "g_test": "informed.inference.independence",
    "Interval": "informed.inference.interval",
    "PairedCorrectness": "informed.inference.mcnemar",
    "mcnemar": "informed.inference.mcnemar",
    "paired_correctness": "informed.inference.mcnemar",
    "holm": "informed.inference.significance",
    "permutation_test": "informed.inference.permutation",
    "PROPORTIONS": "informed.inference.proportions",
    "clopper_pearson_interval": "informed.inference.proportions",
    "proportion_interval": "informed.inference.proportions",
    "wilson_interval": "informed.inference.proportions",
    "RANKING_QUOTA_MEASURES": "informed.inference.ranking_bootstrap",
    "RANKING_SUMMARIES": "informed.inference.ranking_bootstrap",
    "RankingBootstrap": "informed.inference.ranking_bootstrap",
    "bootstrap_ranking": "informed.inference.ranking_bootstrap",
    "Significance": "informed.inference.significance",
    "SliceBootstrap": "informed.inference.slice_bootstrap",
    "bootstrap_slices": "informed.inference.slice_bootstrap",
    "SliceCalibration": "informed.inference.slice_calibration",
    "slice_calibration": "informed.inference.slice_calibration",
    "Disparities": "informed.inference.disparities",
    "disparities": "informed.inference.disparities",
    "AucDifferences": "informed.inference.auc_differences",
    "auc_differences": "informed.inference.auc_differences",
    "AucSpread": "informed.inference.slice_auc",
    "auc_spread": "informed.inference.slice_auc",
    "BOOTSTRAP_METHODS": "informed.inference.table_bootstrap",
    "WEIGHTS_ARE": "informed.inference.table_bootstrap",
    "Bootstrap": "informed.inference.table_bootstrap",
    "bootstrap": "informed.inference.table_bootstrap",
    "intervals_report": "informed.inference.table_bootstrap",
    "TallyIntervals": "informed.inference.tally_intervals",
    "tally_intervals": "informed.inference.tally_intervals",
    "threshold_interval": "informed.inference.threshold",
}

__all__ = [
    "BOOTSTRAP_METHODS",
    "PROPORTIONS",
    "RANKING_COMPARED",
    "RANKING_QUOTA_MEASURES",
    "RANKING_SUMMARIES",
    "TABLE_COMPARED",
    "WEIGHTS_ARE",
    "AucDifferences",
    "AucSpread",
    "Bootstrap",
    "Comparison",
    "DecisionCurveBands",
    "Disparities",
    "Interval",
    "JointOutcomes",
    "ModelResult",
    "PairedCorrectness",
    "RankingBootstrap",
    "ReliabilityBands",
    "Significance",
    "SliceBootstrap",
    "SliceCalibration",
    "TallyIntervals",
    "auc_differences",
    "auc_spread",
    "bootstrap",
    "bootstrap_design",
    "bootstrap_ranking",
    "bootstrap_slices",
    "calibration_bands",
    "chi_square_test",
    "clopper_pearson_interval",
    "compare",
    "decision_curve_bands",
    "delong_interval",
    "delong_test",
    "design_note",
    "disparities",
    "g_test",
    "holm",
    "intervals_report",
    "joint_outcomes",
    "mcnemar",
    "paired_correctness",
    "paired_permutation",
    "permutation_test",
    "proportion_interval",
    "slice_calibration",
    "tally_intervals",
    "threshold_interval",
    "wilson_interval",
]


class _Package(ModuleType):
    """This package's module: a submodule named like a public name (`mcnemar`)
    never replaces the name once the submodule is imported, as eager imports ensured."""

    def __setattr__(self, name: str, value: Any) -> None:
        if isinstance(value, ModuleType) and name in _SOURCES and hasattr(value, name):
            value = getattr(value, name)
        super().__setattr__(name, value)


sys.modules[__name__].__class__ = _Package


__getattr__, __dir__ = lazy_names(__name__, _SOURCES, __all__)
