"""The Ranking summary: scores by tie group, its curves and its summaries.

`ranking` holds the Ranking (distinct scores with the actual positives and negatives at
each, and the classes it counts; construction, merge, JSON), `classes` the positive and
negative class a Ranking carries and how they merge, `calls` the arguments of its calls,
`methods` the registry's measures as its methods, `rows` rows to tie groups (two classes,
or one Ranking per class) and merges, `schema` the checks of its JSON form, `grouping` the
input checks and the one sort, `groups` the group arrays and quota locations the curves
share, `thresholds` precision and recall at a score threshold, the ROC curve and its
hull, `quotas` the quota curves of Arbel & Rokach (hit rate, Qrecall, lift, Pearson) and
the lift table, `summaries` the closed-form summaries (AUC, PEM, average hit rate, average
Qrecall), `operating` where to cut the scores (`Ranking.best_threshold`, the table at a
threshold), `registry` every ranking measure once (title, definition, range, chance
value, why it is undefined, source) and `document` the `RankingSummary` computed once for
every report, with its JSON document.
"""

from __future__ import annotations

from informed.ranking.binned import BinnedCalibration, binned_calibration
from informed.ranking.calibration import (
    Decomposition,
    ReliabilityCurve,
    reliability_curve,
    score_decomposition,
)
from informed.ranking.calibration_summary import Calibration, calibration
from informed.ranking.decision import DecisionCurve, beats_defaults, decision_curve
from informed.ranking.document import RankingSummary, ranking_report, summarize_ranking
from informed.ranking.operating import THRESHOLD_CRITERIA, OperatingPoint
from informed.ranking.pearson import pearson
from informed.ranking.quotas import (
    LiftTable,
    hit_rate,
    lift,
    lift_table,
    optimal_qrecall,
    qrecall,
    random_qrecall,
    threshold_at,
)
from informed.ranking.ranking import Ranking
from informed.ranking.recalibration import Recalibration, recalibration
from informed.ranking.registry import (
    ANY_MEASURE_NAMES,
    RANKING_MEASURES,
    RANKING_NAMES,
    ByAnyMeasure,
    RankingMeasure,
    ranking_measure_name,
    undefined_reason,
)
from informed.ranking.rows import largest_class, smallest_class
from informed.ranking.summaries import (
    auc,
    average_hit_rate,
    average_qrecall,
    pem,
    pem_areas,
)
from informed.ranking.thresholds import (
    RocCurve,
    precision_at,
    recall_at,
    roc_convex_hull,
    roc_curve,
)

# the summary first: the API reference lists a page's names in this order
__all__ = [  # noqa: RUF022
    "Ranking",
    "ANY_MEASURE_NAMES",
    "RANKING_MEASURES",
    "RANKING_NAMES",
    "THRESHOLD_CRITERIA",
    "ByAnyMeasure",
    "BinnedCalibration",
    "Calibration",
    "DecisionCurve",
    "Decomposition",
    "LiftTable",
    "OperatingPoint",
    "RankingMeasure",
    "RankingSummary",
    "Recalibration",
    "ReliabilityCurve",
    "RocCurve",
    "auc",
    "average_hit_rate",
    "average_qrecall",
    "beats_defaults",
    "binned_calibration",
    "calibration",
    "decision_curve",
    "hit_rate",
    "largest_class",
    "lift",
    "lift_table",
    "optimal_qrecall",
    "pearson",
    "pem",
    "pem_areas",
    "precision_at",
    "qrecall",
    "random_qrecall",
    "ranking_measure_name",
    "ranking_report",
    "recalibration",
    "recall_at",
    "reliability_curve",
    "roc_convex_hull",
    "roc_curve",
    "score_decomposition",
    "smallest_class",
    "summarize_ranking",
    "threshold_at",
    "undefined_reason",
]
