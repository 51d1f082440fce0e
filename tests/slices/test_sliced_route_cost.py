"""The sliced report's costs cut without changing its numbers (issue 27, item 24): the
bootstrap reads the disparities' replicates instead of drawing the same cases again,
normal quantiles without scipy.special, quantiles of replicates without numpy.quantile
(which imports numpy.ma), informedness of whole counts without Dekker's products, and
a sliced file command that imports neither scipy nor numpy.ma nor zoneinfo."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from informed.inference import bootstrap_slices, disparities
from informed.inference.interval import logistic, normal_cdf, normal_quantile
from informed.inference.replicates import _quantiles
from informed.measures import exact
from informed.measures.binary import informedness, markedness
from informed.slices import Slices

special = pytest.importorskip("scipy.special")

DATA = Path(__file__).resolve().parents[2] / "src" / "informed" / "data"


@pytest.mark.parametrize(
    ("positive", "labels", "weighted"), [(1, 2, False), (None, 3, False), (2, 3, True)]
)
def test_the_bootstrap_from_the_disparities_replicates_is_the_one_it_draws(
    positive: int | None, labels: int, weighted: bool
) -> None:
    rng = np.random.default_rng(3)
    n = 3000
    by = rng.integers(0, 7, n)
    actual = rng.integers(0, labels, n)
    predicted = np.where(rng.random(n) < 0.7, actual, rng.integers(0, labels, n))
    weights = rng.random(n) + 0.2 if weighted else None
    s = Slices.from_labels(by=by, actual=actual, predicted=predicted, weights=weights)
    names = ["informedness", "markedness"]
    found = disparities(s, positive=positive, seed=5, replicates=300, keep=names)
    drawn = bootstrap_slices(s, names, positive=positive, seed=5, replicates=300)
    read = bootstrap_slices(
        s, names, positive=positive, seed=5, replicates=300, values=found.own_replicates
    )
    for name in names:
        assert np.array_equal(drawn.distribution[name], read.distribution[name], equal_nan=True)
        assert drawn.intervals[name] == read.intervals[name]


def test_values_of_the_wrong_shape_or_measure_are_refused() -> None:
    s = Slices.from_labels(by=[0, 0, 1, 1] * 5, actual=[0, 1] * 10, predicted=[0, 1, 1, 0] * 5)
    found = disparities(s, positive=1, seed=0, replicates=50, keep=["informedness"])
    with pytest.raises(ValueError, match="'markedness' replicates of shape"):
        bootstrap_slices(
            s, ["informedness", "markedness"], positive=1, replicates=50,
            values=found.own_replicates,
        )  # fmt: skip
    with pytest.raises(ValueError, match="`keep` takes measures of"):
        disparities(s, positive=1, keep=["accuracy"])


def test_normal_functions_agree_with_scipy() -> None:
    rng = np.random.default_rng(0)
    p = np.concatenate([rng.random(20_000), [0.0, 1.0, 0.025, 0.975, 0.5, 1e-300, np.nan]])
    assert np.allclose(normal_quantile(p), special.ndtri(p), rtol=4e-15, atol=0, equal_nan=True)
    x = np.concatenate([rng.normal(size=20_000) * 4, [-np.inf, np.inf, 0.0, -40.0, np.nan]])
    assert np.allclose(normal_cdf(x), special.ndtr(x), rtol=1e-13, atol=0, equal_nan=True)
    for value in (-800.0, -3.0, 0.0, 2.5, 800.0):
        assert logistic(value) == pytest.approx(float(special.expit(value)), rel=1e-15)


def test_quantiles_of_replicates_are_numpys() -> None:
    """Finite replicates: numpy's numbers bit for bit (infinite ones, where numpy gives nan:
    tests/inference/test_infinite_replicates.py)."""
    rng = np.random.default_rng(1)
    for size in (1, 2, 3, 40, 999, 1000):
        for _ in range(50):
            values = rng.normal(size=size) * 10.0 ** rng.integers(-5, 5)
            tails = np.array([rng.random(), 0.025, 0.975, 0.0, 1.0])
            expected = np.quantile(values, tails)
            found = _quantiles(np.sort(values), size, tails)
            assert found.tobytes() == expected.tobytes()


def test_whole_counts_give_the_bits_of_the_exact_determinant() -> None:
    rng = np.random.default_rng(2)
    counts = rng.integers(0, 2**26, size=(20_000, 2, 2)).astype(np.float64)
    counts[:50] = rng.integers(2**26 - 4, 2**26, size=(50, 2, 2))  # the largest whole
    counts[50:60, :, 0] = 0  # no real positives: nan
    for measure, margins in ((informedness, (0, 1)), (markedness, (0, 2))):
        tp, fp, fn, tn = counts[:, 0, 0], counts[:, 0, 1], counts[:, 1, 0], counts[:, 1, 1]
        if margins == (0, 1):
            a, b = exact.power_of_two_scale(tp + fn), exact.power_of_two_scale(fp + tn)
            tp, fn, fp, tn = tp * a, fn * a, fp * b, tn * b
            product = (tp + fn) * (fp + tn)
        else:
            a, b = exact.power_of_two_scale(tp + fp), exact.power_of_two_scale(fn + tn)
            tp, fp, fn, tn = tp * a, fp * a, fn * b, tn * b
            product = (tp + fp) * (fn + tn)
        with np.errstate(invalid="ignore", divide="ignore"):
            expected = np.clip(exact.determinant(tp, fp, fn, tn) / product, -1.0, 1.0)
        assert np.array_equal(measure(counts), expected, equal_nan=True)


def _modules_after(command: list[str]) -> set[str]:
    """The modules a fresh interpreter has loaded after running the command line `command`."""
    code = (
        "import sys, io, json, contextlib\n"
        "from informed.cli.main import main\n"
        "with contextlib.redirect_stdout(io.StringIO()):\n"
        "    main(sys.argv[1:])\n"
        "print(json.dumps(sorted(sys.modules)))\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code, *command], capture_output=True, text=True, check=True
    )
    return set(json.loads(done.stdout.strip().splitlines()[-1]))


def test_a_sliced_file_command_imports_no_scipy_numpy_ma_or_zoneinfo(tmp_path: Path) -> None:
    command = [
        *("evaluate", str(DATA / "breast_cancer_slices.csv"), "--actual", "actual"),
        *("--predicted", "predicted", "--score", "score", "--positive", "malignant"),
        *("--by", "size"),
    ]
    loaded = _modules_after(command)
    assert [m for m in ("scipy", "numpy.ma", "zoneinfo", "pandas") if m in loaded] == []


def test_calibration_without_replicates_gives_the_estimates_alone() -> None:
    from informed.inference.slice_calibration import NOT_RESAMPLED, slice_calibration

    s = Slices.from_labels(
        by=["a"] * 4 + ["b"] * 4,
        actual=[0, 1, 0, 1] * 2,
        scores=[0.2, 0.4, 0.6, 0.8, 0.1, 0.2, 0.8, 0.9],
        positive=1,
    )
    plain = slice_calibration(s, replicates=0, min_count=1)
    resampled = slice_calibration(s, replicates=50, seed=0, min_count=1)
    # b: its Brier 0.325 minus that of its recalibrated scores 0.125 (PAV by hand)
    assert [round(d.miscalibration, 12) for d in plain.decompositions] == [0.075, 0.2]
    assert plain.decompositions == resampled.decompositions
    assert plain.distribution.shape == (0, 2)
    assert all(i.reason == NOT_RESAMPLED and np.isnan(i.low) for i in plain.miscalibration)
    assert plain.spread.estimate == resampled.spread.estimate
    assert plain.spread.reason == NOT_RESAMPLED
    with pytest.raises(ValueError, match="0 \\(the estimates alone\\) or an integer >= 2"):
        slice_calibration(s, replicates=1)


@pytest.mark.parametrize("labels", [2, 3])
def test_the_positive_view_alone_gives_the_values_of_plain_formulas(labels: int) -> None:
    # the disparities and the bootstrap compute each measure on the positive label's
    # one-vs-rest view alone (`labelled=False`): bit for bit the textbook formulas on
    # whole counts, and the values of every label's views read at the positive one
    from informed.slices.evaluation import slice_values

    rng = np.random.default_rng(11)
    counts = rng.integers(0, 40, (50, 7, labels, labels)).astype(np.float64)
    counts[0, 0] = 0.0  # an empty table: every measure undefined
    counts[1, 1, :, 0] = 0.0  # no real positives: informedness and recall undefined
    names = ["informedness", "markedness", "recall", "fallout", "bias"]
    for index in range(labels):
        tp = counts[..., index, index]
        fp = counts[..., index, :].sum(axis=-1) - tp  # predicted the label, another class
        fn = counts[..., :, index].sum(axis=-1) - tp
        tn = counts.sum(axis=(-2, -1)) - tp - fp - fn
        with np.errstate(divide="ignore", invalid="ignore"):
            plain = {
                "informedness": (tp * tn - fp * fn) / ((tp + fn) * (fp + tn)),
                "markedness": (tp * tn - fp * fn) / ((tp + fp) * (fn + tn)),
                "recall": tp / (tp + fn),
                "fallout": fp / (fp + tn),
                "bias": (tp + fp) / (tp + fp + fn + tn),
            }
        alone, none = slice_values(counts, names, index, 0.5, "propagate", labelled=False)
        every, _ = slice_values(counts, names, index, 0.5, "propagate")
        assert none == {}
        for name in names:
            assert alone[name].shape == (50, 7)
            assert np.array_equal(alone[name], plain[name], equal_nan=True), name
            assert np.array_equal(alone[name], every[name], equal_nan=True), name
            assert np.isnan(alone[name][0, 0])


def test_the_positive_view_alone_keeps_every_bit_of_fractional_weights() -> None:
    # weights whose sums depend on their order (0.1, 1e-17, 1e17, 3.3): the positive's
    # view alone gives each measure as the view of every label read at the positive
    from informed.slices.evaluation import slice_values

    rng = np.random.default_rng(12)
    choices = np.array([0.0, 0.1, 1e-17, 1e17, 3.3, 1.0, 2.5e-300])
    counts = rng.choice(choices, (40, 5, 3, 3))
    names = ["informedness", "markedness", "recall", "fallout", "bias"]
    for index in range(3):
        alone, _ = slice_values(counts, names, index, 0.5, "propagate", labelled=False)
        every, _ = slice_values(counts, names, index, 0.5, "propagate")
        for name in names:
            assert np.array_equal(alone[name], every[name], equal_nan=True), name


@pytest.mark.parametrize(
    "cell",
    [
        [0.0, -0.0, 2.0**26 - 1, 3.0],
        [2.0**26, 1.0],
        [0.5, 1.0],
        [np.nan, 1.0],
        [np.inf, 1.0],
        [-1.0, 2.0],
        [1e-300, 0.0],
        [],
    ],
)
def test_the_small_whole_check_is_the_plain_one(cell: list[float]) -> None:
    # two reductions (least, largest) and one comparison with trunc: the answer of the
    # plain test of every value, whole and in [0, 2^26)
    from informed.measures.binary import _small_whole

    values = np.array(cell, dtype=np.float64)
    with np.errstate(invalid="ignore"):
        plain = bool(np.all((values >= 0) & (values < 2.0**26) & (values == np.floor(values))))
    assert _small_whole(values) is plain
    assert _small_whole(np.ones(3), values) is plain


def test_a_sliced_labels_command_imports_no_auc_or_calibration_module() -> None:
    command = [
        *("evaluate", str(DATA / "breast_cancer_slices.csv"), "--actual", "actual"),
        *("--predicted", "predicted", "--positive", "malignant", "--by", "size"),
    ]
    loaded = [m for m in _modules_after(command) if m.startswith("informed.inference.")]
    assert "informed.inference.disparities" in loaded  # the report ran
    for name in ("auc_differences", "slice_rest", "slice_calibration", "slice_auc"):
        assert f"informed.inference.{name}" not in loaded


# what a labels report by `by` columns does not use: the slices' rankings with DeLong's
# AUC, the bootstraps of a Table and of a Ranking, the folds, the time windows and zones
UNUSED_BY_LABELS = (
    "informed.inference.slice_rankings",
    "informed.inference.delong",
    "informed.inference.ranking_bootstrap",
    "informed.inference.table_bootstrap",
    "informed.inference.design",
    "informed.slices.folds",
    "informed.slices.rolling",
    "informed.slices.windows",
    "informed.slices.zones",
)


def _loaded_by(command: list[str]) -> list[str]:
    """The modules of `UNUSED_BY_LABELS` a fresh interpreter has loaded after `command`."""
    loaded = _modules_after(command)
    return [m for m in UNUSED_BY_LABELS if m in loaded]


@pytest.mark.parametrize("output", ["text", "json", "csv"])
@pytest.mark.parametrize("positive", [(), ("--positive", "malignant")])
def test_a_sliced_labels_command_imports_no_ranking_bootstrap_fold_or_window_module(
    output: str, positive: tuple[str, ...]
) -> None:
    """Item 24: `evaluate FILE --by COL` with predicted labels alone loads none of the
    modules only scores, intervals of one table, folds or time windows use."""
    command = [
        *("evaluate", str(DATA / "breast_cancer_slices.csv"), "--actual", "actual"),
        *("--predicted", "predicted", *positive, "--by", "size", "--format", output),
    ]
    assert _loaded_by(command) == []


def test_the_modules_a_labels_report_leaves_out_load_when_used() -> None:
    """The check above can fail: with scores the slices' rankings (and DeLong's AUC) load,
    with a time column the windows and their zones, with folds the folds'."""
    data = str(DATA / "breast_cancer_slices.csv")
    scored = [
        *("evaluate", data, "--actual", "actual", "--score", "score"),
        *("--positive", "malignant", "--by", "size", "--format", "json"),
    ]
    assert {"informed.inference.slice_rankings", "informed.inference.delong"} <= set(
        _loaded_by(scored)
    )
    timed = [
        *("evaluate", data, "--actual", "actual", "--predicted", "predicted"),
        *("--by-time", "seen", "--every", "7d", "--format", "json"),
    ]
    assert {"informed.slices.windows", "informed.slices.zones"} <= set(_loaded_by(timed))
    folds = [
        *("evaluate", data, "--actual", "actual", "--predicted", "predicted"),
        *("--folds", "size", "--format", "json"),
    ]
    assert "informed.slices.folds" in _loaded_by(folds)


