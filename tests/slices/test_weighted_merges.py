"""Fractional weights merged by one sort add each score's weights exactly as merges a
pair at a time add them: `merge_tree` against a brute-force fold of Python floats, and a
file read batch by batch (`read_slices`) against the binary counter written out here.

Weights such as 1e17, 0.1, 1e-17 and 3.3 make every sum depend on the order of addition,
so a merge that adds in another order fails these tests bit for bit. Counts read batch by
batch give every slice's and the overall Ranking of the rows (a brute-force count).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
import pytest

from informed.io.sliced import read_slices
from informed.ranking.rows import Tree, merge_tree
from informed.slices.ranked import group_weighted_slices

pa = pytest.importorskip("pyarrow")
pq = pytest.importorskip("pyarrow.parquet")

WEIGHTS = np.array([0.1, 1e-17, 1e17, 3.3, 0.7, 2.5e-3, 1.0 / 3.0])
Sums = dict[float, tuple[float, float]]


def _bits(values: Any) -> list[int]:
    return [int(x) for x in np.asarray(values, dtype=np.float64).view(np.uint64)]


def _fold(tree: Tree, parts: dict[int, Sums]) -> Sums | None:
    """The parts' sums merged as `tree` says, in Python floats: a score in both halves of
    a pair gets left + right; an absent or empty part is left out."""
    if isinstance(tree, int):
        return parts.get(tree) or None
    left, right = _fold(tree[0], parts), _fold(tree[1], parts)
    if left is None or right is None:
        return left if right is None else right
    found = dict(left)
    for score, (p, n) in right.items():
        if score in found:
            found[score] = (found[score][0] + p, found[score][1] + n)
        else:
            found[score] = (p, n)
    return found


def _random_tree(rng: np.random.Generator, leaves: list[int]) -> Tree:
    if len(leaves) == 1:
        return leaves[0]
    cut = int(rng.integers(1, len(leaves)))
    return (_random_tree(rng, leaves[:cut]), _random_tree(rng, leaves[cut:]))


@pytest.mark.parametrize("seed", range(40))
def test_merge_tree_adds_as_pairs_do(seed: int) -> None:
    rng = np.random.default_rng(seed)
    count = int(rng.integers(1, 40))
    # a pool of scores: small ones shared by most parts, large ones by few
    pool = np.round(rng.random(int(rng.choice([5, 50, 5000]))), 4)
    parts: dict[int, Sums] = {}
    for i in range(count):
        if rng.random() < 0.15:
            continue  # a part absent from this slice
        size = int(rng.integers(0, min(pool.size, 60) + 1))
        scores = rng.choice(pool, size, replace=False)
        parts[i] = {
            float(s): (
                float(rng.choice(WEIGHTS)) * (rng.random() < 0.8),
                float(rng.choice(WEIGHTS)),
            )
            for s in scores
        }
    tree = _random_tree(rng, list(range(count)))
    grouped = {
        i: (
            np.array(sorted(p, reverse=True), dtype=np.float64),
            np.array([p[s][0] for s in sorted(p, reverse=True)]),
            np.array([p[s][1] for s in sorted(p, reverse=True)]),
        )
        for i, p in parts.items()
    }
    found = merge_tree(tree, grouped)
    expected = _fold(tree, parts)
    if expected is None:
        assert found is None
        return
    assert found is not None
    order = sorted(expected, reverse=True)
    assert found[0].tolist() == order
    assert _bits(found[1]) == _bits([expected[s][0] for s in order])
    assert _bits(found[2]) == _bits([expected[s][1] for s in order])


def _counter(batches: list[tuple[int, dict[str, Sums], Sums]]) -> tuple[dict[str, Sums], Sums]:
    """The batches merged like a binary counter (a part merges with the one before it
    while that one holds no more than twice its rows), then the rest from the last."""

    def merged(a: tuple[Any, ...], b: tuple[Any, ...]) -> tuple[Any, ...]:
        slices = {
            k: _fold((0, 1), {0: a[1].get(k, {}), 1: b[1].get(k, {})}) or {} for k in {*a[1], *b[1]}
        }
        return (a[0] + b[0], slices, _fold((0, 1), {0: a[2], 1: b[2]}) or {})

    stack: list[tuple[Any, ...]] = []
    for batch in batches:
        stack.append(batch)
        while len(stack) > 1 and stack[-2][0] <= 2 * stack[-1][0]:
            last = stack.pop()
            stack[-1] = merged(stack[-1], last)
    total = stack.pop()
    while stack:
        total = merged(stack.pop(), total)
    return total[1], total[2]


@pytest.mark.parametrize(("pool", "seed"), [(12, 0), (12, 1), (400, 2), (400, 3), (10**6, 4)])
def test_file_batches_add_as_the_binary_counter(tmp_path: Path, pool: int, seed: int) -> None:
    rng = np.random.default_rng(seed)
    batch_rows, batches = 10, 75  # 75 batches: merged 32 at a time, then the rest
    values = np.round(rng.random(pool), 6) if pool < 10**6 else rng.random(pool)
    rows = []
    for _ in range(batches):
        # the scores of a batch are distinct, so a batch's sums are its rows' weights
        for score in rng.choice(values, batch_rows, replace=False):
            rows.append((rng.choice(["a", "b", "c"]), rng.choice(["pos", "neg"]), score))
    weights = rng.choice(WEIGHTS, len(rows))
    path = tmp_path / "w.parquet"
    columns = {name: [row[i] for row in rows] for i, name in enumerate("gys")}
    pq.write_table(pa.table({**columns, "w": weights}), path)
    parts = []
    for b in range(batches):
        slices: dict[str, Sums] = {}
        overall: Sums = {}
        for i in range(b * batch_rows, (b + 1) * batch_rows):
            g, y, s = rows[i]
            cell = (float(weights[i]), 0.0) if y == "pos" else (0.0, float(weights[i]))
            slices.setdefault(str(g), {})[float(s)] = cell
            overall[float(s)] = cell
        parts.append((batch_rows, slices, overall))
    expected, expected_overall = _counter(parts)
    found = read_slices(
        path, by="g", actual="y", scores="s", weights="w", positive="pos", batch_rows=batch_rows
    )
    assert found.rankings is not None
    assert found.overall_ranking is not None
    # each slice group's overall group (`Slices.overall_groups`) holds its score
    assert found.overall_groups is not None
    every = np.concatenate([r.scores for r in found.rankings])
    assert found.overall_ranking.scores[found.overall_groups].tolist() == every.tolist()
    pairs = [(found.ranking(k), expected[k]) for k in sorted(expected)]
    for ranking, sums in [*pairs, (found.overall_ranking, expected_overall)]:
        scores = sorted(sums, reverse=True)
        # the groups keep a score whose weights are 0 on one side (its positives 0.0)
        assert ranking.scores.tolist() == scores
        assert _bits(ranking.positives) == _bits([sums[s][0] for s in scores])
        assert _bits(ranking.negatives) == _bits([sums[s][1] for s in scores])


def _oracle_groups(scores: Any, is_positive: Any, weights: Any) -> list[tuple[float, float, float]]:
    """Each distinct score (descending, -0.0 as 0.0) with its positive and negative
    weights, added as `Ranking.from_scores` documents: the group's signed weights in
    ascending order (negatives negated), each side's added by `np.add.reduceat`."""
    found = []
    kept = weights > 0
    for score in sorted({float(s) + 0.0 for s in scores[kept]}, reverse=True):
        rows = kept & (scores == score)
        signed = np.sort(np.where(is_positive[rows], weights[rows], -weights[rows]))
        p = np.add.reduceat(np.maximum(signed, 0.0), [0])[0]
        n = np.add.reduceat(np.maximum(-signed, 0.0), [0])[0]
        found.append((score, float(p), float(n)))
    return found


