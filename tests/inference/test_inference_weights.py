"""Bootstrap intervals of a weighted table: frequency or normalised weights, chosen and
reported (issue 10, item 11). Weights of 0.01 on 500 rows were 5 cases, silently."""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from pathlib import Path

import numpy as np
import pytest

from informed import Ranking, Table
from informed.cli import main
from informed.errors import InputError
from informed.inference import bootstrap, bootstrap_design, design_note

RNG = np.random.default_rng(20)
N_ROWS = 500
ACTUAL = RNG.integers(0, 2, N_ROWS)
PREDICTED = np.where(RNG.random(N_ROWS) < 0.8, ACTUAL, 1 - ACTUAL)


def _weighted(weight: float = 0.01) -> Table:
    return Table.from_labels(actual=ACTUAL, predicted=PREDICTED, weights=np.full(N_ROWS, weight))


def test_frequency_weights_make_n_the_total_weight() -> None:
    result = bootstrap(_weighted(), ["informedness"], seed=0)
    assert result.size == 5 and result.weights_are == "frequency"


def test_normalised_weights_need_the_number_of_rows() -> None:
    with pytest.raises(InputError, match="size= the number of rows"):
        bootstrap(_weighted(), ["informedness"], weights_are="normalised")
    with pytest.raises(InputError, match="weights_are"):
        bootstrap(_weighted(), ["informedness"], weights_are="sampling")  # type: ignore[arg-type]


def test_normalised_weights_are_the_row_bootstrap() -> None:
    """Equal weights 0.01 read as normalised: the intervals of a bootstrap of the 500 rows,
    written here (rows drawn with replacement, their weights summed per cell, B = tpr -
    fpr of the resampled table)."""
    result = bootstrap(
        _weighted(),
        ["informedness"],
        weights_are="normalised",
        size=N_ROWS,
        seed=1,
        replicates=2000,
    )
    assert result.size == N_ROWS and result.weights_are == "normalised"
    rng = np.random.default_rng(2)
    picks = rng.integers(0, N_ROWS, (2000, N_ROWS))
    actual, predicted = ACTUAL[picks], PREDICTED[picks]
    weight = 0.01  # each drawn row carries its weight
    tp = weight * ((predicted == 1) & (actual == 1)).sum(axis=1)
    fn = weight * ((predicted == 0) & (actual == 1)).sum(axis=1)
    fp = weight * ((predicted == 1) & (actual == 0)).sum(axis=1)
    tn = weight * ((predicted == 0) & (actual == 0)).sum(axis=1)
    values = tp / (tp + fn) + tn / (fp + tn) - 1  # two labels: B of either label
    low, high = np.quantile(values, [0.025, 0.975])
    interval = result.intervals["informedness"]
    assert interval.low == pytest.approx(low, abs=0.02)
    assert interval.high == pytest.approx(high, abs=0.02)
    # and five frequency cases give an interval many times wider
    five = bootstrap(_weighted(), ["informedness"], seed=1).intervals["informedness"]
    assert five.high - five.low > 4 * (interval.high - interval.low)


def test_a_table_of_counts_ignores_the_choice() -> None:
    counts = Table.from_labels(actual=ACTUAL, predicted=PREDICTED)
    a = bootstrap(counts, ["informedness"], seed=3)
    b = bootstrap(counts, ["informedness"], seed=3, weights_are="normalised")
    assert a.intervals == b.intervals and a.weights_are is None and a.size == N_ROWS


def test_the_design_says_which_reading() -> None:
    frequency = bootstrap_design(_weighted(), 0.95)
    assert frequency == {
        "level": 0.95,
        "method": "percentile",
        "replicates": 1000,
        "cases": 5,
        "weights_are": "frequency",
        "total_weight": pytest.approx(5.0),
    }
    assert "5 cases (frequency weights: N = 5, the total weight)" in design_note(frequency)
    normalised = bootstrap_design(_weighted(), 0.9, weights_are="normalised", size=N_ROWS)
    assert normalised["cases"] == N_ROWS and normalised["weights_are"] == "normalised"
    assert "500 cases (normalised weights" in design_note(normalised)
    counts = bootstrap_design(Table.from_labels(actual=ACTUAL, predicted=PREDICTED), 0.95)
    assert counts["weights_are"] is None and counts["total_weight"] is None
    assert design_note(counts) == "95 % percentile bootstrap, 1000 replicates of 500 cases"


# ---------------------------------------------------------------------- the command line
@pytest.fixture
def weighted_csv(tmp_path: Path) -> Path:
    """500 rows of weight 0.01 and 20 of weight 0 (left out, so not cases)."""
    path = tmp_path / "w.csv"
    rows = [f"{a},{p},0.01" for a, p in zip(ACTUAL, PREDICTED, strict=True)]
    rows += [f"{a},{a},0" for a in ACTUAL[:20]]
    path.write_text("actual,predicted,w\n" + "\n".join(rows) + "\n")
    return path


ARGS = ["--actual", "actual", "--predicted", "predicted", "--weight", "w", "--ci", "0.95"]


