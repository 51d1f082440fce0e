"""`informed.find_slices`: counts against a brute force over the rows, the prevalence-only
slice, the error rate under no planted slice, planted slices of depth 1, 2 and 3."""

from __future__ import annotations

import itertools
import math
from typing import Any

import numpy as np
import pytest

from informed import find_slices
from informed.errors import InputError, MemoryLimitError


def _data(seed: int, n: int, planted: dict[str, Any] | None = None) -> dict[str, Any]:
    """Three label columns and one numeric; predictions right 90 % of the time (TPR 0.9,
    FPR 0.1), in a planted slice TPR 0.55 and FPR 0.35."""
    rng = np.random.default_rng(seed)
    columns = {
        "region": rng.choice(["north", "south", "east"], n),
        "device": rng.choice(["phone", "tablet", "desktop"], n),
        "plan": rng.choice(["basic", "pro", "team"], n),
        "age": rng.normal(40, 12, n).round(1),
    }
    actual = rng.integers(0, 2, n)
    inside = np.ones(n, dtype=bool)
    for column, value in (planted or {}).items():
        inside &= columns[column] == value
    if not planted:
        inside[:] = False
    tpr = np.where(inside, 0.55, 0.9)
    fpr = np.where(inside, 0.35, 0.1)
    says_positive = rng.random(n) < np.where(actual == 1, tpr, fpr)
    return {"columns": columns, "actual": actual, "predicted": says_positive.astype(int)}


def _mask(columns: dict[str, Any], slice_: dict[str, Any], cuts: dict[str, Any]) -> Any:
    """The rows a slice's conditions select, read from the rows (ranges by their edges)."""
    n = len(next(iter(columns.values())))
    mask = np.ones(n, dtype=bool)
    for column, value in slice_.items():
        values = np.asarray(columns[column])
        if column in cuts:
            edges = cuts[column]
            names = [f"[{lo:.6g}, {hi:.6g}" for lo, hi in itertools.pairwise(edges)]
            i = next(k for k, name in enumerate(names) if value.startswith(name))
            upper = values <= edges[i + 1] if i == len(edges) - 2 else values < edges[i + 1]
            mask &= (values >= edges[i]) & upper
        else:
            mask &= values == value
    return mask


def _informedness(actual: Any, predicted: Any) -> float:
    positives = actual == 1
    return float(np.mean(predicted[positives] == 1) - np.mean(predicted[~positives] == 1))


ROUTES = ["cube", "units", "rows"]


