"""Training-loop metrics in the torchmetrics form whose state is the contingency table.

`ContingencyTable` counts batches into a C x C int64 tensor (rows actual, columns
predicted) on the batches' device, registered with ``dist_reduce_fx="sum"`` so that
processes' counts add up exactly; `TableMeasure` (and its `Informedness` and
`Markedness`) hands the summed counts to `informed.evaluate` for its value. No metric
computes a measure of its own, and `table()` gives the informed `Table` of the exact
counts, for intervals (`informed.bootstrap`) and reports.

With torchmetrics installed the metrics subclass `torchmetrics.Metric` (so Lightning's
``self.log(name, metric)`` takes them); without it, `PureMetric`, a `torch.nn.Module`
with the same calls.
"""

from __future__ import annotations

import math
import warnings
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import numpy as np
import torch

from informed._common import check_choice
from informed.errors import InputError, InputTypeError, UndefinedMeasureWarning
from informed.integrations.torch.inputs import Task, classes, count_cells
from informed.integrations.torch.pure import PureMetric
from informed.measures.names import measure_name
from informed.table import Table, evaluate
from informed.table.counting import check_label_list
from informed.table.evaluation import measure_values

if TYPE_CHECKING:
    from torchmetrics import Metric as Base
else:
    try:
        from torchmetrics import Metric as Base
    except ImportError:  # torchmetrics is optional: the metrics are plain torch Modules
        Base = PureMetric

__all__ = ["Base", "ContingencyTable", "Informedness", "Markedness", "TableMeasure"]

TASKS = ("binary", "multiclass")


def _number_of_classes(task: str, num_classes: object) -> int:
    check_choice(task, TASKS, "task")
    if task == "binary":
        if num_classes not in (None, 2) or isinstance(num_classes, bool):
            msg = f"a binary task has 2 classes; got num_classes={num_classes!r}."
            raise InputError(msg)
        return 2
    if (
        not isinstance(num_classes, int | np.integer)
        or isinstance(num_classes, bool)
        or num_classes < 2
    ):
        msg = f"a multiclass task needs num_classes, an int of 2 or more; got {num_classes!r}."
        raise InputError(msg)
    return int(num_classes)


def _threshold(task: str, threshold: object, logits: object) -> float:
    if not isinstance(logits, bool):
        msg = f"`logits` must be True or False; got {logits!r}."
        raise InputTypeError(msg)
    if task == "multiclass":
        if threshold is not None or logits:
            msg = (
                "multiclass scores are read by their argmax, probabilities and logits "
                "alike: `threshold` and `logits` are for the binary task."
            )
            raise InputError(msg)
        return math.nan
    if threshold is None:
        return 0.5
    if isinstance(threshold, bool) or not isinstance(
        threshold, int | float | np.integer | np.floating
    ):
        msg = f"`threshold` must be a number in [0, 1]; got {threshold!r}."
        raise InputTypeError(msg)
    if not 0 <= threshold <= 1:
        msg = f"`threshold` is a probability in [0, 1]; got {threshold!r}."
        raise InputError(msg)
    return float(threshold)


