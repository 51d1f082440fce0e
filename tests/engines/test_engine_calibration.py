"""Calibration and decision curves of a Ranking counted on an engine (DuckDB's
`GROUP BY score, actual`, no new pass over the rows) equal those of the same rows in
memory, document for document."""

from __future__ import annotations

import numpy as np
import pytest

from informed import Ranking
from informed.ranking import calibration, decision_curve


def test_a_duckdb_ranking_calibrates_as_the_rows_in_memory() -> None:
    duckdb = pytest.importorskip("duckdb")
    pa = pytest.importorskip("pyarrow")
    rng = np.random.default_rng(3)
    scores = np.round(rng.beta(2, 3, 3000), 3)
    rows = pa.table({"y": rng.random(3000) < scores, "s": scores})
    relation = duckdb.connect().from_arrow(rows)
    options = {"actual": "y", "scores": "s", "positive": True}
    counted = Ranking.from_frame(relation, **options)
    memory = Ranking.from_frame(rows, **options)
    assert calibration(counted).to_dict() == calibration(memory).to_dict()
    assert decision_curve(counted).to_dict() == decision_curve(memory).to_dict()