def _route(route: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """Count by the full cube's marginals (small crossings), by the distinct units of the
    rows, or by the rows, one combination at a time."""
    from informed.disparity import counting, finding

    if route != "cube":
        monkeypatch.setattr(counting, "_CUBE", 0)
    if route == "rows":
        monkeypatch.setattr(finding, "compress", lambda *args: None)


@pytest.mark.parametrize("route", ROUTES)
def test_every_slice_found_has_the_counts_and_values_of_the_rows_it_names(
    route: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """n, real positives and negatives, the slice's and the rest's informedness and the gap
    of every slice found equal a brute force over the rows its conditions select, by every
    route of the counts."""
    _route(route, monkeypatch)
    data = _data(1, 6000, {"region": "east", "device": "phone"})
    found = find_slices(**data, depth=3, min_size=10, bins=3)
    assert found.found, "the planted slice and its parents are found"
    actual, predicted = data["actual"], data["predicted"]
    for f in found.found:
        mask = _mask(data["columns"], dict(f.slice), found.cuts)
        assert f.n == int(mask.sum())
        assert f.positives == int(actual[mask].sum())
        assert f.negatives == int((1 - actual[mask]).sum())
        assert f.value == pytest.approx(_informedness(actual[mask], predicted[mask]), abs=1e-12)
        assert f.rest == pytest.approx(_informedness(actual[~mask], predicted[~mask]), abs=1e-12)
        assert f.gap == pytest.approx(f.rest - f.value, abs=1e-12)
        assert f.interval.low > 0


def _brute_force_figures(columns: dict[str, Any], actual: Any, depth: int, min_size: int) -> Any:
    """(counted, tested) of a search, by enumerating every conjunction of the rows."""
    names = list(columns)
    adequate: set[tuple[tuple[str, Any], ...]] = set()
    counted = tested = 0
    for L in range(1, depth + 1):
        for combination in itertools.combinations(names, L):
            keys = list(zip(*(np.asarray(columns[c]).tolist() for c in combination), strict=True))
            for key in sorted(set(keys)):
                conditions = tuple(zip(combination, key, strict=True))
                parents = [conditions[:i] + conditions[i + 1 :] for i in range(L)]
                if L > 1 and not all(p in adequate for p in parents):
                    continue
                counted += 1
                mask = np.array([k == key for k in keys])
                if min(actual[mask].sum(), (1 - actual[mask]).sum()) >= min_size:
                    adequate.add(conditions)
                    tested += 1
    return counted, tested


@pytest.mark.parametrize("route", ROUTES)
def test_counted_tested_and_pruned_equal_a_brute_force_over_every_conjunction(
    route: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The search counts exactly the conjunctions whose every parent can be tested, tests
    those of min_size real positives and negatives, and reports the others as pruned."""
    _route(route, monkeypatch)
    data = _data(2, 1500)
    columns = {k: v for k, v in data["columns"].items() if k != "age"}
    found = find_slices(columns=columns, actual=data["actual"], predicted=data["predicted"],
                        depth=3, min_size=40)  # fmt: skip
    counted, tested = _brute_force_figures(columns, data["actual"], 3, 40)
    assert found.tested == tested
    assert found.pruned == counted - tested
    assert sum(level.counted for level in found.levels) == counted
    assert 0 < found.pruned < counted


def test_a_slice_differing_only_in_prevalence_is_not_reported_though_its_error_is_largest() -> None:
    """Rows with the same TPR and FPR everywhere; the slice 'clinic' has prevalence 0.5
    against 0.1 elsewhere: its error rate is the largest of every slice, its informedness
    the same as the rest's, and it is not reported."""
    parts = []
    # (site, real positives, true positives, real negatives, false positives): TPR 0.8, FPR 0.1
    for site, pos, neg in (("clinic", 2000, 2000), ("home", 400, 3600), ("lab", 400, 3600)):
        tp, fp = int(0.8 * pos), int(0.1 * neg)
        actual = np.r_[np.ones(pos, int), np.zeros(neg, int)]
        predicted = np.r_[np.ones(tp, int), np.zeros(pos - tp, int), np.ones(fp, int),
                          np.zeros(neg - fp, int)]  # fmt: skip
        parts.append((np.full(pos + neg, site), actual, predicted))
    site = np.concatenate([p[0] for p in parts])
    actual = np.concatenate([p[1] for p in parts])
    predicted = np.concatenate([p[2] for p in parts])
    errors = {s: float(np.mean(actual[site == s] != predicted[site == s])) for s in set(site)}
    assert max(errors, key=errors.__getitem__) == "clinic"  # an error-rate ranking's first
    found = find_slices(columns={"site": site}, actual=actual, predicted=predicted)
    assert found.tested == 3
    assert [f.name for f in found.found] == []


def test_with_no_planted_slice_the_search_reports_anything_rarely() -> None:
    """No slice differs: in 100 seeded data sets of 3,000 rows the search at level 0.95
    reports some slice in at most 8 of them (nominal: at most 5; Bonferroni's bound is
    conservative, so in practice fewer)."""
    reported = 0
    for seed in range(100):
        data = _data(100 + seed, 3000)
        columns = {k: data["columns"][k] for k in ("region", "device", "plan")}
        found = find_slices(columns=columns, actual=data["actual"],
                            predicted=data["predicted"], depth=2, min_size=20)  # fmt: skip
        reported += bool(found.found)
    assert reported <= 8


@pytest.mark.parametrize(
    "planted",
    [
        {"region": "east"},
        {"region": "east", "device": "phone"},
        {"region": "east", "device": "phone", "plan": "pro"},
    ],
    ids=["depth 1", "depth 2", "depth 3"],
)
def test_a_planted_slice_is_found_at_its_depth(planted: dict[str, str]) -> None:
    """The planted slice is reported with exactly its conditions; a slice inside it is not
    (it is no worse than the rest of the planted slice)."""
    data = _data(3, 20000, planted)
    found = find_slices(**data, depth=3, min_size=20)
    names = [dict(f.slice) for f in found.found]
    assert planted in names
    assert not any(set(planted.items()) < set(n.items()) for n in names)


def test_a_planted_slice_inside_a_reported_slice_says_how_much_worse_than_its_rest() -> None:
    """The planted depth-2 slice lies inside its reported parent: it is reported with its
    gap within the parent (the rest of the parent's rows), an interval excluding 0, and
    grouped under the condition they share."""
    data = _data(4, 20000, {"region": "east", "device": "phone"})
    found = find_slices(**data, depth=2, min_size=20)
    by_name = {f.name: f for f in found.found}
    inner = by_name["region=east, device=phone"]
    assert "region=east" in by_name
    assert inner.within is not None and inner.within.low > 0
    assert inner.group == (("region", "east"),)


def test_a_planted_slice_of_scores_is_found_with_its_auc() -> None:
    """With scores the gap is in AUC; the slice's AUC equals scikit-learn's on its rows."""
    metrics = pytest.importorskip("sklearn.metrics")
    rng = np.random.default_rng(5)
    n = 8000
    region = rng.choice(["north", "south", "east"], n)
    actual = rng.integers(0, 2, n)
    noise = np.where(region == "east", 2.0, 0.5)
    scores = actual + rng.normal(0, 1, n) * noise
    found = find_slices(columns={"region": region}, actual=actual, scores=scores, positive=1)
    assert [f.name for f in found.found] == ["region=east"]
    mask = region == "east"
    assert found.found[0].value == pytest.approx(metrics.roc_auc_score(actual[mask], scores[mask]))
    assert found.found[0].rest == pytest.approx(metrics.roc_auc_score(actual[~mask], scores[~mask]))
    assert found.method == "bonferroni-delong"


def test_a_missing_value_is_a_slice_of_its_own() -> None:
    data = _data(6, 6000)
    region = data["columns"]["region"].astype(object)
    region[data["columns"]["region"] == "east"] = None
    says = data["predicted"].copy()
    east = region == None  # noqa: E711 - elementwise on an object array
    says[east] = np.random.default_rng(0).integers(0, 2, int(east.sum()))
    found = find_slices(columns={"region": region}, actual=data["actual"], predicted=says)
    assert [f.slice for f in found.found] == [(("region", None),)]
    assert found.found[0].name == "region=missing"


def test_more_classes_rank_by_powers_multiclass_informedness() -> None:
    """Three classes: the slice's value is Powers' bias-weighted informedness of its rows."""
    from informed import Table, evaluate

    rng = np.random.default_rng(7)
    n = 9000
    group = rng.choice(["a", "b", "c"], n)
    actual = rng.integers(0, 3, n)
    right = rng.random(n) < np.where(group == "c", 0.5, 0.9)
    predicted = np.where(right, actual, (actual + rng.integers(1, 3, n)) % 3)
    found = find_slices(columns={"group": group}, actual=actual, predicted=predicted)
    assert [f.name for f in found.found] == ["group=c"]
    mask = group == "c"
    table = Table.from_labels(actual=actual[mask], predicted=predicted[mask])
    assert found.found[0].value == pytest.approx(evaluate(table).measures["informedness"])
    assert found.found[0].positives is None


def test_a_slice_whose_measure_is_undefined_is_never_found(
    tmp_path: Any, capsys: pytest.CaptureFixture[str]
) -> None:
    """A label predicted but never actual (here 5, once) leaves Powers' multiclass
    informedness undefined in the slice holding it and in every rest: no gap, so no
    interval (the pseudo-counts' centre would give one) and nothing found, in Python and
    at the command line; the group where the model is worse is found once the row goes."""
    import json

    from informed import Table, evaluate
    from informed.cli import main

    rng = np.random.default_rng(11)
    n = 3000
    group = rng.choice(["a", "b"], n)
    actual = rng.integers(0, 2, n)
    predicted = np.where(rng.random(n) < np.where(group == "a", 0.6, 0.9), actual, 1 - actual)
    predicted[3] = 5
    assert math.isnan(evaluate(Table.from_labels(actual, predicted)).measures["informedness"])
    found = find_slices(columns={"group": group}, actual=actual, predicted=predicted)
    assert (found.found, found.untestable, found.tested) == ((), 2, 2)
    path = tmp_path / "rows.csv"
    path.write_text("g,y,p\n" + "".join(f"{g},{y},{q}\n" for g, y, q in
                                          zip(group, actual, predicted, strict=True)))  # fmt: skip
    capsys.readouterr()
    argv = ["evaluate", str(path), "--actual", "y", "--predicted", "p", "--find-slices", "g"]
    assert main([*argv, "--format", "json"]) == 0
    document = json.loads(capsys.readouterr().out)
    assert (document["found"], document["untestable"]) == ([], 2)
    assert main(argv) == 0
    assert "No slice could be tested" in capsys.readouterr().out.replace("\n", " ")
    kept = np.arange(n) != 3
    again = find_slices(columns={"group": group[kept]}, actual=actual[kept],
                        predicted=predicted[kept])  # fmt: skip
    assert [f.name for f in again.found] == ["group=a"]


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"depth": 0}, "`depth` must be from 1 to 6"),
        ({"depth": 2.5}, "`depth` must be a whole number"),
        ({"min_size": 0}, "`min_size` must be a whole number of cases >= 10"),
        ({"min_size": 5}, "the normal interval of a gap does not hold"),
        ({"columns": []}, "`columns` names no column"),
        ({"bins": 1}, "`bins`"),
        ({"measure": "accuracy"}, "`measure` must be one of"),
        ({"scores": [0.5] * 4}, "not both"),
    ],
)
def test_bad_arguments_are_refused_in_one_line(change: dict[str, Any], message: str) -> None:
    call: dict[str, Any] = {"columns": {"g": ["a", "b", "a", "b"]}, "actual": [0, 1, 0, 1],
                            "predicted": [0, 1, 1, 1]}  # fmt: skip
    call.update(change)
    with pytest.raises(InputError, match=message) as error:
        find_slices(**call)
    assert "\n" not in str(error.value)


