"""`informed.torch`: the metrics count what `Table.from_labels` counts on the same batches,
torchmetrics' confusion matrices are the oracle of the counts, and the values are
`informed.evaluate`'s (informedness also against scikit-learn's adjusted balanced
accuracy, for two classes). Bad batches are refused with the element they name."""

from __future__ import annotations

import math
import subprocess
import sys
import textwrap

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

torch = pytest.importorskip("torch")
torchmetrics = pytest.importorskip("torchmetrics")

from sklearn.metrics import balanced_accuracy_score  # noqa: E402
from torchmetrics.classification import (  # noqa: E402
    BinaryConfusionMatrix,
    MulticlassConfusionMatrix,
)

from informed import Table, evaluate  # noqa: E402
from informed.errors import InputError, InputTypeError, UndefinedMeasureWarning  # noqa: E402
from informed.torch import (  # noqa: E402
    Base,
    ContingencyTable,
    Informedness,
    Markedness,
    TableMeasure,
)


@st.composite
def labelled_batches(draw, classes: int | None = None):  # type: ignore[no-untyped-def]
    """(C, batches of (predicted, actual) int64 tensors), some of them empty."""
    C = classes or draw(st.integers(2, 6))
    sizes = draw(st.lists(st.integers(0, 40), min_size=1, max_size=5))
    batches = []
    for size in sizes:
        labels = st.lists(st.integers(0, C - 1), min_size=size, max_size=size)
        batches.append(
            (
                torch.tensor(draw(labels), dtype=torch.int64),
                torch.tensor(draw(labels), dtype=torch.int64),
            )
        )
    return C, batches


def _joined(batches: list[tuple[torch.Tensor, torch.Tensor]]) -> tuple[np.ndarray, np.ndarray]:
    predicted = torch.cat([p for p, _ in batches]).numpy()
    actual = torch.cat([t for _, t in batches]).numpy()
    return predicted, actual


@settings(max_examples=60, deadline=None)
@given(labelled_batches())
def test_the_table_is_from_labels_of_every_batch(drawn) -> None:  # type: ignore[no-untyped-def]
    C, batches = drawn
    metric = ContingencyTable("multiclass", num_classes=C)
    oracle = MulticlassConfusionMatrix(num_classes=C)
    for predicted, actual in batches:
        metric.update(predicted, actual)
        oracle.update(predicted, actual)
    predicted, actual = _joined(batches)
    expected = Table.from_labels(actual, predicted, labels=range(C))
    assert metric.table() == expected
    assert metric.table().dtype == np.int64
    assert torch.equal(metric.compute(), oracle.compute())  # rows actual, as torchmetrics'


@settings(max_examples=60, deadline=None)
@given(labelled_batches())
def test_informedness_and_markedness_are_evaluates(drawn) -> None:  # type: ignore[no-untyped-def]
    C, batches = drawn
    informedness = Informedness("multiclass", num_classes=C)
    markedness = Markedness("multiclass", num_classes=C)
    for predicted, actual in batches:
        informedness.update(predicted, actual)
        markedness.update(predicted, actual)
    predicted, actual = _joined(batches)
    if not len(actual):
        with pytest.warns(UndefinedMeasureWarning, match="no data"):
            assert math.isnan(informedness.compute().item())
        return
    expected = evaluate(actual, predicted, labels=range(C)).measures
    for metric, name in ((informedness, "informedness"), (markedness, "markedness")):
        if math.isnan(expected[name]):  # nan with informed's reason, never 0
            with pytest.warns(UndefinedMeasureWarning, match=f"{name} is nan: label"):
                assert math.isnan(metric.compute().item())
            continue
        found = metric.compute()
        assert found.dtype == torch.float64 and found.dim() == 0
        assert found.item() == expected[name]  # evaluate's value, to the last bit
        seen = evaluate(actual, predicted).measures[name]  # only the labels seen: the same
        assert found.item() == pytest.approx(seen, rel=1e-12, abs=1e-15)


@settings(max_examples=40, deadline=None)
@given(labelled_batches(classes=2))
def test_binary_informedness_is_adjusted_balanced_accuracy(drawn) -> None:  # type: ignore[no-untyped-def]
    """Two classes: B = tpr + tnr - 1, scikit-learn's balanced accuracy adjusted for chance."""
    _, batches = drawn
    metric = Informedness("binary")
    for predicted, actual in batches:
        metric.update(predicted, actual)
    predicted, actual = _joined(batches)
    if len(set(actual.tolist())) < 2:
        return  # a class never occurs: undefined here, and scikit-learn warns
    peer = balanced_accuracy_score(actual, predicted, adjusted=True)
    assert metric.compute().item() == pytest.approx(peer, abs=1e-12)


