"""What every run of the tests shares: the skipped tests counted by reason at its end.

A machine without Java, the Perl module or Chromium skips about 100 tests, which pytest
lists only under `-rs` (issue 27); the last lines of every run say how many were skipped
and why, a line per reason: ``skipped 12: no Java runtime for Spark: .ci/run installs
one``. Under xdist (`make test` runs `-n 2`) the workers' reports reach the controller,
which prints them.
"""

from __future__ import annotations

import sys
from collections import Counter
from collections.abc import Iterable, Iterator, Mapping
from typing import Any

import pytest

pytest_plugins = ["pytester"]  # tests/test_skip_reasons.py runs pytest on small test files


def skip_reasons(reports: Iterable[Any]) -> Counter[str]:
    """How many skipped reports give each reason (a report is a test, or a module skipped
    whole at its collection, as pytest's own count of skipped tests has it)."""
    reasons: Counter[str] = Counter()
    for report in reports:
        longrepr = report.longrepr
        text = longrepr[2] if isinstance(longrepr, tuple) else str(longrepr)
        reasons[text.removeprefix("Skipped: ")] += 1
    return reasons


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter) -> None:
    """A line per reason, the most frequent first, after everything but the counts."""
    reasons = skip_reasons(terminalreporter.stats.get("skipped", []))
    for reason, count in sorted(reasons.items(), key=lambda item: (-item[1], item[0])):
        terminalreporter.write_line(f"skipped {count}: {reason}")


@pytest.fixture(autouse=True)
def _no_figure_left_open() -> Iterator[None]:
    """Close the pyplot figures a test leaves open: once anything has imported pyplot (the
    peers mlflow, dcurves and mlxtend do), informed's plots are pyplot figures, and a worker
    that ran many of them before a test that draws several would pass matplotlib's limit
    of 20 open figures (a RuntimeWarning, an error here) depending on the tests' order."""
    yield
    pyplot = sys.modules.get("matplotlib.pyplot")
    if pyplot is not None:
        pyplot.close("all")


@pytest.fixture(autouse=True)
def _validated_results(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every result document a command writes in any test (each is stamped by
    `informed.report.result_schema.stamp` as its last step) is validated against the
    JSON Schema shipped in the package."""
    from informed.report import result_schema

    original = result_schema.stamp

    def stamp_and_check(document: Mapping[str, Any], kind: str) -> dict[str, Any]:
        # imported here: tests/test_skip_reasons.py runs this file alone, away from tests/
        from schema_check import check_result_document

        stamped = original(document, kind)
        check_result_document(stamped)
        return stamped

    monkeypatch.setattr(result_schema, "stamp", stamp_and_check)
