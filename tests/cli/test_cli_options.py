"""The command line's options and output: repeated flags, --version, help on every option,
the width of the text report, pooled labels, JSON types, quota errors, the --html path,
and each result computed once per run."""

from __future__ import annotations

import argparse
import json
import re
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from informed import Ranking, Table, evaluate
from informed.cli import main
from informed.cli.main import parser
from informed.cli.output import terminal_width
from informed.inference import bootstrap
from informed.ranking import summarize_ranking
from informed.report import render_evaluation, render_ranking, results_document
from informed.report.text import MIN_WIDTH, WIDTH


def _run(args: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    code = main(args)
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def _scored(tmp_path: Path, rows: int = 40) -> str:
    rng = np.random.default_rng(1)
    path = tmp_path / "scored.csv"
    lines = ["y,p,s"]
    for _ in range(rows):
        actual = "yes" if rng.random() < 0.4 else "no"
        predicted = actual if rng.random() < 0.7 else ("no" if actual == "yes" else "yes")
        lines.append(f"{actual},{predicted},{rng.random() + (actual == 'yes') * 0.3:.3f}")
    path.write_text("\n".join(lines) + "\n")
    return str(path)


# -- item 6: a repeated list option accumulates ---------------------------------------------


def test_repeated_quota_flags_accumulate(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = _scored(tmp_path)
    args = ["evaluate", path, "--actual", "y", "--score", "s", "--positive", "yes"]
    code, out, _ = _run([*args, "--quota", "1", "--quota", "5", "10", "--format", "json"], capsys)
    assert code == 0
    assert list(json.loads(out)["ranking"]["at_quota"]) == ["1", "5", "10"]


def test_repeated_categories_accumulate(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "t.jsonl"
    path.write_text('{"assigned": ["a"], "correct": ["a", "c"]}\n')
    code, out, _ = _run(
        ["tally", str(path), "--categories", "a,b", "--categories", "c", "--format", "json"],
        capsys,
    )
    assert code == 0
    assert json.loads(out)["categories"] == ["a", "b", "c"]


def _options(top: argparse.ArgumentParser) -> list[tuple[str, argparse.Action]]:
    found = [("informed", a) for a in top._actions]
    for action in top._actions:
        if isinstance(action, argparse._SubParsersAction):
            for name, sub in action.choices.items():
                found += [(name, a) for a in sub._actions]
    return found


def test_every_list_option_extends() -> None:
    """Any option taking several values accumulates when repeated (argparse "extend" or
    "append"), so no flag silently replaces an earlier one."""
    for command, action in _options(parser()):
        if action.nargs in ("+", "*") and action.option_strings:
            assert isinstance(action, argparse._ExtendAction), (command, action.dest)


# -- item 7: --version and help on every option ---------------------------------------------


def test_version(capsys: pytest.CaptureFixture[str]) -> None:
    from importlib.metadata import version

    with pytest.raises(SystemExit) as exit_:
        main(["--version"])
    assert exit_.value.code == 0
    assert capsys.readouterr().out.strip() == f"informed {version('informed')}"


def test_every_option_has_help() -> None:
    """--format, --conventions and every other option say what they do."""
    missing = [
        (command, action.dest)
        for command, action in _options(parser())
        if not isinstance(action, argparse._SubParsersAction) and not (action.help or "").strip()
    ]
    assert missing == []
    helps = {(c, a.dest): a.help for c, a in _options(parser())}
    assert "json" in str(helps[("evaluate", "format")])
    assert "statistics-contingency" in str(helps[("tally", "conventions")])


def test_help_runs_as_a_process() -> None:
    result = subprocess.run(
        [sys.executable, "-m", "informed", "evaluate", "--help"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert result.returncode == 0 and "--csv-raw" in result.stdout


# -- item 8: the text report fits the terminal; intervals stay whole ------------------------


@pytest.fixture(scope="module")
def with_intervals() -> tuple[object, object, object]:
    """Twelve labels with long names, intervals, and a ranking with quotas: the widest
    report the text draws."""
    rng = np.random.default_rng(0)
    names = [f"class-name-{k}" for k in range(12)]
    actual = rng.choice(names, 2000)
    predicted = np.where(rng.random(2000) < 0.6, actual, rng.choice(names, 2000))
    table = Table.from_labels(actual=actual, predicted=predicted)
    ranking = Ranking.from_scores(
        actual=actual == names[1], scores=rng.random(2000).round(3), positive=True
    )
    summary = summarize_ranking(ranking, quotas=[5, 100, 1000])
    return evaluate(table), bootstrap(table, replicates=100, seed=0), summary


@pytest.mark.parametrize("width", [MIN_WIDTH, 72, 80, 100, 132, 200])
def test_text_fits_the_width_and_never_breaks_an_interval(
    width: int, with_intervals: tuple[object, object, object]
) -> None:
    """No line wider than the terminal, no interval over two lines, no number cut."""
    result, intervals, summary = with_intervals
    text = render_evaluation(result, "f.csv", intervals, width=width)  # type: ignore[arg-type]
    text += "\n" + render_ranking(summary, True, width=width)  # type: ignore[arg-type]
    assert max(len(line) for line in text.splitlines()) <= width
    whole = re.findall(r"\[-?\d\.\d{4}, -?\d\.\d{4}\]", text)
    # 3 headline intervals + one per measure whose interval is defined, each on one line
    defined = [
        n
        for n, i in intervals.intervals.items()
        if i.low == i.low and i.high == i.high  # type: ignore[attr-defined]
    ]
    assert len(whole) == 3 + len(defined)
    assert not re.search(r"\[-?\d\.\d{4},\s*$", text, re.M)  # no interval cut at a line end
    assert not re.search(r"-?\d+\.\d*…", text)  # no number cut short


def test_the_terminal_width_is_rich_s(monkeypatch: pytest.MonkeyPatch) -> None:
    """On a terminal the report takes its width (rich reads COLUMNS); redirected, 100."""
    monkeypatch.setattr(sys.stdout, "isatty", lambda: False)
    assert terminal_width() == WIDTH == 100
    monkeypatch.setattr(sys.stdout, "isatty", lambda: True)
    monkeypatch.setenv("COLUMNS", "137")
    assert terminal_width() == 137


def test_a_label_predicted_often_is_not_pooled() -> None:
    """Ten labels, one predicted 458 times but real only twice: it stays in view, chosen
    by the larger of predicted and actual counts, and another is pooled as 'other'."""
    actual: list[str] = []
    predicted: list[str] = []
    for k in range(9):
        actual += [f"c{k}"] * (100 + 10 * k)
        predicted += [f"c{k}"] * (50 + 10 * k) + ["often"] * 50
    actual += ["often", "often"] + ["c0"] * 6
    predicted += ["often"] * 8
    assert predicted.count("often") == 458 and actual.count("often") == 2
    result = evaluate(Table.from_labels(actual=actual, predicted=predicted))
    text = render_evaluation(result, "f.csv")
    contingency = text.split("Fair-odds payoff")[0]
    assert "pooled as 'other'" in contingency
    header = next(line for line in contingency.splitlines() if "predicted \\ actual" in line)
    assert "often" in header.split()
    shown = header.split()
    assert {"c0", "c1", "c2"}.isdisjoint(shown)  # the least frequent by the larger count
    assert {"c3", "c8", "other"} <= set(shown)


# -- item 9: JSON types and quota errors ----------------------------------------------------


def test_positive_has_the_labels_type() -> None:
    """1.0 names the label 1: the JSON writes the table's own label, an int beside ints."""
    table = Table.from_labels(actual=[1, 0, 1, 0], predicted=[1, 1, 0, 0])
    document = results_document(evaluate(table, positive=1.0))
    assert document["positive"] == 1 and type(document["positive"]) is int
    assert all(type(x) is int for x in document["labels"]["actual"])


def test_ranking_only_json_names_its_positive(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = _scored(tmp_path)
    code, out, _ = _run(
        [
            "evaluate",
            path,
            "--actual",
            "y",
            "--score",
            "s",
            "--positive",
            "yes",
            "--format",
            "json",
        ],
        capsys,
    )
    assert code == 0 and json.loads(out)["positive"] == "yes" and json.loads(out)["n"] == 40


@pytest.mark.parametrize("quota", ["0", "41", "500"])
def test_quota_errors_speak_cli_and_agree(
    quota: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = _scored(tmp_path)
    code, out, err = _run(
        ["evaluate", path, "--actual", "y", "--score", "s", "--positive", "yes", "--quota", quota],
        capsys,
    )
    assert code == 2 and out == ""
    assert err.startswith(
        "informed: error: --quota must be a whole number of cases from 1 to the number of "
        "scored rows"
    )
    assert err.rstrip().endswith(f"got {quota}.")
    assert ".0" not in err


def test_quota_without_scores_is_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = _scored(tmp_path)
    code, _, err = _run(
        ["evaluate", path, "--actual", "y", "--predicted", "p", "--quota", "5"], capsys
    )
    assert code == 2 and "--quota needs --score" in err


# -- issue 16: --html into a missing folder; each result computed once ----------------------


def test_html_into_a_missing_folder_fails_first(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Checked before any work: nothing printed, the user's path named, no temp file."""
    path = _scored(tmp_path)
    target = tmp_path / "no" / "such" / "report.html"
    code, out, err = _run(
        ["evaluate", path, "--actual", "y", "--predicted", "p", "--html", str(target)], capsys
    )
    assert code == 2 and out == ""
    assert str(target) in err and "does not exist" in err and ".tmp" not in err
    code, out, err = _run(["demo", "--html", str(target)], capsys)
    assert code == 2 and out == "" and str(target) in err


def test_each_result_is_computed_once(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """One run with --predicted, --score, --ci and --html: one payoff of the evaluation,
    one ranking summary, one bootstrap, whatever the outputs. (The page's live operating
    point has a 2x2 table of its own, whose payoff and $10 stakes make two more.)"""
    pytest.importorskip("matplotlib")
    from informed.inference.table_bootstrap import Bootstrap
    from informed.ranking.document import RankingSummary
    from informed.table.payoff import Payoff

    made = {"Payoff": 0, "RankingSummary": 0, "Bootstrap": 0}
    for cls in (Payoff, RankingSummary, Bootstrap):
        original = cls.__init__

        def counted(self: object, *a: object, __o: object = original, **k: object) -> None:
            made[type(self).__name__] += 1
            __o(self, *a, **k)  # type: ignore[operator]

        monkeypatch.setattr(cls, "__init__", counted)
    path = _scored(tmp_path)
    code, _, _ = _run(
        [
            "evaluate", path, "--actual", "y", "--predicted", "p", "--score", "s",
            "--positive", "yes", "--quota", "5", "--ci", "0.9", "--html",
            str(tmp_path / "r.html"), "--format", "json",
        ],
        capsys,
    )  # fmt: skip
    assert code == 0
    assert made == {"Payoff": 1 + 2, "RankingSummary": 1, "Bootstrap": 1}


def test_options_are_never_abbreviated(capsys: pytest.CaptureFixture[str]) -> None:
    """`--pos` is not `--positive`: an option is taken only by its whole name."""
    with pytest.raises(SystemExit) as exit_info:
        main(["evaluate", "x.csv", "--actual", "y", "--predicted", "p", "--pos", "a"])
    assert exit_info.value.code == 2
    assert "--pos" in capsys.readouterr().err