def test_binary_scores_against_torchmetrics() -> None:
    """Probabilities thresholded (no score equal to the threshold), and labels as bools."""
    generator = torch.Generator().manual_seed(0)
    metric, oracle = ContingencyTable("binary", threshold=0.3), BinaryConfusionMatrix(threshold=0.3)
    for size in (10, 0, 500, 33):
        scores = (torch.randint(0, 64, (size,), generator=generator) + 0.5) / 64
        target = torch.randint(0, 2, (size,), generator=generator)
        metric.update(scores, target)
        oracle.update(scores, target)
        metric.update(scores > 0.3, target.bool())
        oracle.update((scores > 0.3).long(), target)
    assert torch.equal(metric.compute(), oracle.compute())
    assert metric.compute().sum().item() == 2 * 543


def test_a_score_at_the_threshold_predicts_positive() -> None:
    """informed's convention (rows scored t or more), where torchmetrics' is above t."""
    metric = ContingencyTable("binary")
    metric.update(torch.tensor([0.5, 0.5, 0.25, 1.0]), torch.tensor([1, 0, 0, 1]))
    assert metric.table().one_vs_rest(1) == Table.binary(
        tp=2, fp=1, fn=0, tn=1, labels=(1, 0)
    ).one_vs_rest(1)
    torchmetrics_counts = BinaryConfusionMatrix()(
        torch.tensor([0.5, 0.5, 0.25, 1.0]), torch.tensor([1, 0, 0, 1])
    )
    assert torchmetrics_counts.tolist() == [[2, 0], [1, 1]]  # (0.5 > 0.5 is False)


def test_binary_logits_through_the_sigmoid() -> None:
    logits = torch.tensor([-3.0, -0.1, 0.0, 0.2, 4.0, 0.9])
    target = torch.tensor([0, 0, 1, 1, 1, 0])
    metric = ContingencyTable("binary", logits=True, threshold=0.6)
    metric.update(logits, target)
    predicted = [1 / (1 + math.exp(-x)) >= 0.6 for x in logits.tolist()]
    expected = Table.from_labels(target.tolist(), [int(p) for p in predicted], labels=[0, 1])
    assert metric.table() == expected
    with pytest.raises(InputError, match=r"`preds` at row 1 \(index 0\) is -3.0: .*logits=True"):
        ContingencyTable("binary").update(logits, target)


@pytest.mark.parametrize("extra", [(), (3,)])
def test_multiclass_scores_are_read_by_argmax_as_torchmetrics(extra: tuple[int, ...]) -> None:
    generator = torch.Generator().manual_seed(1)
    metric, oracle = ContingencyTable("multiclass", num_classes=5), MulticlassConfusionMatrix(5)
    for size in (20, 1, 300):
        logits = torch.randn(size, 5, *extra, generator=generator)
        target = torch.randint(0, 5, (size, *extra), generator=generator)
        metric.update(logits, target)
        oracle.update(logits, target)
        metric.update(logits.softmax(dim=1), target.double())  # probabilities; whole floats
        oracle.update(logits.softmax(dim=1), target)
    assert torch.equal(metric.compute(), oracle.compute())


def test_labels_name_the_classes_in_the_table() -> None:
    metric = ContingencyTable("multiclass", num_classes=3, labels=["cat", "dog", "eel"])
    metric.update(torch.tensor([0, 1, 2, 2]), torch.tensor([0, 2, 2, 1]))
    expected = Table.from_labels(["cat", "eel", "eel", "dog"], ["cat", "dog", "eel", "eel"])
    assert metric.table() == expected