@pytest.mark.parametrize("seed", range(12))
def test_slices_grouped_by_one_sort_add_as_each_slice_alone(seed: int) -> None:
    rng = np.random.default_rng(100 + seed)
    n = int(rng.choice([0, 1, 9, 500, 3000]))
    slices = int(rng.integers(1, 30))
    scores = rng.random(n) if seed % 3 == 0 else np.round(rng.random(n) * 2 - 1, seed % 3)
    scores[rng.random(n) < 0.1] = -0.0
    weights = rng.choice(np.append(WEIGHTS, 0.0), n)
    is_positive = rng.random(n) < 0.5
    codes = rng.integers(0, slices, n)
    found = group_weighted_slices(codes, slices, scores, is_positive, weights)
    assert found is not None
    counts, grouped, overall = found
    cuts = np.cumsum(counts)[:-1]
    each = list(zip(*(np.split(a, cuts) for a in grouped), strict=True))
    for k in range(slices):
        rows = codes == k
        expected = _oracle_groups(scores[rows], is_positive[rows], weights[rows])
        assert list(zip(*(a.tolist() for a in each[k]), strict=True)) == expected
        assert _bits(each[k][1]) == _bits([p for _, p, _ in expected])
        assert _bits(each[k][2]) == _bits([m for _, _, m in expected])
    expected = _oracle_groups(scores, is_positive, weights)
    assert _bits(overall[0]) == _bits([s for s, _, _ in expected])
    assert _bits(overall[1]) == _bits([p for _, p, _ in expected])
    assert _bits(overall[2]) == _bits([m for _, _, m in expected])


