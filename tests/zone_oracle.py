"""The oracle of zone-aware windows, shared by the tests of every route: Python's
zoneinfo converts each instant alone (`datetime.astimezone`), and the window is read
from the fields of the wall-clock time it gives. The instants tested are random ones
from 1900 to 2100 and ones around each change of offset that a scan of zoneinfo finds
(or around local midnights, where a wrong offset moves an instant to another day)."""

from __future__ import annotations

import datetime as dt
from functools import cache
from typing import Any
from zoneinfo import ZoneInfo

import numpy as np

EPOCH = dt.datetime(1970, 1, 1, tzinfo=dt.UTC)
YEAR_1900 = -2208988800
YEAR_2100 = 4102444800
YEAR_2042 = 2240524800
NO_DAYLIGHT_SAVING = {"Asia/Kolkata"}


def offset(zone: ZoneInfo, second: int) -> int:
    """The offset east of UTC that zoneinfo gives the instant `second`, in seconds."""
    delta = (EPOCH + dt.timedelta(seconds=second)).astimezone(zone).utcoffset()
    assert delta is not None
    return int(delta.total_seconds())


@cache
def changes(name: str) -> tuple[int, ...]:
    """The instants (UTC seconds) at which the zone's offset changes, 1900 to 2100: a
    scan of zoneinfo every 5 days, each change narrowed to its second by bisection."""
    zone = ZoneInfo(name)
    found = []
    step = 5 * 86400
    before = offset(zone, YEAR_1900)
    for second in range(YEAR_1900 + step, YEAR_2100, step):
        now = offset(zone, second)
        if now != before:
            low, high = second - step, second  # offset(low) = before, offset(high) = now
            while high - low > 1:
                middle = (low + high) // 2
                if offset(zone, middle) == before:
                    low = middle
                else:
                    high = middle
            found.append(high)
        before = now
    late = sum(change > YEAR_2042 for change in found)
    assert late > 100 if name not in NO_DAYLIGHT_SAVING else len(found) > 3, name
    return tuple(found)


def instants(name: str, seed: int, count: int = 1500) -> np.ndarray[Any, Any]:
    """`count` random instants 1900-2100, instants around each change of offset, and
    2042-07-16 22:30 UTC (00:30 the next day in Paris)."""
    rng = np.random.default_rng(seed)
    near = np.add.outer(changes(name), [-3601, -1801, -1, 0, 1, 1799, 3600]).ravel()
    spread = rng.integers(YEAR_1900, YEAR_2100, count)
    return np.concatenate([spread, near, [2289255000]]).astype(np.int64)


def midnights(name: str, seed: int, days: int = 24) -> np.ndarray[Any, Any]:
    """Instants around the local midnights of a few days (days of changes of offset and
    days 30 and 120 after one, half of them after 2037), and around those changes: few
    days, each checked where a wrong offset puts an instant on the day before or after."""
    rng = np.random.default_rng(seed)
    zone = ZoneInfo(name)
    found = np.array(changes(name), dtype=np.int64)
    picked = np.concatenate(
        [
            rng.choice(found[found < YEAR_2042], days // 2),
            rng.choice(found[found >= YEAR_2042], days // 2),
        ]
    )
    starts = picked + rng.choice([0, 30, 120], picked.size) * 86400
    dates = [(EPOCH + dt.timedelta(seconds=int(s))).astimezone(zone).date() for s in starts]
    midnight = [int(dt.datetime(d.year, d.month, d.day, tzinfo=zone).timestamp()) for d in dates]
    near = [-3600, -1800, -1, 0, 1, 1800, 3600]
    return np.concatenate(
        [np.add.outer(midnight, near).ravel(), np.add.outer(picked, near).ravel()]
    ).astype(np.int64)


def key(wall: dt.datetime, every: str) -> str:
    """The window of a wall-clock time, from its fields (30min, 1h, 1d or 1mo)."""
    if every == "30min":
        return f"{wall:%Y-%m-%dT%H}:{wall.minute // 30 * 30:02d}"
    if every == "1h":
        return f"{wall:%Y-%m-%dT%H}:00"
    if every == "1d":
        return wall.date().isoformat()
    assert every == "1mo"
    return f"{wall:%Y-%m}"


def expected(name: str | dt.tzinfo, seconds: np.ndarray[Any, Any], every: str) -> list[str]:
    """The window of each instant of `seconds` on the wall clock of the zone."""
    zone = ZoneInfo(name) if isinstance(name, str) else name
    walls = [(EPOCH + dt.timedelta(seconds=s)).astimezone(zone) for s in seconds.tolist()]
    return [key(wall.replace(tzinfo=None), every) for wall in walls]