def test_the_metric_protocol() -> None:
    """A torchmetrics Metric: forward gives the batch's value and adds the batch; reset."""
    assert Base is torchmetrics.Metric and issubclass(Informedness, torchmetrics.Metric)
    metric = Informedness("binary")
    first = metric(torch.tensor([1, 1, 0, 0]), torch.tensor([1, 0, 0, 0]))
    second = metric(torch.tensor([1, 0]), torch.tensor([1, 0]))
    assert first.item() == pytest.approx(1 - 1 / 3) and second.item() == 1.0
    assert metric.counts.tolist() == [[3, 1], [0, 2]]
    assert metric.compute().item() == pytest.approx(1 - 1 / 4)
    metric.reset()
    assert metric.counts.tolist() == [[0, 0], [0, 0]]
    # a registered state, summed across processes
    assert metric._reductions == {"counts": torchmetrics.utilities.dim_zero_sum}
    assert TableMeasure("Youden's J").measure == "informedness"
    f1 = TableMeasure("F1", "binary")  # binary: the positive class's one-vs-rest value
    f1.update(torch.tensor([1, 1, 0, 0, 0]), torch.tensor([1, 0, 1, 1, 0]))
    assert f1.compute().item() == pytest.approx(2 * 1 / (2 * 1 + 1 + 2))


# fmt: off
BAD_BATCHES = [
    ("binary", None, torch.tensor([0, 2, 1]), torch.tensor([0, 1, 1]),
     InputError, r"`preds` at row 2 \(index 1\) is 2: with num_classes=2 the classes are 0 \.\. 1"),
    ("multiclass", 3, torch.tensor([0, 1, 2]), torch.tensor([0, -1, 1]),
     InputError, r"`target` at row 2 \(index 1\) is -1: .* 0 \.\. 2"),
    ("multiclass", 3, torch.tensor([[0, 1], [2, 3]]), torch.tensor([[0, 1], [2, 2]]),
     InputError, r"`preds` at index \(1, 1\) is 3"),
    ("binary", None, torch.tensor([0.2, float("nan")]), torch.tensor([0, 1]),
     InputError, r"`preds` at row 2 \(index 1\) is nan: a score cannot be nan"),
    ("multiclass", 2, torch.tensor([[0.2, 0.8], [float("nan"), 0.1]]), torch.tensor([0, 1]),
     InputError, r"`preds` at index \(1, 0\) is nan"),
    ("binary", None, torch.tensor([0, 1, 1]), torch.tensor([0, 1]),
     InputError, r"`preds` has shape \(3,\) and `target` \(2,\)"),
    ("binary", None, torch.rand(4, 2), torch.tensor([0, 1, 1, 0]),
     InputError, r"multiclass task with num_classes=2"),
    ("multiclass", 3, torch.rand(4, 2), torch.tensor([0, 1, 1, 0]),
     InputError, r"scores of shape \(N, C, \.\.\.\) = \(4, 3\)"),
    ("binary", None, torch.tensor([0, 1]), torch.tensor([0.0, 0.5]),
     InputError, r"`target` at row 2 \(index 1\) is 0.5: classes are whole numbers 0 \.\. 1"),
    ("binary", None, torch.tensor([0, 1]), torch.tensor([0.0, float("nan")]),
     InputError, r"`target` at row 2 \(index 1\) is nan"),
    ("multiclass", 3, torch.tensor(0.7), torch.tensor(1),
     InputError, r"scores of shape \(N, C, \.\.\.\) for a target of shape \(N, \.\.\.\); "
     r"the target has no batch dimension \(shape \(\)\)"),
    ("binary", None, [0, 1], torch.tensor([0, 1]),
     InputTypeError, r"`preds` must be a torch.Tensor; got list"),
]
# fmt: on


@pytest.mark.parametrize(("task", "C", "preds", "target", "error", "message"), BAD_BATCHES)
def test_bad_batches_are_refused_and_count_nothing(task, C, preds, target, error, message) -> None:  # type: ignore[no-untyped-def]
    metric = ContingencyTable(task, num_classes=C)
    with pytest.raises(error, match=message):
        metric.update(preds, target)
    assert metric.counts.sum().item() == 0


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"task": "multilabel"}, r"`task` must be one of \['binary', 'multiclass'\]"),
        ({"task": "binary", "num_classes": 3}, "a binary task has 2 classes"),
        ({"task": "multiclass"}, "needs num_classes"),
        ({"task": "multiclass", "num_classes": 4, "threshold": 0.3}, "argmax"),
        ({"task": "binary", "threshold": 1.5}, r"\[0, 1\]"),
        ({"task": "multiclass", "num_classes": 3, "labels": ["a", "b"]}, "names 2 classes"),
        # refused at once, not when table() is first called at the epoch's end
        ({"task": "binary", "labels": ["a", "a"]}, "'a' appears twice"),
    ],
)
def test_bad_arguments_are_refused(kwargs, message) -> None:  # type: ignore[no-untyped-def]
    with pytest.raises(InputError, match=message):
        ContingencyTable(**kwargs)