def test_slices_grouped_by_one_sort_refuse_an_infinite_sum() -> None:
    huge = np.full(3, 1e308)
    found = group_weighted_slices(np.zeros(3, np.intp), 1, np.zeros(3), np.ones(3, bool), huge)
    assert found is None


@pytest.mark.parametrize(("pool", "seed"), [(12, 5), (10**6, 6)])
def test_file_batches_of_counts_give_the_overall_ranking(
    tmp_path: Path, pool: int, seed: int
) -> None:
    # counts (no weights), 75 batches: 32 merged at a time, then the rest, the overall
    # Ranking made once from the slices' (scores shared between slices, or all distinct)
    rng = np.random.default_rng(seed)
    n = 750
    values = np.round(rng.random(pool), 6) if pool < 10**6 else rng.random(pool)
    scores = rng.choice(values, n, replace=pool < 10**6)
    groups = rng.choice(["a", "b", "c"], n)
    positive = rng.random(n) < 0.4
    path = tmp_path / "c.parquet"
    actual = np.where(positive, "pos", "neg")
    pq.write_table(pa.table({"g": groups, "y": actual, "s": scores}), path)
    found = read_slices(path, by="g", actual="y", scores="s", positive="pos", batch_rows=10)
    assert found.rankings is not None
    assert found.overall_ranking is not None
    assert found.overall_groups is not None

    def oracle(rows: Any) -> tuple[list[float], list[int], list[int]]:
        distinct = sorted(set(scores[rows].tolist()), reverse=True)
        p = [int(np.sum(rows & positive & (scores == s))) for s in distinct]
        m = [int(np.sum(rows & ~positive & (scores == s))) for s in distinct]
        return distinct, p, m

    for ranking, rows in [
        *((found.ranking(k), groups == k[0]) for k in found.keys),
        (found.overall_ranking, np.ones(n, dtype=bool)),
    ]:
        got = (ranking.scores.tolist(), ranking.positives.tolist(), ranking.negatives.tolist())
        assert got == oracle(rows)
    every = np.concatenate([r.scores for r in found.rankings])
    assert found.overall_ranking.scores[found.overall_groups].tolist() == every.tolist()