class ContingencyTable(Base):
    """The contingency table of every batch, counted on the batches' device.

    Parameters
    ----------
    task : {"binary", "multiclass"}
        Two classes, 0 (negative) and 1 (positive); or `num_classes` classes 0 .. C-1.
    num_classes : int, optional
        C, for the multiclass task (2 or more).
    threshold : float, optional
        Binary scores (floating `preds`) at or above it predict class 1; default 0.5.
        torchmetrics predicts above it: the two differ only for a score equal to it.
    logits : bool
        Binary scores are logits, read as ``sigmoid(preds) >= threshold``; without it,
        floating `preds` outside [0, 1] are refused.
    labels : sequence, optional
        The classes' labels in the Table (class i is ``labels[i]``); default 0 .. C-1.
    **kwargs
        torchmetrics' options of every `Metric` (`sync_on_compute`, `dist_sync_fn`, ...).

    Attributes
    ----------
    counts : torch.Tensor
        The C x C int64 counts of this process, rows actual, columns predicted (as
        torchmetrics' confusion matrices); a state with ``dist_reduce_fx="sum"``.

    Notes
    -----
    `update(preds, target)` takes labels (integer or bool `preds` of the target's shape)
    or scores: binary scores of the target's shape, thresholded; multiclass scores of
    shape (N, C, ...), their argmax over dimension 1. Targets are classes 0 .. C-1
    (integers, bool, or floats that are whole numbers). A batch is counted with one
    `torch.bincount` of ``target * C + predicted`` on its device; only the C x C counts
    move to the CPU, when `table()` or `compute()` of a measure is called.

    Examples
    --------
    >>> import torch
    >>> from informed.torch import ContingencyTable
    >>> metric = ContingencyTable("binary")
    >>> metric.update(torch.tensor([0.9, 0.2, 0.6, 0.4]), torch.tensor([1, 0, 0, 1]))
    >>> metric.compute().tolist()
    [[1, 1], [1, 1]]
    >>> metric.table().one_vs_rest(1)
    OneVsRest(label=1, tp=1.0, fp=1.0, fn=1.0, tn=1.0)
    """

    is_differentiable = False
    higher_is_better: bool | None = None
    full_state_update = False
    counts: torch.Tensor

    def __init__(
        self,
        task: Task = "binary",
        num_classes: int | None = None,
        *,
        threshold: float | None = None,
        logits: bool = False,
        labels: Sequence[Any] | None = None,
        **kwargs: Any,
    ) -> None:
        super().__init__(**kwargs)
        C = _number_of_classes(task, num_classes)
        self.task: Task = task
        self.num_classes = C
        self.threshold = _threshold(task, threshold, logits)
        self.logits = logits
        # refused here, not at the epoch's end when `table()` builds the Table
        self.labels: tuple[Any, ...] = (
            tuple(range(C)) if labels is None else check_label_list(labels, "labels")
        )
        if len(self.labels) != C:
            msg = f"`labels` names {len(self.labels)} classes; there are num_classes={C}."
            raise InputError(msg)
        self.add_state("counts", default=torch.zeros(C, C, dtype=torch.int64), dist_reduce_fx="sum")

    def _classes(self, preds: object, target: object) -> tuple[torch.Tensor, torch.Tensor]:
        return classes(
            preds,
            target,
            task=self.task,
            num_classes=self.num_classes,
            threshold=self.threshold,
            logits=self.logits,
        )

    def update(self, preds: torch.Tensor, target: torch.Tensor) -> None:
        """Count a batch: `preds` (labels or scores) against `target` (the classes)."""
        predicted, actual = self._classes(preds, target)
        self.counts += count_cells(predicted, actual, self.num_classes).to(self.counts.device)

    def forward(self, preds: torch.Tensor, target: torch.Tensor) -> Any:
        """Count a batch and return its value alone. The batch is checked and read as
        classes first: torchmetrics' forward resets the states before it calls `update`
        and puts them back only if `update` returns, so a batch refused there would lose
        every count so far."""
        return super().forward(*self._classes(preds, target))

    def _summed(self) -> torch.Tensor:
        """The counts summed over every process (torchmetrics' sync, or all_reduce)."""
        if isinstance(self, PureMetric):
            return self.synced("counts")
        if self._is_synced:  # inside torchmetrics' compute, which synced them
            return self.counts
        with self.sync_context(should_sync=self._to_sync):
            return self.counts.clone()

    def compute(self) -> torch.Tensor:
        """The C x C int64 counts over every batch and process (rows actual)."""
        return self._summed().clone()

    def table(self) -> Table:
        """The informed `Table` of the counts over every batch and process (exact int64
        counts; every class a label, seen or not), for `informed.evaluate`,
        `informed.bootstrap` and the reports. Every process calls it together when a
        process group is initialised."""
        counts = self._summed().detach().cpu().numpy()
        return Table.from_counts(counts, rows="actual", labels=list(self.labels), weighted=False)


