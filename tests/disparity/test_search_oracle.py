"""The slice search against a brute-force oracle: every crossing of the columns up to the
depth, no pruning, each slice's measure and simultaneous test written out here.

A slice is tested when every margin its measure divides by holds at least `min_size`
cases (Powers 2011, "Evaluation: from precision, recall and F-measure to ROC,
informedness, markedness and correlation"): informedness B = tp/(tp+fn) - fp/(fp+tn)
divides by the real positives and negatives, markedness M = tp/(tp+fp) - fn/(fn+tn) by
the predicted ones. The search must test exactly those slices, count exactly the
family of hypotheses they make (each slice against its rest, and each against the rest
of every tested slice it lies in), count and prune the slices the levels reach, and
report every slice whose Price & Bonett (2004, "An improved confidence interval for a
linear function of binomial proportions") interval excludes 0 and lies in no other
such slice.
"""

from __future__ import annotations

import itertools
import math
from typing import Any

import numpy as np
import pytest
from scipy import special

from informed import find_slices

MIN_SIZE = 10
Slice = tuple[tuple[str, str], ...]


def _data(seed: int) -> tuple[dict[str, Any], np.ndarray, np.ndarray]:
    """Small columns whose slices differ in prevalence and in how often the model says
    positive: some slices have many real positives and negatives but few predicted ones,
    others the reverse."""
    rng = np.random.default_rng(seed)
    n = int(rng.integers(150, 700))
    k = int(rng.integers(2, 4))
    columns = {
        f"c{j}": rng.choice([f"v{i}" for i in range(int(rng.integers(2, 4)))], n) for j in range(k)
    }
    # per value of c0 and c1: the prevalence and the rate the model says positive
    prevalence = {v: rng.choice([0.03, 0.1, 0.5, 0.9, 0.97]) for v in np.unique(columns["c0"])}
    says = {v: rng.choice([0.02, 0.08, 0.5, 0.92, 0.98]) for v in np.unique(columns["c1"])}
    p_real = np.array([prevalence[v] for v in columns["c0"]])
    p_said = np.array([says[v] for v in columns["c1"]])
    actual = (rng.random(n) < p_real).astype(int)
    # how much the prediction follows the real class, per value of the last column
    skill = {v: rng.choice([0.0, 0.4, 0.9]) for v in np.unique(columns[f"c{k - 1}"])}
    follows = rng.random(n) < np.array([skill[v] for v in columns[f"c{k - 1}"]])
    predicted = np.where(follows, actual, rng.random(n) < p_said).astype(int)
    return columns, actual, predicted


def _cells(inside: np.ndarray, actual: np.ndarray, predicted: np.ndarray) -> np.ndarray:
    a, p = actual[inside], predicted[inside]
    return np.array(
        [np.sum((p == 1) & (a == 1)), np.sum((p == 1) & (a == 0)),
         np.sum((p == 0) & (a == 1)), np.sum((p == 0) & (a == 0))],
        dtype=np.float64,
    )  # fmt: skip


def _denominators(cells: np.ndarray, measure: str) -> tuple[float, float]:
    tp, fp, fn, tn = cells
    if measure == "informedness":
        return tp + fn, fp + tn  # real positives, real negatives
    return tp + fp, fn + tn  # predicted positives, predicted negatives


def _value(cells: np.ndarray, measure: str) -> tuple[float, float]:
    """The measure and the variance of its estimate (two binomial proportions)."""
    tp, fp, fn, _ = cells
    first, second = _denominators(cells, measure)
    a = tp / first if first else math.nan
    b = (fp / second if measure == "informedness" else fn / second) if second else math.nan
    var = a * (1 - a) / first + b * (1 - b) / second if first and second else math.nan
    return a - b, var


def _oracle(
    columns: dict[str, Any], actual: np.ndarray, predicted: np.ndarray, depth: int,
    measure: str,
) -> dict[str, Any]:  # fmt: skip
    names = list(columns)
    everyone = np.ones(actual.size, dtype=bool)
    whole = _cells(everyone, actual, predicted)
    cells: dict[Slice, np.ndarray] = {}
    for L in range(1, min(depth, len(names)) + 1):
        for combo in itertools.combinations(names, L):
            for values in itertools.product(*(np.unique(columns[c]) for c in combo)):
                inside = everyone.copy()
                for c, v in zip(combo, values, strict=True):
                    inside &= columns[c] == v
                if inside.any():
                    key = tuple((c, str(v)) for c, v in zip(combo, values, strict=True))
                    cells[key] = _cells(inside, actual, predicted)
    adequate = {s for s, c in cells.items() if min(_denominators(c, measure)) >= MIN_SIZE}
    counted = {
        s for s in cells
        if len(s) == 1 or all(p in adequate for p in itertools.combinations(s, len(s) - 1))
    }  # fmt: skip
    nested = sum(1 for s in adequate for t in adequate if len(t) < len(s) and set(t) < set(s))
    hypotheses = len(adequate) + nested
    z = float(special.ndtri(1 - 0.05 / (2 * max(hypotheses, 1))))
    candidates = set()
    for s in adequate:
        mine, rest = cells[s], whole - cells[s]
        gap = _value(rest, measure)[0] - _value(mine, measure)[0]
        centre_rest, var_rest = _value(rest + 0.5, measure)
        centre_mine, var_mine = _value(mine + 0.5, measure)
        if (
            math.isfinite(gap)
            and centre_rest - centre_mine - z * math.sqrt(var_rest + var_mine) > 0
        ):
            candidates.add(s)
    return {
        "tested": len(adequate),
        "pruned": len(counted - adequate),
        "hypotheses": hypotheses,
        "adequate_counted": adequate <= counted,
        "candidates": candidates,
    }


