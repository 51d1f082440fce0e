"""The one grouped count an engine runs, its exact weight sums, and the coverage count.

Every summary of a lazy frame comes from one query of this form, written once in narwhals
and compiled by it to the frame's engine:

    SELECT key..., COUNT(*), SUM(limb_0(w)), ..., SUM(limb_5(w)), SUM(bad(w))...
    FROM frame GROUP BY key...

(keys: predicted and actual for a Table, score and actual for a Ranking, with the slice
columns in front for Slices). Only the groups travel back, as Arrow columns; a separate
``SELECT COUNT(*)`` counts the rows the frame holds, and the two must agree.

Weights are summed exactly. An engine's ``SUM`` of doubles rounds at every addition, in
an order that depends on its partitions and threads, so the same data could give
different last bits from run to run. Instead each weight w (finite, 0 <= w < 2^52) is
cut on the engine into six integer limbs of 26 bits on the grid of
`informed.measures.exact` (w = sum_k limb_k 2^(26k - 104)), by multiplication by powers
of two, floors of values below 2^53 and subtractions that are exact in IEEE double
arithmetic (three projections, two limbs each; never a modulo, which narwhals writes on
SQL engines as ((x % m) + m) % m, whose addition rounds); the engine
sums each limb as a 64-bit integer (exact: a limb is below 2^26), and informed adds the
limb sums and rounds once, to the float64 nearest the exact sum. A weight whose bits
reach below 2^-104 (smaller than about 2^-52 = 2.2e-16, or with bits that far down), or
of 2^52 or more, cannot be held on that grid: such rows are counted on the engine and
refused with the count, never rounded silently; so are missing, NaN, infinite and
negative weights.
"""

from __future__ import annotations

from typing import Any, NamedTuple

import numpy as np
from numpy.typing import NDArray

from informed._common import check_memory, memory_budget
from informed.engines.frames import find_rows, narwhals, source_engine
from informed.errors import InputError, InputTypeError
from informed.measures.exact import WIDTH, to_float

__all__ = [
    "LIMB_BASE",
    "Grouped",
    "check_coverage",
    "count_rows",
    "exact_sums",
    "fetch",
    "grouped_counts",
    "grouped_query",
    "weight_sums",
    "what_text",
]

LIMBS = 6
LIMB_BASE = -4 * WIDTH
"""Limb k of a weight weighs 2^(LIMB_BASE + WIDTH k): four limbs below 1, two above."""
LARGEST = float(1 << (2 * WIDTH))
"""Weights must be below 2^52: two integer limbs of 26 bits."""
_ROWS = "__informed_rows"
_LIMB = "__informed_limb"
_FLAGS = ("null", "nan", "negative", "infinite", "large", "fine", "positive")


class Grouped(NamedTuple):
    """The groups of one grouped count: the key columns (Arrow), rows per group, and with
    weights the exact limb sums and the rows of positive weight per group."""

    keys: dict[str, Any]
    rows: NDArray[np.int64]
    limbs: NDArray[np.int64] | None
    positive_rows: NDArray[np.int64] | None


def exact_sums(limbs: NDArray[np.int64], index: NDArray[np.intp], size: int) -> NDArray[np.int64]:
    """Limb sums of groups added into `size` groups by `index` (exact, int64)."""
    out = np.zeros((size, LIMBS), dtype=np.int64)
    np.add.at(out, index, limbs)
    return out


