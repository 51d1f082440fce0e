"""informed: evaluate classifiers by what they got right beyond chance.

>>> from informed import Table, evaluate
>>> evaluate(Table.binary(tp=12, fp=28, fn=18, tn=42), positive="+").measures["informedness"]
0.0
>>> y_true, y_pred = ["a", "b", "b", "a"], ["a", "b", "a", "a"]  # scikit-learn's order
>>> evaluate(y_true, y_pred).table == Table.from_labels(y_true, y_pred)
True

The public names are loaded on first use (PEP 562), so `import informed` and the command
line's `informed --help` start without importing numpy, scipy or rich; the plot
functions (`informed.plot_roc`, ...; see `informed.plots`) load matplotlib when first
called.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from informed._lazy import lazy_names
from informed._routes import register_engine_route

if TYPE_CHECKING:
    from informed.comparison import (
        Comparison,
        compare,
        plot_differences,
        plot_fold_differences,
        plot_models_roc,
        plot_net_benefit_difference,
    )
    from informed.disparity import SliceSearch, find_slices, plot_found_slices
    from informed.errors import (
        InputError,
        InputTypeError,
        MemoryLimitError,
        UndefinedMeasureWarning,
    )
    from informed.inference import Bootstrap, Interval, bootstrap, bootstrap_slices, disparities
    from informed.measures import MEASURES, Measure
    from informed.plots import (
        plot_contingency,
        plot_decision_curve,
        plot_hit_rate,
        plot_lift,
        plot_per_label,
        plot_qrecall,
        plot_reliability,
        plot_roc,
        plot_slices,
        plot_slices_over_time,
        plot_tally,
    )
    from informed.ranking import (
        OperatingPoint,
        Ranking,
        calibration,
        decision_curve,
        ranking_report,
    )
    from informed.slices import Folds, Slices, evaluate_slices
    from informed.table import (
        Abstention,
        Evaluation,
        Matching,
        OneVsRest,
        Payoff,
        Stakes,
        Table,
        abstain,
        average,
        evaluate,
        match,
        payoff,
    )
    from informed.tally import Tally

# each public name and the module that defines it
_SOURCES = {
    "InputError": "informed.errors",
    "MemoryLimitError": "informed.errors",
    "InputTypeError": "informed.errors",
    "UndefinedMeasureWarning": "informed.errors",
    "Bootstrap": "informed.inference",
    "Comparison": "informed.comparison",
    "compare": "informed.comparison",
    "plot_differences": "informed.comparison",
    "plot_models_roc": "informed.comparison",
    "plot_net_benefit_difference": "informed.comparison",
    "plot_fold_differences": "informed.comparison",
    "plot_contingency": "informed.plots",
    "plot_decision_curve": "informed.plots",
    "plot_reliability": "informed.plots",
    "plot_hit_rate": "informed.plots",
    "plot_lift": "informed.plots",
    "plot_per_label": "informed.plots",
    "plot_qrecall": "informed.plots",
    "plot_roc": "informed.plots",
    "plot_slices": "informed.plots",
    "plot_slices_over_time": "informed.plots",
    "plot_tally": "informed.plots",
    "Interval": "informed.inference",
    "bootstrap": "informed.inference",
    "MEASURES": "informed.measures",
    "Measure": "informed.measures",
    "OperatingPoint": "informed.ranking",
    "Ranking": "informed.ranking",
    "ranking_report": "informed.ranking",
    "calibration": "informed.ranking",
    "decision_curve": "informed.ranking",
    "Abstention": "informed.table",
    "Evaluation": "informed.table",
    "Matching": "informed.table",
    "OneVsRest": "informed.table",
    "Payoff": "informed.table",
    "Stakes": "informed.table",
    "Table": "informed.table",
    "abstain": "informed.table",
    "average": "informed.table",
    "evaluate": "informed.table",
    "match": "informed.table",
    "payoff": "informed.table",
    "Tally": "informed.tally",
    "Slices": "informed.slices",
    "Folds": "informed.slices",
    "evaluate_slices": "informed.slices",
    "bootstrap_slices": "informed.inference",
    "disparities": "informed.inference",
    "SliceSearch": "informed.disparity",
    "find_slices": "informed.disparity",
    "plot_found_slices": "informed.disparity",
}

__all__ = [
    "MEASURES",
    "Abstention",
    "Bootstrap",
    "Comparison",
    "Evaluation",
    "Folds",
    "InputError",
    "InputTypeError",
    "Interval",
    "Matching",
    "Measure",
    "MemoryLimitError",
    "OneVsRest",
    "OperatingPoint",
    "Payoff",
    "Ranking",
    "SliceSearch",
    "Slices",
    "Stakes",
    "Table",
    "Tally",
    "UndefinedMeasureWarning",
    "abstain",
    "average",
    "bootstrap",
    "bootstrap_slices",
    "calibration",
    "compare",
    "decision_curve",
    "disparities",
    "evaluate",
    "evaluate_slices",
    "find_slices",
    "match",
    "payoff",
    "plot_contingency",
    "plot_decision_curve",
    "plot_differences",
    "plot_fold_differences",
    "plot_found_slices",
    "plot_hit_rate",
    "plot_lift",
    "plot_models_roc",
    "plot_net_benefit_difference",
    "plot_per_label",
    "plot_qrecall",
    "plot_reliability",
    "plot_roc",
    "plot_slices",
    "plot_slices_over_time",
    "plot_tally",
    "ranking_report",
]


__getattr__, __dir__ = lazy_names(__name__, _SOURCES, __all__)


def _engine_route() -> Any:
    """`informed.engines.route`, which counts an engine's lazy frame where it lives; the
    frames' calls in the layers below the engines reach it through `informed._routes`."""
    from informed.engines import route

    return route


register_engine_route(_engine_route)
