"""Intervals and tests, resampling the summaries rather than the rows.

`interval` holds the Interval every method returns and `checks` the argument checks they
share; `replicates` the percentile and BCa rules for bootstrap replicates, used by
`table_bootstrap` (a Table's cells resampled; `design` says how, for a report) and
`ranking_bootstrap` (a Ranking's tie groups resampled); `proportions` the Wilson and
Clopper-Pearson intervals. `significance` holds the result of every test: `independence`
(chi-square and G of a Table), `mcnemar` (two classifiers on the same cases),
`permutation` (a measure against chance) and `delong` (DeLong's interval and paired test
for AUC). `threshold` bootstraps the value at a ranking's best threshold. Comparing
models on the same cases: `joint` holds the joint table of their outcomes and its
resampling, `paired` the paired bootstrap, permutation and McNemar tests and Holm's
adjustment, `compare` the comparison itself and `comparison` its result.
"""

from __future__ import annotations

from informed.inference.compare import RANKING_COMPARED, TABLE_COMPARED, compare
from informed.inference.comparison import Comparison, ModelResult
from informed.inference.delong import delong_interval, delong_test
from informed.inference.design import bootstrap_design, design_note
from informed.inference.independence import chi_square_test, g_test
from informed.inference.interval import Interval
from informed.inference.joint import JointOutcomes, joint_outcomes
from informed.inference.mcnemar import PairedCorrectness, mcnemar, paired_correctness
from informed.inference.paired import holm, paired_permutation
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
from informed.inference.significance import Significance
from informed.inference.table_bootstrap import (
    BOOTSTRAP_METHODS,
    WEIGHTS_ARE,
    Bootstrap,
    bootstrap,
    intervals_report,
)
from informed.inference.threshold import threshold_interval

__all__ = [
    "BOOTSTRAP_METHODS",
    "PROPORTIONS",
    "RANKING_COMPARED",
    "RANKING_QUOTA_MEASURES",
    "RANKING_SUMMARIES",
    "TABLE_COMPARED",
    "WEIGHTS_ARE",
    "Bootstrap",
    "Comparison",
    "Interval",
    "JointOutcomes",
    "ModelResult",
    "PairedCorrectness",
    "RankingBootstrap",
    "Significance",
    "bootstrap",
    "bootstrap_design",
    "bootstrap_ranking",
    "chi_square_test",
    "clopper_pearson_interval",
    "compare",
    "delong_interval",
    "delong_test",
    "design_note",
    "g_test",
    "holm",
    "intervals_report",
    "joint_outcomes",
    "mcnemar",
    "paired_correctness",
    "paired_permutation",
    "permutation_test",
    "proportion_interval",
    "threshold_interval",
    "wilson_interval",
]