def _limbs(nw: Any, lazy: Any, keys: list[str], weights: str) -> tuple[Any, list[str]]:
    """`lazy` projected to the keys, each row's weight limbs and its checks; and the names
    of the columns to sum.

    No ``%``: narwhals writes Python's floored modulo on SQL engines as
    ``((x % m) + m) % m``, and ``x % m + m`` rounds (2e-69 + 1.0 is 1.0; 1 - 2^-53 + 2^26
    rounds up to the next integer), which lost tiny weights and added 2^-26 to weights such
    as 0.9999999999999999. The limbs come from floors of values below 2^53 only (exact on
    every engine, and within the 64-bit integer that Spark's FLOOR returns) and from
    differences that are exact (x - floor(x) and m - 2^26 floor(m / 2^26) for x, m >= 0).
    Each step is a projection of its own, so that no expression is repeated inside
    another (Spark builds each node of an expression by a call to the JVM)."""
    w = nw.col(weights).cast(nw.Float64)
    nan = w.is_nan().fill_null(False)
    finite = w.is_finite().fill_null(False)
    flags = {
        "null": w.is_null(),
        "nan": nan,
        "negative": (w < 0).fill_null(False) & ~nan,
        "infinite": ~finite & ~nan & ~w.is_null(),
        "large": (w >= LARGEST).fill_null(False) & finite,
    }
    named = {f"__informed_{name}": flag for name, flag in flags.items()}
    lazy = lazy.select(*[nw.col(k) for k in keys], __informed_w=w, **named)
    valid = ~nw.any_horizontal(*[nw.col(name) for name in named], ignore_nulls=False)
    weight = nw.when(valid).then(nw.col("__informed_w")).otherwise(0.0)
    lazy = lazy.with_columns(__informed_w=weight)  # 0 <= w < 2^52 from here on
    step = float(1 << WIDTH)

    def pair(value: Any) -> tuple[Any, Any]:
        """The two limbs of the integer floor(value * 2^52), value in [0, 1): its top and
        bottom 26 bits."""
        top = (value * step).floor()
        return top, (value * (step * step)).floor() - top * step

    def fraction(value: Any) -> Any:
        """value * 2^52 less its floor: the bits of value below 2^-52, scaled up."""
        return value * (step * step) - (value * (step * step)).floor()

    carried = [nw.col(k) for k in keys] + [nw.col(name) for name in named]
    value = nw.col("__informed_w")
    top = (value * (1.0 / step)).floor()
    lazy = lazy.select(  # w = 2^26 limb_5 + limb_4 + low, low in [0, 1)
        *carried,
        **{f"{_LIMB}5": top, f"{_LIMB}4": value.floor() - top * step},
        __informed_positive=value > 0,
        __informed_low=value - value.floor(),
    )
    carried += [nw.col(f"{_LIMB}{k}") for k in (5, 4)] + [nw.col("__informed_positive")]
    low = nw.col("__informed_low")
    limb3, limb2 = pair(low)
    lazy = lazy.select(  # low = (2^26 limb_3 + limb_2 + lower) 2^-52, lower in [0, 1)
        *carried, **{f"{_LIMB}3": limb3, f"{_LIMB}2": limb2}, __informed_lower=fraction(low)
    )
    carried += [nw.col(f"{_LIMB}{k}") for k in (3, 2)]
    lower = nw.col("__informed_lower")
    limb1, limb0 = pair(lower)
    columns = {f"{_LIMB}{k}": nw.col(f"{_LIMB}{k}") for k in range(2, LIMBS)}
    columns |= {f"{_LIMB}1": limb1, f"{_LIMB}0": limb0}
    columns["__informed_fine"] = fraction(lower) != 0  # bits below 2^-104
    columns["__informed_positive"] = nw.col("__informed_positive")
    columns |= {name: nw.col(name) for name in named}
    casts = {name: expression.cast(nw.Int64) for name, expression in columns.items()}
    return lazy.select(*[nw.col(k) for k in keys], **casts), list(casts)


def fetch(frame: Any, query: Any) -> Any:
    """Run a narwhals query on the frame's engine and fetch its result as an Arrow table;
    an error of the engine (a failed cast, a lost connection) becomes an InputError in the
    engine's own words."""
    try:
        return query.collect(backend="pyarrow").to_native()
    except (InputError, InputTypeError):
        raise
    except Exception as exc:  # the engine's own error classes: any of them
        lines = str(exc).strip().splitlines()
        msg = f"{source_engine(frame)} could not run the count: {lines[0] if lines else exc!r}"
        raise InputError(msg) from exc


def _as_int64(column: Any, what: str) -> NDArray[np.int64]:
    import pyarrow as pa
    import pyarrow.compute as pc

    try:
        array = pc.cast(column, pa.int64())
    except pa.ArrowInvalid:
        msg = f"the engine's {what} do not fit in 64 bits: too many rows in one group."
        raise InputError(msg) from None
    return np.asarray(array.to_numpy(zero_copy_only=False), dtype=np.int64)


def grouped_query(lazy: Any, keys: list[str], weights: str | None) -> Any:
    """The grouped count of `lazy` by `keys` as a lazy query (narwhals), not yet run:
    ``GROUP BY keys`` with ``COUNT(*)`` and, with `weights`, the sums of each limb and check."""
    nw = narwhals()
    keys = list(dict.fromkeys(keys))
    aggregates = [nw.len().alias(_ROWS)]
    if weights is not None:
        dtype = lazy.collect_schema()[weights]
        if not dtype.is_numeric():
            msg = f"`weights` must be numeric; the column {weights!r} is {dtype} on the engine."
            raise InputTypeError(msg)
        lazy, columns = _limbs(nw, lazy, keys, weights)
        aggregates += [nw.col(name).sum().alias(name) for name in columns]
    return lazy.group_by(*keys, drop_null_keys=False).agg(*aggregates)


