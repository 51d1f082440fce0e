"""Engines: data counted where it lives, only the counts fetched, the ordinary summaries
handed back.

A lazy frame (a polars LazyFrame, a DuckDB relation, a Spark DataFrame, an ibis table)
given to `Table.from_frame`, `Ranking.from_frame`, `Slices.from_frame`,
`evaluate(frame, ...)` or `informed.io.summarise_frame` is counted on its engine by one
grouped count written once in narwhals (`informed.engines.route`, `.query`); a Dask
DataFrame by informed's Dask adapter (`informed.engines.dask`, also `informed.dask`).
`informed.engines.sql` opens DuckDB databases, files queried by DuckDB, and other SQL
databases through ibis. Nothing here imports an engine until it is used.
"""

from __future__ import annotations