@pytest.mark.parametrize("shape", [(2, 2), (3, 3), (2, 4)])
def test_the_margins_of_whole_counts_are_their_plain_sums(shape: tuple[int, int]) -> None:
    # whole counts whose sums are exact are summed along the table's axes, in any
    # order: the same numbers as sums of Python integers, and +0.0 (never -0.0)
    from informed.measures.cells import Cells, margins

    K, C = shape
    rng = np.random.default_rng(13)
    counts = rng.integers(0, 2**40, (30, 6, K, C)).astype(np.float64)
    counts[0] = -0.0  # a table of negative zeros: sums of +0.0
    counts[1, :, 0, :] = 0.0
    rows = np.repeat(np.arange(K), C)
    cols = np.tile(np.arange(C), K)
    order = rng.permutation(K * C)  # the same cells in another order: the other route
    for r, c in ((rows, cols), (rows[order], cols[order])):
        m = margins(Cells(counts[..., r, c], r, c, (K, C)))
        ints = counts.astype(np.int64)
        plain_rows = ints.sum(axis=-1).astype(np.float64)
        plain_cols = ints.sum(axis=-2).astype(np.float64)
        plain_diagonal = np.diagonal(ints, axis1=-2, axis2=-1).astype(np.float64)
        plain_total = ints.sum(axis=(-2, -1)).astype(np.float64)
        for found, plain in (
            (m.rows, plain_rows),
            (m.cols, plain_cols),
            (m.diagonal, plain_diagonal),
            (m.total, plain_total),
        ):
            assert np.array_equal(found, plain)
            assert not np.signbit(found).any()


