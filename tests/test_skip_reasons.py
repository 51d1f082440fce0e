"""Issue 27, item 21: a run ends with a line per reason a test was skipped, and how many
tests it skipped, in one process and under xdist (`make test` runs `-n 2`). The tests
run pytest, with this suite's conftest.py, on small test files whose skips are counted
here by hand."""

from __future__ import annotations

from pathlib import Path

import pytest

CONFTEST = Path(__file__).with_name("conftest.py")

SPARK = "no Java runtime for Spark: .ci/run installs one"

TESTS = f"""
import pytest


@pytest.mark.parametrize("n", range(3))
def test_on_spark(n):
    pytest.skip({SPARK!r})


@pytest.mark.skipif(True, reason="headless Chromium is not installed")
def test_in_a_browser():
    pass


def test_a_missing_module():
    pytest.importorskip("a_module_nobody_has")


def test_runs():
    pass


@pytest.mark.xfail(reason="an expected failure, not a skip", strict=True)
def test_fails():
    assert False
"""

PERL = """
import pytest

pytest.skip("the Perl module Statistics::Contingency is not installed", allow_module_level=True)


def test_against_perl():
    pass
"""

EXPECTED = [
    f"skipped 3: {SPARK}",
    "skipped 1: could not import 'a_module_nobody_has': No module named 'a_module_nobody_has'",
    "skipped 1: headless Chromium is not installed",
    "skipped 1: the Perl module Statistics::Contingency is not installed",
]


def _run(
    pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch, *options: str
) -> pytest.RunResult:
    """pytest in a new process, with this suite's conftest.py and no plugin but those
    named (loading every installed plugin takes seconds)."""
    pytester.makeconftest(CONFTEST.read_text(encoding="utf-8"))
    monkeypatch.setenv("PYTEST_DISABLE_PLUGIN_AUTOLOAD", "1")
    return pytester.runpytest_subprocess("-p", "no:cacheprovider", *options)


@pytest.mark.parametrize("workers", [[], ["-p", "xdist", "-n", "2"]], ids=["one process", "xdist"])
def test_the_run_ends_with_a_line_per_skip_reason(
    pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch, workers: list[str]
) -> None:
    pytester.makepyfile(test_engines=TESTS, test_tally=PERL)
    result = _run(pytester, monkeypatch, *workers)
    result.assert_outcomes(passed=1, skipped=6, xfailed=1)
    lines = [line for line in result.outlines if line.strip()]
    found = [line for line in lines if line.startswith("skipped ")]
    assert found == EXPECTED
    last = lines.index(found[-1])
    assert lines[last - len(found) + 1 : last + 1] == EXPECTED  # together, at the end
    assert "1 passed, 6 skipped, 1 xfailed" in lines[last + 1]


def test_a_run_without_skips_says_nothing_of_them(
    pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch
) -> None:
    pytester.makepyfile("def test_runs():\n    pass\n")
    result = _run(pytester, monkeypatch)
    result.assert_outcomes(passed=1)
    assert not [line for line in result.outlines if line.startswith("skipped")]
