"""The calls a scikit-learn user types (issue 20, items 10-12): `evaluate(y_true, y_pred)`,
`Table.from_labels(y, p)`, `evaluate(frame, actual="y", predicted="p")`, `sample_weight=`,
`sum(tables)`; a wrong call is one line showing the call to write.

Expected tables come from scikit-learn's `confusion_matrix` (rows = actual), the oracle;
informedness of two classes from its `balanced_accuracy_score(adjusted=True)`.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
import pytest

from informed import InputTypeError, Table, evaluate

ACTUAL = ["a", "b", "b", "a", "b", "a", "b", "b"]
PREDICTED = ["a", "b", "a", "a", "b", "b", "b", "a"]
WEIGHTS = [1.0, 2.0, 0.5, 1.0, 3.0, 1.0, 0.25, 1.0]


def _oracle(weights: Any = None) -> Table:
    metrics = pytest.importorskip("sklearn.metrics")
    matrix = metrics.confusion_matrix(ACTUAL, PREDICTED, labels=["a", "b"], sample_weight=weights)
    if weights is not None:
        matrix = matrix.astype(np.float64)
    return Table.from_counts(matrix, rows="actual", labels=["a", "b"])


CALLS: dict[str, Callable[[], Any]] = {
    "evaluate(y, p)": lambda: evaluate(ACTUAL, PREDICTED),
    "evaluate(actual=, predicted=)": lambda: evaluate(actual=ACTUAL, predicted=PREDICTED),
    "evaluate(y_true=, y_pred=)": lambda: evaluate(y_true=ACTUAL, y_pred=PREDICTED),
    "evaluate(y, predicted=)": lambda: evaluate(ACTUAL, predicted=PREDICTED),
    "evaluate(arrays)": lambda: evaluate(np.array(ACTUAL), np.array(PREDICTED)),
    "evaluate(mapping, names)": lambda: evaluate(
        {"y": ACTUAL, "p": PREDICTED}, actual="y", predicted="p"
    ),
    "evaluate(table)": lambda: evaluate(Table.from_labels(ACTUAL, PREDICTED)),
}


@pytest.mark.parametrize("call", list(CALLS))
def test_every_call_counts_the_same_table(call: str) -> None:
    """Each call a scikit-learn user types counts scikit-learn's confusion matrix, actual
    first (a transposed table would swap informedness and markedness)."""
    result = CALLS[call]()
    assert result.table == _oracle()
    metrics = pytest.importorskip("sklearn.metrics")
    expected = metrics.balanced_accuracy_score(ACTUAL, PREDICTED, adjusted=True)
    assert result.measures["informedness"] == pytest.approx(expected, abs=1e-15)


WEIGHTED: dict[str, Callable[[], Table]] = {
    "from_labels(y, p, weights=)": lambda: Table.from_labels(ACTUAL, PREDICTED, weights=WEIGHTS),
    "from_labels(sample_weight=)": lambda: Table.from_labels(
        y_true=ACTUAL, y_pred=PREDICTED, sample_weight=WEIGHTS
    ),
    "evaluate(y, p, weights=)": lambda: evaluate(ACTUAL, PREDICTED, weights=WEIGHTS).table,
    "evaluate(y, p, sample_weight=)": lambda: (
        evaluate(ACTUAL, PREDICTED, sample_weight=WEIGHTS).table
    ),
    "evaluate(frame, weights='w')": lambda: (
        evaluate(
            {"y": ACTUAL, "p": PREDICTED, "w": WEIGHTS}, actual="y", predicted="p", weights="w"
        ).table
    ),
    "from_frame(sample_weight='w')": lambda: Table.from_frame(
        {"y": ACTUAL, "p": PREDICTED, "w": WEIGHTS}, y_true="y", y_pred="p", sample_weight="w"
    ),
}


@pytest.mark.parametrize("call", list(WEIGHTED))
def test_weights_have_one_name_and_scikit_learns_alias(call: str) -> None:
    """`weights=` everywhere, `sample_weight=` accepted: the weighted confusion matrix."""
    assert WEIGHTED[call]() == _oracle(WEIGHTS)


@pytest.mark.parametrize("library", ["pandas", "polars", "pyarrow"])
def test_frames_of_every_library(library: str) -> None:
    """evaluate(frame, actual=..., predicted=...) reads pandas, polars and Arrow frames."""
    module = pytest.importorskip(library)
    data = {"y": ACTUAL, "p": PREDICTED}
    frame = module.table(data) if library == "pyarrow" else module.DataFrame(data)
    assert evaluate(frame, actual="y", predicted="p").table == _oracle()
    with pytest.raises(InputTypeError) as error:
        evaluate(frame)
    assert str(error.value) == (
        "evaluate(frame) counts two columns of the frame; name the columns: "
        "evaluate(frame, actual='...', predicted='...'); its columns are ['y', 'p']."
    )


def test_series_are_labels_not_frames() -> None:
    """A pandas or polars Series is a column of labels, counted positionally."""
    pd = pytest.importorskip("pandas")
    pl = pytest.importorskip("polars")
    assert evaluate(pd.Series(ACTUAL), pd.Series(PREDICTED)).table == _oracle()
    assert Table.from_labels(pl.Series(ACTUAL), pl.Series(PREDICTED)) == _oracle()


@pytest.mark.parametrize(
    ("call", "shown"),
    [
        (lambda: Table(ACTUAL, PREDICTED), "Table.from_labels(actual, predicted)"),
        (lambda: Table(actual=ACTUAL, predicted=PREDICTED), "Table.from_labels(actual, predicted)"),
        (lambda: Table.from_labels({"y": ACTUAL}), "Table.from_frame(frame, actual='...'"),
        (lambda: evaluate(ACTUAL), "evaluate(actual, predicted)"),
        (lambda: evaluate(), "evaluate(actual, predicted)"),
        (lambda: evaluate(ACTUAL, PREDICTED, WEIGHTS), "evaluate(actual, predicted, weights=...)"),
        (
            lambda: Table.from_labels(ACTUAL, PREDICTED, WEIGHTS),
            "Table.from_labels(actual, predicted, weights=...)",
        ),
        (lambda: evaluate(ACTUAL, PREDICTED, actual=ACTUAL), "give it once"),
        (lambda: evaluate(Table.from_labels(ACTUAL, PREDICTED), PREDICTED), "evaluate(table)"),
        (
            lambda: evaluate(Table.from_labels(ACTUAL, PREDICTED), weights=WEIGHTS),
            "evaluate(table), or evaluate(actual, predicted)",
        ),
        (lambda: evaluate(np.eye(2, dtype=int)), "Table.from_counts(matrix, rows='actual')"),
        (
            lambda: evaluate(ACTUAL, PREDICTED, weight=WEIGHTS, sample_weight=WEIGHTS),
            "give it once, as weights=",
        ),
        (lambda: evaluate(ACTUAL, PREDICTED, wieghts=WEIGHTS), "it takes actual=, predicted="),
        (
            lambda: evaluate({"y": ACTUAL, "p": PREDICTED}, actual=ACTUAL, predicted="p"),
            "evaluate(frame, actual='y', predicted='p')",
        ),
        (lambda: Table.from_frame({"y": ACTUAL}, actual="y"), "Table.from_frame(frame, actual="),
    ],
)
def test_a_wrong_call_shows_the_call_to_write(call: Callable[[], Any], shown: str) -> None:
    """Each wrong call is an InputTypeError of one line that shows the call to write,
    never Python's generic TypeError or an AttributeError from inside."""
    with pytest.raises(InputTypeError) as error:
        call()
    message = str(error.value)
    assert shown in message
    assert "\n" not in message


