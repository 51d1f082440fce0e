"""The Ranking of files' or frames' summaries names its classes as `Ranking.from_scores` of
the same rows does (issue 27, item 9): the one other class where the rows hold one (a file
may lack it), None where they hold several (each file may see a different one)."""

from __future__ import annotations

from pathlib import Path

from informed import Ranking
from informed.io import Summaries, read_summaries


def _write(path: Path, rows: list[tuple[str, float]]) -> Path:
    path.write_text("y,s\n" + "".join(f"{y},{s}\n" for y, s in rows))
    return path


def test_files_name_the_other_class_of_all_their_rows(tmp_path: Path) -> None:
    first = [("spam", 0.9), ("spam", 0.4)]  # no "ham" in this file
    second = [("ham", 0.2), ("spam", 0.7), ("ham", 0.4)]
    _write(tmp_path / "a.csv", first)
    _write(tmp_path / "b.csv", second)
    found = read_summaries(str(tmp_path / "*.csv"), actual="y", scores="s", positive="spam")
    actual, scores = zip(*(first + second), strict=True)
    expected = Ranking.from_scores(list(actual), list(scores), positive="spam")
    assert expected.negative == "ham"
    assert found.ranking == expected
    assert Summaries.from_json(found.to_json()) == found


def test_files_that_each_see_another_class_rank_against_all_the_others(tmp_path: Path) -> None:
    _write(tmp_path / "a.csv", [("spam", 0.9), ("ham", 0.4)])
    _write(tmp_path / "b.csv", [("spam", 0.7), ("eggs", 0.2)])
    one = read_summaries(tmp_path / "a.csv", actual="y", scores="s", positive="spam")
    assert one.ranking is not None and one.ranking.negative == "ham"
    found = read_summaries(str(tmp_path / "*.csv"), actual="y", scores="s", positive="spam")
    assert found.ranking is not None
    assert (found.ranking.positive, found.ranking.negative) == ("spam", None)
    rest = Ranking.from_scores([True, False, True, False], [0.9, 0.4, 0.7, 0.2], positive=True)
    assert found.ranking.positives.tolist() == rest.positives.tolist()
    assert found.ranking.negatives.tolist() == rest.negatives.tolist()
