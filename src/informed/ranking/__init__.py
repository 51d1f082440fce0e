"""The Ranking summary: scores by tie group, its curves and its summaries.

`ranking` holds the Ranking (distinct scores with the actual positives and negatives at
each; construction, merge, JSON), `grouping` the input checks and the one sort,
`curves` the curves of Arbel & Rokach and of ROC analysis, `summaries` the closed-form
summaries (AUC, average hit rate, average Qrecall, PEM) and the ranking's JSON document.
"""

from __future__ import annotations

from informed.ranking.ranking import (
    LiftTable,
    Ranking,
    RocCurve,
    auc,
    average_hit_rate,
    average_qrecall,
    hit_rate,
    largest_class,
    lift,
    lift_table,
    optimal_qrecall,
    pearson,
    pem,
    pem_areas,
    precision_at,
    qrecall,
    random_qrecall,
    ranking_report,
    recall_at,
    roc_convex_hull,
    roc_curve,
    smallest_class,
    threshold_at,
    undefined_reason,
)

__all__ = [
    "LiftTable",
    "Ranking",
    "RocCurve",
    "auc",
    "average_hit_rate",
    "average_qrecall",
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
    "ranking_report",
    "recall_at",
    "roc_convex_hull",
    "roc_curve",
    "smallest_class",
    "threshold_at",
    "undefined_reason",
]