def test_existing_keyword_calls_still_work() -> None:
    """The keyword calls of earlier releases give the same table."""
    table = Table.from_labels(predicted=PREDICTED, actual=ACTUAL)
    assert table == Table.from_labels(ACTUAL, PREDICTED) == _oracle()
    assert evaluate(table, positive="a").positive == "a"


def test_sum_of_tables() -> None:
    """sum(tables) adds the counts (from Python's 0 or from Table.empty()), and the empty
    Table is the identity of + for counts and weights alike."""
    first = Table.binary(tp=1, fp=2, fn=3, tn=4)
    second = Table.from_labels(["+", "x"], ["+", "+"])
    total = sum([first, second, first])
    assert isinstance(total, Table)
    assert total == first + second + first
    assert total.count("+", "+") == 3 and total.count("+", "x") == 1
    assert sum([first, second], Table.empty()) == first + second
    weighted = Table.from_labels(ACTUAL, PREDICTED, weights=WEIGHTS)
    assert Table.empty() + weighted == weighted == weighted + Table.empty()
    assert Table.empty().n == 0 and Table.empty().shape == (0, 0)
    assert sum([weighted]) == weighted
    with pytest.raises(TypeError):
        _ = 1 + first  # type: ignore[operator]


def test_a_frame_read_through_the_arrow_interface() -> None:
    """A frame that speaks only the Arrow PyCapsule interface (no `columns`) is read as a
    frame when the columns are named."""
    pa = pytest.importorskip("pyarrow")

    class Capsule:
        def __init__(self, table: Any) -> None:
            self._table = table

        def __arrow_c_stream__(self, requested_schema: Any = None) -> Any:
            return self._table.__arrow_c_stream__(requested_schema)

    frame = Capsule(pa.table({"y": ACTUAL, "p": PREDICTED}))
    assert evaluate(frame, actual="y", predicted="p").table == _oracle()


def test_repr_of_a_large_dense_table_is_bounded() -> None:
    """A dense table of 200 labels has a one-line repr naming 20 labels a side, not its
    40,000 counts; a small one keeps the call that makes it again."""
    labels = np.arange(200)
    table = Table.from_labels(labels, labels, storage="dense")
    text = repr(table)
    assert "\n" not in text and len(text) < 400
    assert "and 180 more" in text and "storage='dense'" in text and "n=200" in text
    small = Table.binary(tp=1, fp=2, fn=3, tn=4)
    assert repr(small) == "Table(predicted=['+', '-'], actual=['+', '-'], counts=[[1, 2], [3, 4]])"