def test_without_torchmetrics_the_metrics_are_pure_torch_modules() -> None:
    """torchmetrics hidden: the same calls on PureMetric, a torch Module (the distributed
    sum of its counts is tested in test_torch_distributed.py)."""
    script = textwrap.dedent(
        """
        import sys
        sys.modules["torchmetrics"] = None
        import torch
        from informed import Table
        from informed.torch import Base, ContingencyTable, Informedness, PureMetric
        assert Base is PureMetric and "torchmetrics" not in [k for k, v in sys.modules.items() if v]
        metric = Informedness("multiclass", num_classes=3)
        first = metric(torch.tensor([0, 1, 2]), torch.tensor([0, 1, 2]))
        metric.update(torch.tensor([0, 0, 2, 1]), torch.tensor([0, 1, 2, 2]))
        assert first.item() == 1.0 and metric.counts.sum().item() == 7
        table = ContingencyTable("multiclass", num_classes=3)
        table.load_state_dict(metric.state_dict())
        assert table.table() == Table.from_labels([0, 1, 2, 0, 1, 2, 2], [0, 1, 2, 0, 0, 2, 1])
        assert torch.equal(table.compute(), metric.counts)
        table.reset()
        assert table.counts.sum().item() == 0 and metric.counts.sum().item() == 7
        print("pure ok")
        """
    )
    done = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, timeout=120, check=False
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["pure", "ok"]


def test_a_batch_refused_by_forward_keeps_the_counts_so_far() -> None:
    """torchmetrics' forward resets the states before it calls update, and restores them
    only if update returns: a bad batch given to ``metric(preds, target)`` must not wipe
    the batches counted before it (PureMetric's forward keeps them too)."""
    metric = Informedness("binary")
    metric.update(torch.tensor([0.7, 0.2, 0.6]), torch.tensor([1, 0, 1]))
    metric(torch.tensor([1, 0]), torch.tensor([0, 0]))
    before = metric.counts.tolist()
    with pytest.raises(InputError, match=r"is 1.5"):
        metric(torch.tensor([0.7, 1.5]), torch.tensor([1, 0]))
    assert metric.counts.tolist() == before == [[2, 1], [0, 2]]
    metric.update(torch.tensor([0.1]), torch.tensor([1]))
    assert metric.counts.tolist() == [[2, 1], [1, 2]]
    multiclass = ContingencyTable("multiclass", num_classes=3)
    value = multiclass(torch.tensor([[0.1, 0.7, 0.2], [0.5, 0.3, 0.2]]), torch.tensor([1, 2]))
    assert value.tolist() == [[0, 0, 0], [0, 1, 0], [1, 0, 0]]
    with pytest.raises(InputError, match="nan"):
        multiclass(torch.tensor([[0.1, float("nan"), 0.2]]), torch.tensor([1]))
    assert multiclass.counts.tolist() == [[0, 0, 0], [0, 1, 0], [1, 0, 0]]


def test_numpy_numbers_are_numbers() -> None:
    """num_classes from ``y.max() + 1`` (a numpy integer) and a numpy float threshold are
    an int and a number: refusing them as "an int of 2 or more" was a false reason."""
    metric = ContingencyTable("multiclass", num_classes=np.int64(3))
    assert metric.num_classes == 3 and type(metric.num_classes) is int
    binary = ContingencyTable("binary", threshold=np.float32(0.25))
    binary.update(torch.tensor([0.25, 0.2]), torch.tensor([1, 0]))
    assert binary.counts.tolist() == [[1, 0], [0, 1]]
    with pytest.raises(InputError, match=r"2 or more; got np.int64\(1\)"):
        ContingencyTable("multiclass", num_classes=np.int64(1))


def test_a_binary_metric_with_no_update_says_it_counted_no_case() -> None:
    """compute() (and evaluate of table()) before any update: every margin is empty, and
    the reason is that there are no cases, not that there are no real positives or no
    positive predictions (true, but the lesser part of the truth)."""
    for metric in (Informedness("binary"), Markedness("binary"), TableMeasure("MCC")):
        with pytest.warns(UndefinedMeasureWarning) as caught:
            assert math.isnan(metric.compute().item())
        assert [
            str(w.message).split(": ", 1)[1]
            for w in caught
            if w.category is UndefinedMeasureWarning
        ] == ["no data (N = 0)"], metric.measure
        empty = evaluate(metric.table(), positive=1)
        assert empty.reasons[metric.measure] == "no data (N = 0)"