def grouped_counts(
    frame: Any,
    lazy: Any,
    keys: list[str],
    weights: str | None,
    *,
    what: str,
    way_out: str,
) -> Grouped:
    """Run the grouped count of `lazy` by `keys` (with `weights` summed exactly); fetch at
    most as many groups as memory allows, counting them on the engine before any is
    fetched when there are more (a MemoryLimitError saying how many: `what(n)` names
    them, `way_out` says how to have fewer)."""
    nw = narwhals()
    keys = list(dict.fromkeys(keys))
    grouped = grouped_query(lazy, keys, weights)
    per_group = 64 * (len(keys) + 1) + (112 if weights is not None else 0)
    budget = memory_budget()
    limit = None if budget is None else max(budget // per_group, 1)
    query = grouped if limit is None else grouped.head(limit + 1)
    fetched = fetch(frame, query)
    if limit is not None and fetched.num_rows > limit:
        count = fetch(frame, grouped.select(nw.len().alias(_ROWS)))
        groups = int(count.column(_ROWS)[0].as_py())
        check_memory(groups * per_group, what_text(what, groups), way_out)
        fetched = fetch(frame, grouped)  # pragma: no cover - the memory grew meanwhile
    rows = _as_int64(fetched.column(_ROWS), "row counts")
    found = {name: fetched.column(name) for name in keys}
    if weights is None:
        return Grouped(found, rows, None, None)
    limbs = np.stack(
        [_as_int64(fetched.column(f"{_LIMB}{k}"), "weight sums") for k in range(LIMBS)], axis=1
    )
    flags = {name: _as_int64(fetched.column(f"__informed_{name}"), "checks") for name in _FLAGS}
    _check_weights(frame, weights, {name: int(v.sum()) for name, v in flags.items()})
    if rows.size and int(rows.max()) >= 1 << 37:  # pragma: no cover - 10^11 rows in a group
        msg = "a group of more than 2^37 rows: its limb sums could pass 2^63; split the data."
        raise InputError(msg)
    return Grouped(found, rows, limbs, flags["positive"])


def what_text(what: str, groups: int) -> str:
    """The description of `groups` fetched groups, for `check_memory`."""
    return what.format(groups=groups)


def _check_weights(frame: Any, weights: str, bad: dict[str, int]) -> None:
    """Refuse weights the engine counted as missing, NaN, negative, infinite, too large or
    too fine for an exact sum, with the count of each and the filter that finds them."""
    words = {
        "null": "missing (null)",
        "nan": "NaN",
        "negative": "negative",
        "infinite": "infinite",
        "large": "of 2^52 or more",
    }
    found = [(name, bad[name]) for name in words if bad[name]]
    if found:
        name = found[0][0]
        listed = ", ".join(f"{n:,} {words[k]}" for k, n in found)
        msg = (
            f"`weights` must be finite, non-negative and below 2^52 (exact sums); the column "
            f"{weights!r} holds {listed} weights. A grouped count cannot name the rows: find "
            f"them with {find_rows(frame, name, weights)}."
        )
        raise InputError(msg)
    if bad["fine"]:
        msg = (
            f"`weights`: {bad['fine']:,} weights of the column {weights!r} have bits below "
            "2^-104 (weights smaller than about 2.2e-16, or with that many binary digits), "
            "which the engine cannot sum exactly; scale the weights up (every measure but "
            "the total N is unchanged by scaling) or round them."
        )
        raise InputError(msg)


def weight_sums(limbs: NDArray[np.int64]) -> NDArray[np.float64]:
    """Each group's exact weight sum, rounded once to the nearest float64."""
    return to_float(limbs, LIMB_BASE) if limbs.size else np.zeros(limbs.shape[0])


def count_rows(frame: Any, lazy: Any) -> int:
    """The rows of the frame, by a query of their own (``SELECT COUNT(*)``)."""
    nw = narwhals()
    found = fetch(frame, lazy.select(nw.len().alias(_ROWS)))
    return int(found.column(_ROWS)[0].as_py())


def check_coverage(frame: Any, counted: int, held: int) -> None:
    """The grouped count counted every row the frame holds (`count_rows`), or an
    InputError: a partition lost between the engine's tasks, or data that changed."""
    if counted != held:
        msg = (
            f"the grouped count on {source_engine(frame)} counted {counted:,} rows but the "
            f"frame holds {held:,}: rows were lost or added between the two queries (a "
            "partition lost, or data that changed while it was read); nothing was reported."
        )
        raise InputError(msg)
