"""The JSON of thousands of labels, written a chunk of labels at a time, is the text
`json.dumps` gives of the whole document built at once."""

from __future__ import annotations

import io
import json

import numpy as np
import pytest

from informed import Table, evaluate
from informed.report import results_document, write_json
from informed.table import payoff


@pytest.mark.parametrize("chunk", [1, 7, 1000, 5000])
def test_written_in_chunks_is_json_dumps_of_the_whole(chunk: int) -> None:
    rng = np.random.default_rng(5)
    actual = [f"l{x}" for x in rng.integers(0, 2500, 8000)]
    predicted = [f"l{x}" for x in rng.integers(0, 2500, 8000)]
    result = evaluate(Table.from_labels(actual=actual, predicted=predicted))
    pay = payoff(result.table)
    whole = json.dumps(results_document(result, pay), allow_nan=False)
    out = io.StringIO()
    write_json(results_document(result, pay, lazy=True), out.write, chunk=chunk)
    assert out.getvalue() == whole
    assert len(json.loads(out.getvalue())["per_label"]) == len(result.table.labels)


def test_a_nan_is_refused_as_by_json_dumps() -> None:
    with pytest.raises(ValueError, match="JSON compliant"):
        write_json({"x": float("nan")}, io.StringIO().write)