def test_a_column_the_frame_does_not_hold_is_named() -> None:
    frame = {"g": ["a", "b"], "y": [0, 1], "p": [0, 1]}
    with pytest.raises(InputError, match="no column 'region'"):
        find_slices(frame, columns=["g", "region"], actual="y", predicted="p")


def test_candidates_beyond_memory_are_refused_naming_how_many_and_what_to_change(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("INFORMED_MEMORY_LIMIT", "1000")
    data = _data(8, 2000)
    with pytest.raises(MemoryLimitError, match=r"candidate slices of columns .*min_size"):
        find_slices(**data, depth=2, min_size=10, bins=1000)


def test_intervals_are_simultaneous_over_the_family() -> None:
    """The interval's z is Bonferroni's over the hypotheses reported as tested."""
    from scipy.stats import norm

    data = _data(9, 8000, {"region": "east"})
    found = find_slices(**data, depth=2, min_size=20)
    f = found.found[0]
    z = norm.ppf(1 - 0.05 / (2 * found.hypotheses))
    assert (f.interval.high - f.interval.low) / 2 == pytest.approx(z * f.interval.standard_error)
    assert found.hypotheses > found.tested
    assert math.isclose(found.level, 0.95)


def test_markedness_on_request_is_the_markedness_of_the_rows() -> None:
    """measure="markedness": each slice's value is PPV + NPV - 1 of its rows."""
    data = _data(12, 20000, {"region": "east"})
    found = find_slices(**data, depth=1, measure="markedness")
    assert found.measure == "markedness" and found.found
    actual, predicted = data["actual"], data["predicted"]
    for f in found.found:
        mask = _mask(data["columns"], dict(f.slice), found.cuts)
        said, real = predicted[mask] == 1, actual[mask] == 1
        expected = np.mean(real[said]) - np.mean(real[~said])
        assert f.value == pytest.approx(expected, abs=1e-12)


@pytest.mark.parametrize("kind", [{"predicted": []}, {"scores": [], "positive": 1}])
def test_no_rows_are_refused_in_one_line(kind: dict[str, Any]) -> None:
    """Empty columns: a one-line refusal, where a reshape of the empty count raised."""
    with pytest.raises(InputError, match="no rows to search"):
        find_slices(columns={"region": []}, actual=[], **kind)
