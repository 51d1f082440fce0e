"""Intervals and tests, resampling the summaries rather than the rows.

`bootstrap` resamples a Table's cells (percentile and BCa intervals) and holds the
proportion intervals, `significance` the tests on tables (chi-square, G, McNemar,
permutation), `ranking` DeLong's interval and test for AUC and the ranking bootstrap.
"""

from __future__ import annotations

from informed.inference.bootstrap import (
    BOOTSTRAP_METHODS,
    PROPORTIONS,
    Bootstrap,
    Interval,
    bootstrap,
    clopper_pearson_interval,
    intervals_report,
    proportion_interval,
    wilson_interval,
)
from informed.inference.ranking import (
    RANKING_QUOTA_MEASURES,
    RANKING_SUMMARIES,
    RankingBootstrap,
    bootstrap_ranking,
    delong_interval,
    delong_test,
)
from informed.inference.significance import (
    PairedCorrectness,
    Significance,
    chi_square_test,
    g_test,
    mcnemar,
    paired_correctness,
    permutation_test,
)

__all__ = [
    "BOOTSTRAP_METHODS",
    "PROPORTIONS",
    "RANKING_QUOTA_MEASURES",
    "RANKING_SUMMARIES",
    "Bootstrap",
    "Interval",
    "PairedCorrectness",
    "RankingBootstrap",
    "Significance",
    "bootstrap",
    "bootstrap_ranking",
    "chi_square_test",
    "clopper_pearson_interval",
    "delong_interval",
    "delong_test",
    "g_test",
    "intervals_report",
    "mcnemar",
    "paired_correctness",
    "permutation_test",
    "proportion_interval",
    "wilson_interval",
]
