"""The engine route, as the package's facade registers it.

A lazy frame of an engine (a polars LazyFrame, a DuckDB relation, a Spark DataFrame, an
ibis table, a Dask DataFrame) is counted where it lives, by `informed.engines`. The calls
that accept frames (`Table.from_frame`, `Ranking.from_frame`, `Slices.from_frame`,
`evaluate(frame, ...)`, `informed.io.summarise_frame`) sit in lower layers than the
engines, which build the ordinary summaries with them; so those calls never import the
engines. They hand such a frame to `engine_route()`, which `informed/__init__.py` (the
facade, run before any module of the package) registers: the imports still run one way.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

__all__ = ["engine_route", "register_engine_route"]

_ROUTE: list[Callable[[], Any]] = []


def register_engine_route(loader: Callable[[], Any]) -> None:
    """Set the function that returns the engine route's module (loaded on first use)."""
    _ROUTE[:] = [loader]


def engine_route() -> Any:
    """The module that counts a lazy frame on its engine (`informed.engines.route`)."""
    if not _ROUTE:  # pragma: no cover - the facade registers it on `import informed`
        msg = "the engine route is not registered: import informed first."
        raise RuntimeError(msg)
    return _ROUTE[0]()