class TableMeasure(ContingencyTable):
    """A measure of informed's registry (`informed.MEASURES`) over every batch: its value
    is `informed.evaluate`'s on `table()`; for the binary task, the one-vs-rest value of
    class 1 (the positive class).

    Parameters
    ----------
    measure : str
        The measure's registry name, title or alias ("informedness", "Youden's J", "MCC").
    task, num_classes, threshold, logits, labels, **kwargs
        As `ContingencyTable` takes them.

    Notes
    -----
    `compute()` returns a 0-d float64 tensor on the CPU. An undefined value (no case
    counted, a class never predicted where the measure needs it) is nan, with an
    `informed.UndefinedMeasureWarning` that gives informed's reason; never 0.
    """

    def __init__(
        self,
        measure: str,
        task: Task = "binary",
        num_classes: int | None = None,
        **kwargs: Any,
    ) -> None:
        self.measure = measure_name(measure)
        super().__init__(task, num_classes, **kwargs)

    def compute(self) -> torch.Tensor:
        """The measure of the counts over every batch and process, as a 0-d tensor."""
        table = self.table()
        positive = self.labels[1] if self.task == "binary" else None
        index = None if positive is None else table.label_position(positive)
        # the one measure, where evaluate forms its value (evaluate computes them all)
        overall, _ = measure_values(table.square_cells()[1], [self.measure], index)
        value = float(overall[self.measure])
        if math.isnan(value):
            evaluation = evaluate(table, positive=positive)  # for its reason
            reason = evaluation.reasons.get(self.measure, "undefined")
            warnings.warn(f"{self.measure} is nan: {reason}", UndefinedMeasureWarning, 2)
        return torch.tensor(value, dtype=torch.float64)


class Informedness(TableMeasure):
    """Informedness (Bookmaker informedness, Youden's J) over every batch.

    Binary: B = tpr - fpr = tp / (tp + fn) - fp / (fp + tn). Multiclass: Powers'
    bias-weighted Bookmaker, B = sum_l pP(l) B(l), each label's one-vs-rest informedness
    weighted by how often it is predicted (not scikit-learn's adjusted balanced accuracy,
    which weights the classes equally). The value is `informed.evaluate`'s.

    Powers, D. M. W. (2003). Recall and Precision versus the Bookmaker. Proceedings of
    the International Conference on Cognitive Science (ICCS 2003), Sydney.

    Parameters
    ----------
    task, num_classes, threshold, logits, labels, **kwargs
        As `ContingencyTable` takes them.

    Examples
    --------
    >>> import torch
    >>> from informed.torch import Informedness
    >>> metric = Informedness("multiclass", num_classes=3)
    >>> metric.update(torch.tensor([0, 1, 2, 2]), torch.tensor([0, 1, 1, 2]))
    >>> round(metric.compute().item(), 4)  # 1/4 * 1 + 1/4 * 1/2 + 2/4 * 2/3
    0.7083
    """

    higher_is_better = True

    def __init__(
        self, task: Task = "binary", num_classes: int | None = None, **kwargs: Any
    ) -> None:
        super().__init__("informedness", task, num_classes, **kwargs)


class Markedness(TableMeasure):
    """Markedness over every batch, the dual of informedness.

    Binary: M = precision + npv - 1 = tp / (tp + fp) - fn / (fn + tn). Multiclass: the
    prevalence-weighted markedness, M = sum_l pR(l) M(l). The value is
    `informed.evaluate`'s.

    Powers, D. M. W. (2011). Evaluation: From Precision, Recall and F-Measure to ROC,
    Informedness, Markedness & Correlation. Journal of Machine Learning Technologies 2(1).

    Parameters
    ----------
    task, num_classes, threshold, logits, labels, **kwargs
        As `ContingencyTable` takes them.
    """

    higher_is_better = True

    def __init__(
        self, task: Task = "binary", num_classes: int | None = None, **kwargs: Any
    ) -> None:
        super().__init__("markedness", task, num_classes, **kwargs)
