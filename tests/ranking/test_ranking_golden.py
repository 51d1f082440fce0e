"""Every number of Arbel & Rokach's Tables 2, 3 and 5 (seed 004), from the shared golden file.

`shared/golden/arbel_rokach_tables.json` holds Tables 2 and 3 and Table 5's totals; the
rows of Table 5 are transcribed below from the seed's text
(`shared/seeds/004_0c59ae4051864135.txt`), because the golden file keeps only the totals.
"""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from informed.ranking import (
    Ranking,
    auc,
    average_hit_rate,
    average_qrecall,
    hit_rate,
    optimal_qrecall,
    pem,
    pem_areas,
    qrecall,
    random_qrecall,
)

GOLDEN = Path(__file__).resolve().parents[2].parent / "shared" / "golden"
CASES: list[dict[str, Any]] = json.loads((GOLDEN / "arbel_rokach_tables.json").read_text())["cases"]
KNOWN_KEYS = {
    "qrecall",
    "hit_rate",
    "average_qrecall",
    "average_hit_rate",
    "random_qrecall",
    "optimal_qrecall",
    "S1",
    "S2",
    "S3",
    "PEM",
}


def ranking_of(case: dict[str, Any]) -> Ranking:
    return Ranking.from_scores(actual=case["actual"], scores=case["scores"], positive=1)


def computed(case: dict[str, Any]) -> dict[str, Any]:
    ranking = ranking_of(case)
    quotas = np.arange(1, len(case["scores"]) + 1)
    s1, s2, s3 = pem_areas(ranking)
    return {
        "qrecall": qrecall(ranking, quotas).tolist(),
        "hit_rate": hit_rate(ranking, quotas).tolist(),
        "average_qrecall": average_qrecall(ranking),
        "average_hit_rate": average_hit_rate(ranking),
        "random_qrecall": random_qrecall(ranking, quotas).tolist(),
        "optimal_qrecall": optimal_qrecall(ranking, quotas).tolist(),
        "S1": s1,
        "S2": s2,
        "S3": s3,
        "PEM": pem(ranking),
    }


def test_every_golden_key_is_checked() -> None:
    """A key added to the golden file must not be skipped silently."""
    for case in CASES:
        assert set(case["expected"]) <= KNOWN_KEYS, set(case["expected"]) - KNOWN_KEYS


@pytest.mark.parametrize("case", CASES, ids=[case["name"] for case in CASES])
def test_golden_tables(case: dict[str, Any]) -> None:
    """Tables 2 and 3 (Qrecall, hit rate, their averages) and Table 5 (S1, S2, S3, PEM)."""
    tolerance = case["tolerance"]
    got = computed(case)
    for key, expected in case["expected"].items():
        values = np.atleast_1d(got[key])
        assert values.shape == np.atleast_1d(expected).shape, key
        assert np.allclose(values, expected, rtol=0, atol=tolerance), (key, values, expected)


# Seed 004, Table 5: place, probability, t, model / random / optimal Qrecall, S1, S2, S3.
TABLE5 = [
    (1, 0.45, 1, 0.25, 0.1, 0.25, 0.15, 0, 0.15),
    (2, 0.34, 0, 0.25, 0.2, 0.5, 0.05, 0, 0.3),
    (3, 0.32, 1, 0.5, 0.3, 0.75, 0.2, 0, 0.45),
    (4, 0.26, 1, 0.75, 0.4, 1, 0.35, 0, 0.6),
    (5, 0.15, 0, 0.75, 0.5, 1, 0.25, 0, 0.5),
    (6, 0.14, 0, 0.75, 0.6, 1, 0.15, 0, 0.4),
    (7, 0.09, 1, 1, 0.7, 1, 0.3, 0, 0.3),
    (8, 0.07, 0, 1, 0.8, 1, 0.2, 0, 0.2),
    (9, 0.06, 0, 1, 0.9, 1, 0.1, 0, 0.1),
    (10, 0.03, 0, 1, 1, 1, 0, 0, 0),
]


def test_table5_rows() -> None:
    """Each row of Table 5: the three Qrecall curves and the per-position areas."""
    ranking = Ranking.from_scores(
        actual=[row[2] for row in TABLE5], scores=[row[1] for row in TABLE5], positive=1
    )
    j = np.array([row[0] for row in TABLE5])
    model = qrecall(ranking, j)
    random = random_qrecall(ranking, j)
    optimal = optimal_qrecall(ranking, j)
    expected = np.array([row[3:] for row in TABLE5], dtype=float)
    got = np.column_stack(
        [
            model,
            random,
            optimal,
            np.maximum(model - random, 0),
            np.maximum(random - model, 0),
            optimal - random,
        ]
    )
    assert np.allclose(got, expected, rtol=0, atol=5e-4)
    # Totals: 1.75, 0 and 3, and PEM = 1.75 / 3.
    assert np.allclose(pem_areas(ranking), expected[:, 3:].sum(axis=0), rtol=0, atol=1e-12)


def test_table5_pem_is_twice_auc_minus_one() -> None:
    """Table 2's data: PEM 0.5833 (Table 5) and AUC 19/24 (positives beat 6+5+5+3 of 24 pairs)."""
    ranking = ranking_of(CASES[0])
    assert auc(ranking) == 19 / 24
    assert math.isclose(pem(ranking), 2 * 19 / 24 - 1, rel_tol=1e-15)
    assert math.isclose(pem(ranking), 0.5833, abs_tol=5e-5)
