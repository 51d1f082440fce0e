"""Probabilities given as predicted labels are refused, pointing to scores (issue 27,
item 10).

``evaluate(y, [0.1, 0.9, 0.4, 0.3, 0.8])`` evaluated 7 "labels". scikit-learn refuses a
column of numbers with fractions ("continuous", `type_of_target`); informed does too, on
every route that counts a Table's labels, with one line that names the row and shows the
call with ``scores=``. Whole numbers as floats (1.0, 2.0) are labels; fractions that are
truly class labels are given as text. The oracle of which columns are refused is
scikit-learn's `type_of_target`.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from informed import Table, compare, evaluate
from informed.cli import main
from informed.errors import InputError
from informed.slices import Slices

ACTUAL = [0, 1, 0, 1, 1]
PROBABILITIES = [0.1, 0.9, 0.4, 0.3, 0.8]


def _refused(call: Any, *args: Any, **kwargs: Any) -> str:
    with pytest.raises(InputError) as error:
        call(*args, **kwargs)
    return str(error.value)


@pytest.mark.parametrize(
    "form",
    [list, np.array, lambda v: np.array(v, dtype=np.float32), lambda v: np.array(v, object)],
)
def test_probabilities_as_predicted_labels_are_refused(form: Any) -> None:
    """The issue's call, the column as a list or an array: one line naming the first row
    and showing the call with scores=."""
    message = _refused(evaluate, ACTUAL, form(PROBABILITIES))
    assert "\n" not in message
    assert "`predicted` holds 0.1" in message and "row 1" in message
    assert "look like scores" in message
    assert "Ranking.from_scores(actual, scores=..., positive=...)" in message
    assert "--score" in message


def test_every_route_that_counts_labels_refuses_them() -> None:
    """Table.from_labels (either side), frames, Slices and compare's models."""
    pd = pytest.importorskip("pandas")
    pl = pytest.importorskip("polars")
    pa = pytest.importorskip("pyarrow")
    assert "`predicted`" in _refused(Table.from_labels, ACTUAL, PROBABILITIES)
    assert "`actual` holds 0.1" in _refused(Table.from_labels, PROBABILITIES, ACTUAL)
    data = {"y": ACTUAL, "p": PROBABILITIES}
    for frame in (pd.DataFrame(data), pl.DataFrame(data), pa.table(data)):
        assert "look like scores" in _refused(evaluate, frame, actual="y", predicted="p")
    assert "look like scores" in _refused(evaluate, pd.Series(ACTUAL), pd.Series(PROBABILITIES))
    assert "look like scores" in _refused(
        Slices.from_labels, by=["a"] * 5, actual=ACTUAL, predicted=PROBABILITIES
    )
    models = {"m": PROBABILITIES, "n": ACTUAL}
    message = _refused(compare, ACTUAL, predicted=models)
    assert "`predicted['m']` holds 0.1" in message
    assert "compare(actual, scores={'m': ...}, positive=...)" in message


def test_whole_floats_and_text_are_labels() -> None:
    """1.0 and 0.0 are the labels 1 and 0; "0.5" given as text is a label (the way to
    name classes that are fractions)."""
    assert Table.from_labels([0.0, 1.0, 1.0], [1.0, 1.0, 0.0]) == Table.from_labels(
        [0, 1, 1], [1, 1, 0]
    )
    table = Table.from_labels(["0.5", "1.5", "0.5"], ["0.5", "0.5", "1.5"])
    assert table.labels == ("0.5", "1.5")


@settings(max_examples=200, deadline=None)
@given(
    st.lists(
        st.one_of(
            st.sampled_from([0.0, 1.0, 2.0, -3.0, 0.5, 0.25, 1e-9, 2.5, 2.0**52]),
            st.integers(-3, 3),
            st.floats(-10, 10, allow_nan=False, allow_infinity=False),
        ),
        min_size=1,
        max_size=8,
    )
)
def test_refused_exactly_where_scikit_learn_sees_continuous_values(values: list[Any]) -> None:
    """Refused if and only if scikit-learn's type_of_target calls the column continuous
    (within int64, which its check casts to: 1e300 is a whole number, a label here)."""
    multiclass = pytest.importorskip("sklearn.utils.multiclass")
    continuous = multiclass.type_of_target(np.array(values, dtype=float)) == "continuous"
    actual = [0] * len(values)
    if continuous:
        assert "look like scores" in _refused(Table.from_labels, actual, values)
    else:
        assert Table.from_labels(actual, values).n == len(values)


def test_the_command_line_refuses_a_csv_column_of_probabilities(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A CSV file's labels are text: "0.1" reads as a probability. One line, exit 2, and
    the option that ranks scores."""
    path = tmp_path / "probs.csv"
    path.write_text(
        "y,p\n" + "".join(f"{y},{p}\n" for y, p in zip(ACTUAL, PROBABILITIES, strict=True))
    )
    code = main(["evaluate", str(path), "--actual", "y", "--predicted", "p"])
    err = capsys.readouterr().err.strip()
    assert code == 2
    assert len(err.splitlines()) == 1
    assert "`p` holds '0.1'" in err and "data row 1" in err and "--score" in err
    code = main(["evaluate", str(path), "--actual", "y", "--score", "p", "--positive", "1"])
    assert code == 0
    capsys.readouterr()
    whole = tmp_path / "whole.csv"
    whole.write_text("y,p\n0,0.0\n1,1.0\n1,1\n")  # whole numbers written as decimals: labels
    assert main(["evaluate", str(whole), "--actual", "y", "--predicted", "p"]) == 0


def test_a_parquet_column_of_floats_as_labels_points_to_scores(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A typed float column is no label column of a file: the message says where it goes."""
    pa = pytest.importorskip("pyarrow")
    pq = pytest.importorskip("pyarrow.parquet")
    path = tmp_path / "probs.parquet"
    pq.write_table(pa.table({"y": ACTUAL, "p": PROBABILITIES}), path)
    assert main(["evaluate", str(path), "--actual", "y", "--predicted", "p"]) == 2
    err = capsys.readouterr().err
    assert "label column 'p' has type double" in err and "--score" in err