@pytest.mark.parametrize("measure", ["informedness", "markedness"])
def test_search_matches_brute_force(measure: str) -> None:
    reported_any = 0
    for seed in range(60):
        columns, actual, predicted = _data(seed)
        depth = 3
        found = find_slices(
            columns=columns, actual=actual, predicted=predicted, positive=1,
            depth=depth, min_size=MIN_SIZE, measure=measure,
        )  # fmt: skip
        want = _oracle(columns, actual, predicted, depth, measure)
        assert want["adequate_counted"], seed
        got = (found.tested, found.pruned, found.hypotheses)
        assert got == (want["tested"], want["pruned"], want["hypotheses"]), (seed, got, want)
        names = {tuple((c, str(v)) for c, v in f.slice) for f in found.found}
        candidates = want["candidates"]
        assert names <= candidates, (seed, names - candidates)
        outermost = {s for s in candidates if not any(set(t) < set(s) for t in candidates)}
        assert outermost <= names, (seed, outermost - names)
        reported_any += bool(names)
    assert reported_any >= 5  # the comparison of what is reported is not vacuous


def test_markedness_tests_slices_by_predicted_margins() -> None:
    """Two slices with plenty of real positives and negatives but 3 predicted positives
    are not tested by markedness (its PPV would rest on 3 cases); one with 6 real
    positives but many predicted positives and negatives is. Informedness the reverse."""
    rng = np.random.default_rng(5)
    n = 3000
    group = rng.choice(["said_a", "said_b", "few_real", "other"], n, p=[0.2, 0.2, 0.2, 0.4])
    actual = (rng.random(n) < 0.5).astype(int)
    predicted = (rng.random(n) < 0.5).astype(int)
    for name in ("said_a", "said_b"):
        rows = np.flatnonzero(group == name)
        predicted[rows] = 0
        predicted[rows[:3]] = 1
    rows = np.flatnonzero(group == "few_real")
    actual[rows] = 0
    actual[rows[:6]] = 1
    kwargs = {"columns": {"group": group}, "actual": actual, "predicted": predicted,
              "positive": 1, "depth": 1, "min_size": MIN_SIZE}  # fmt: skip
    by_mk = find_slices(**kwargs, measure="markedness")
    by_b = find_slices(**kwargs, measure="informedness")
    assert (by_mk.tested, by_mk.pruned, by_mk.hypotheses) == (2, 2, 2)  # few_real, other
    assert (by_b.tested, by_b.pruned, by_b.hypotheses) == (3, 1, 3)  # said_a, said_b, other


@pytest.mark.parametrize("measure", ["informedness", "markedness"])
def test_multiclass_search_tests_and_counts_as_brute_force(measure: str) -> None:
    """Three labels (Powers' multiclass measures): informedness divides by each real
    class, markedness by each predicted label; a slice is tested when each label the
    whole data has in that margin has `min_size` cases in it."""
    for seed in range(30):
        rng = np.random.default_rng(100 + seed)
        n = int(rng.integers(300, 900))
        columns = {f"c{j}": rng.choice(["x", "y", "z"], n) for j in range(3)}
        real_p = {v: rng.dirichlet([1, 1, 1]) for v in "xyz"}
        said_p = {v: rng.dirichlet([0.5, 0.5, 0.5]) for v in "xyz"}
        actual = np.array([rng.choice(3, p=real_p[v]) for v in columns["c0"]])
        predicted = np.array([rng.choice(3, p=said_p[v]) for v in columns["c1"]])
        found = find_slices(columns=columns, actual=actual, predicted=predicted, depth=3,
                            min_size=MIN_SIZE, measure=measure)  # fmt: skip
        margin = actual if measure == "informedness" else predicted
        present = np.unique(margin)
        adequate: set[Slice] = set()
        reached: set[Slice] = set()
        for L in (1, 2, 3):
            for combo in itertools.combinations(list(columns), L):
                for values in itertools.product("xyz", repeat=L):
                    inside = np.ones(n, dtype=bool)
                    for c, v in zip(combo, values, strict=True):
                        inside &= columns[c] == v
                    if not inside.any():
                        continue
                    key = tuple(zip(combo, values, strict=True))
                    parents = itertools.combinations(key, L - 1)
                    if L > 1 and not all(p in adequate for p in parents):
                        continue
                    reached.add(key)
                    if all(np.sum(margin[inside] == k) >= MIN_SIZE for k in present):
                        adequate.add(key)
        nested = sum(1 for s in adequate for t in adequate if set(t) < set(s))
        want = (len(adequate), len(reached - adequate), len(adequate) + nested)
        assert (found.tested, found.pruned, found.hypotheses) == want, seed