@pytest.mark.parametrize(
    ("extra", "cases", "reading"),
    [([], 5, "frequency"), (["--weights-are", "normalised"], 500, "normalised")],
)
def test_the_command_reports_the_reading(
    weighted_csv: Path,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    extra: list[str],
    cases: int,
    reading: str,
) -> None:
    command = ["evaluate", str(weighted_csv), *ARGS, *extra, "--quiet"]
    assert main([*command, "--format", "json"]) == 0
    document = json.loads(capsys.readouterr().out)
    assert document["bootstrap"]["cases"] == cases
    assert document["bootstrap"]["weights_are"] == reading
    html = tmp_path / "r.html"
    assert main([*command, "--html", str(html)]) == 0
    text = capsys.readouterr().out
    sentence = f"{cases} cases ({reading} weights"
    assert sentence in " ".join(text.split())
    assert sentence in html.read_text()


def test_weights_are_needs_weight_and_ci(
    weighted_csv: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    base = ["evaluate", str(weighted_csv), "--actual", "actual", "--predicted", "predicted"]
    assert main([*base, "--ci", "0.95", "--weights-are", "normalised"]) == 2
    assert "--weights-are normalised" in capsys.readouterr().err
    assert main([*base, "--weight", "w", "--weights-are", "frequency"]) == 2
    assert "--ci LEVEL" in capsys.readouterr().err


def _expected_informedness() -> float:
    """Informedness of the rows, from scikit-learn (equal weights change no rate)."""
    metrics = pytest.importorskip("sklearn.metrics")
    return float(metrics.balanced_accuracy_score(ACTUAL, PREDICTED, adjusted=True))


@pytest.mark.parametrize("weight", [0.0008, 1 / N_ROWS])
def test_fractional_weights_say_how_to_get_an_interval(weight: float) -> None:
    """Weights that sum to 0.4 (0 cases) or 1 (one case per replicate) give nan intervals
    whose reason names weights_are="normalised" and size=; the estimate is still the
    table's own value, not nan (issue 20, item 13)."""
    result = bootstrap(_weighted(weight), ["informedness"], seed=0, per_label=True)
    interval = result.intervals["informedness"]
    assert np.isnan(interval.low) and np.isnan(interval.high)
    assert interval.estimate == pytest.approx(_expected_informedness(), abs=1e-12)
    assert interval.reason is not None
    assert 'weights_are="normalised"' in interval.reason and "size=" in interval.reason
    assert f"sum to {N_ROWS * weight:.6g}" in interval.reason
    for by_measure in result.per_label.values():
        assert not np.isnan(by_measure["informedness"].estimate)
    fixed = bootstrap(
        _weighted(weight), ["informedness"], seed=0, weights_are="normalised", size=N_ROWS
    )
    assert fixed.intervals["informedness"].low < fixed.intervals["informedness"].high


def test_whole_weights_carry_no_hint() -> None:
    """Weights of 2 are repeated rows: no note about normalised weights."""
    result = bootstrap(_weighted(2.0), ["informedness"], seed=0, replicates=50)
    assert result.intervals["informedness"].reason is None


_HEAVY = 1.5e18  # six rows of it, 9e18 cases, are within 2**63 - 1; seven are not


def _heavy_ranking(rows: int) -> Ranking:
    actual = np.arange(rows) % 2
    scores = np.linspace(0.1, 0.9, rows)
    return Ranking.from_scores(actual, scores, positive=1, weights=np.full(rows, _HEAVY))


def test_a_total_weight_beyond_int64_cases_is_refused_before_drawing() -> None:
    """A total weight of about 1e19 crashed the multinomial draws with numpy's raw
    OverflowError (Python int too large to convert to C long); one line says why and what
    to do, for tables, rankings, operating points and slices alike."""
    from informed.inference import bootstrap_ranking, threshold_interval
    from informed.inference.slice_bootstrap import bootstrap_slices
    from informed.slices import Slices

    heavy = Table.from_labels(
        actual=ACTUAL[:7], predicted=PREDICTED[:7], weights=np.full(7, _HEAVY)
    )
    calls = [
        lambda: bootstrap(heavy, ["informedness"], seed=0),
        lambda: bootstrap_ranking(_heavy_ranking(13), seed=0),  # stratified: 7 negatives
        lambda: threshold_interval(_heavy_ranking(7), seed=0),  # both classes drawn together
        lambda: bootstrap_slices(
            Slices.from_labels(
                by=np.zeros(7),
                actual=ACTUAL[:7],
                predicted=PREDICTED[:7],
                weights=np.full(7, _HEAVY),
            ),
            seed=0,
        ),
    ]
    for call in calls:
        with pytest.raises(InputError, match="exceeds 2\\*\\*63 - 1 cases; rescale") as raised:
            call()
        assert "\n" not in str(raised.value)
    with pytest.raises(InputError, match='weights_are="normalised" with size='):
        calls[0]()
    # within the limit the draws are made, and the normalised reading of the same weights too
    assert bootstrap_ranking(_heavy_ranking(6), seed=0, replicates=20) is not None
    found = bootstrap(heavy, ["informedness"], weights_are="normalised", size=7, seed=0)
    assert found.size == 7


def test_the_command_line_refuses_a_total_weight_beyond_int64_cases(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "heavy.csv"
    rows = "".join(f"{i % 2},{(i + 1) % 2},{0.05 + 0.07 * i},{_HEAVY}\n" for i in range(13))
    path.write_text("y,yhat,p,w\n" + rows)
    for columns in (["--predicted", "yhat"], ["--score", "p", "--positive", "1"]):
        code = main(
            ["evaluate", str(path), "--actual", "y", *columns, "--weight", "w", "--ci", "0.95"]
        )
        err = capsys.readouterr().err
        assert code != 0 and "exceeds 2**63 - 1 cases" in err and "Traceback" not in err
    table = ["evaluate", str(path), "--actual", "y", "--predicted", "yhat", "--weight", "w"]
    code = main([*table, "--ci", "0.95", "--weights-are", "normalised"])
    assert code == 0, capsys.readouterr().err


def test_paired_draws_beyond_int64_cases_are_refused_in_one_line() -> None:
    """compare's paired bootstrap (`draw_cells`), the net benefit difference and the paired
    permutation test drew from 7 x 1.5e18 cases with numpy's raw OverflowError ("Python
    int too large to convert to C long"); they now say why, and draw up to the limit."""
    from informed.comparison import compare, net_benefit_difference, paired_permutation
    from informed.comparison.joint import joint_outcomes

    actual, a, b = ACTUAL[:7], PREDICTED[:7], 1 - PREDICTED[:7]
    scores = {"a": np.linspace(0.1, 0.9, 7), "b": np.linspace(0.9, 0.1, 7)}
    weights = np.full(7, _HEAVY)
    joint = joint_outcomes(actual, {"a": a, "b": b}, weights)
    calls: list[tuple[str, Callable[[], object]]] = [
        ("bootstrap draws", lambda: compare(
            actual, {"a": a, "b": b}, weights=weights, replicates=20, permutations=9, seed=0
        )),
        ("bootstrap draws", lambda: net_benefit_difference(
            actual, scores, positive=1, weights=weights, replicates=20, seed=0
        )),
        ("permutation test swaps", lambda: paired_permutation(
            joint, "a", "b", permutations=9, seed=0
        )),
    ]  # fmt: skip
    for does, call in calls:
        with pytest.raises(
            InputError,
            match="^"
            + re.escape(
                f"the {does} whole cases: a total weight of 1.05e+19 exceeds 2**63 - 1 cases; "
            ),
        ) as raised:
            call()
        assert "\n" not in str(raised.value)
    six = np.full(6, _HEAVY)  # 9e18 cases: drawn
    found = compare(actual[:6], {"a": a[:6], "b": b[:6]}, weights=six, replicates=20, seed=0)
    assert found is not None
    joint = joint_outcomes(actual[:6], {"a": a[:6], "b": b[:6]}, six)
    assert 0 < paired_permutation(joint, "a", "b", permutations=9, seed=0).pvalue <= 1


def test_a_tally_of_more_than_int64_documents_is_refused_and_one_of_2_63_minus_1_drawn() -> None:
    """The pooled table of a Tally can hold more than 2**63 - 1 documents in all (each cell
    within int64): its bootstrap cast the size to int64 and numpy said "n < 0". A table
    of exactly 2**63 - 1 documents is drawn: its size is summed exactly, not in float."""
    from informed.inference import tally_intervals
    from informed.tally import Tally

    half = 2**61
    pooled_too_big = Tally.from_counts(["x", "y"], [[[half, 0], [0, half]]] * 2)
    with pytest.raises(
        InputError,
        match=re.escape(
            "total weight of 9.22e+18 exceeds 2**63 - 1 cases; split the documents into "
            "smaller tallies"
        ),
    ) as raised:
        tally_intervals(pooled_too_big, replicates=20, seed=0)
    assert "\n" not in str(raised.value)
    at_limit = Tally.from_counts(["x"], [[[2**62, 0], [0, 2**62 - 1]]])
    found = tally_intervals(at_limit, ["accuracy", "informedness"], replicates=20, seed=0)
    assert found.micro["informedness"].low == found.micro["informedness"].high == 1.0


def test_the_compare_command_refuses_a_total_weight_beyond_int64_cases(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "heavy.csv"
    rows = "".join(f"{i % 2},{(i + 1) % 2},{i % 2},{_HEAVY}\n" for i in range(7))
    path.write_text("y,a,b,w\n" + rows)
    code = main(["compare", str(path), "--actual", "y", "--predicted", "a", "b", "--weight", "w"])
    err = capsys.readouterr().err
    assert code != 0 and "Traceback" not in err
    assert "the bootstrap draws whole cases: a total weight of 1.05e+19 exceeds 2**63 - 1" in err