def test_the_actual_classes_of_a_batch_are_those_of_its_rows() -> None:
    # unweighted, read from the overall Table's actual labels rather than counted again;
    # "c" is only predicted, so not an actual class; with weights, a weight 0 keeps "d"
    from informed.slices.building import slice_fields

    rng = np.random.default_rng(14)
    actual = rng.choice(np.array(["b", "a", "d"]), 500)
    predicted = rng.choice(np.array(["a", "b", "c", "d"]), 500)
    by = rng.integers(0, 5, 500)
    _, classes = slice_fields([by], ["g"], actual, predicted, None, None, None)
    assert classes == ("a", "b", "d")
    kept = actual != "d"
    _, classes = slice_fields([by[kept]], ["g"], actual[kept], predicted[kept], None, None, None)
    assert classes == ("a", "b")
    weights = np.where(actual == "d", 0.0, 1.0)
    _, classes = slice_fields([by], ["g"], actual, predicted, None, None, weights)
    assert classes == ("a", "b", "d")


@pytest.mark.parametrize("nulls", [False, True])
def test_arrow_slice_codes_are_the_sorted_values_that_occur(nulls: bool) -> None:
    # Arrow columns (strings, and dictionaries holding words no row uses) are put in
    # order by Arrow's take: the values that occur sorted, the missing slice last
    pa = pytest.importorskip("pyarrow")
    from informed.slices.keys import MISSING, code_keys

    rng = np.random.default_rng(15)
    words = ["m", "b", "zz", "a", "q"]
    rows = [words[i] for i in rng.integers(0, 3, 400)]  # "a" and "q": never in a row
    if nulls:
        rows = [None if i % 7 == 0 else x for i, x in enumerate(rows)]
    present = sorted({x for x in rows if x is not None})
    expected = [*present, *([MISSING] if nulls else [])]
    plain = [len(present) if x is None else present.index(x) for x in rows]
    indices = pa.array([None if x is None else words.index(x) for x in rows], pa.int32())
    for column in (pa.array(rows, pa.string()), pa.DictionaryArray.from_arrays(indices, words)):
        coded = code_keys([column], ["g"])
        assert [key[0] for key in coded.keys] == expected
        assert coded.codes.tolist() == plain
        assert coded.codes.dtype == np.intp
