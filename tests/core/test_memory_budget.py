"""The memory budget (`informed._common.memory_budget`) reads the system once for a burst
of checks instead of at every check (each reading is /proc/meminfo, the control group and
/proc/self/status, about 0.3 ms), reads it again once `READ_EVERY` seconds have passed,
and honours INFORMED_MEMORY_LIMIT at every call."""

from __future__ import annotations

import pytest

import informed._common as common
from informed import Table
from informed.errors import MemoryLimitError


class _System:
    """A stand-in for the system's reading: how often it is read, and what it says."""

    def __init__(self, available: int) -> None:
        self.available = available
        self.reads = 0

    def __call__(self) -> int:
        self.reads += 1
        return self.available


@pytest.fixture
def system(monkeypatch: pytest.MonkeyPatch) -> _System:
    fake = _System(available=1 << 40)
    monkeypatch.setattr(common, "memory_available", fake)
    monkeypatch.setattr(common, "_reading", [])  # no reading kept from earlier tests
    monkeypatch.delenv("INFORMED_MEMORY_LIMIT", raising=False)
    return fake


SPARSE = Table.from_labels(actual=range(300), predicted=range(299, -1, -1), storage="sparse")


def _densify() -> Table:
    """A fresh copy of a sparse table of 300 x 300 labels made dense: a check of 703 KiB
    against the budget (a table keeps its dense view: a copy checks again)."""
    return SPARSE.transpose().to_dense()


def test_a_burst_of_checks_reads_the_system_once(system: _System) -> None:
    for _ in range(50):
        _densify()
    assert system.reads == 1


def test_the_system_is_read_again_after_the_window(
    system: _System, monkeypatch: pytest.MonkeyPatch
) -> None:
    _densify()
    system.available = 1000  # memory taken since: the next reading must see it
    _densify()  # within the window: the first reading serves
    assert system.reads == 1
    monkeypatch.setattr(common, "READ_EVERY", 0.0)
    with pytest.raises(MemoryLimitError, match="300 x 300 labels needs 703 KiB"):
        _densify()
    assert system.reads == 2


def test_the_environment_limit_applies_at_once(
    system: _System, monkeypatch: pytest.MonkeyPatch
) -> None:
    _densify()
    monkeypatch.setenv("INFORMED_MEMORY_LIMIT", "1000")
    with pytest.raises(MemoryLimitError, match="more than the 1000 bytes of memory available"):
        _densify()
    monkeypatch.delenv("INFORMED_MEMORY_LIMIT")
    _densify()
    assert system.reads == 1


def test_the_real_reading_is_a_number_of_bytes_or_none() -> None:
    found = common.memory_available()
    assert found is None or (isinstance(found, int) and found >= 0)
