"""`informed evaluate` on data that lives in an engine: a DuckDB database's table or query,
files queried by DuckDB, another database through ibis (`--database`, `--table`, `--sql`,
`--engine duckdb`); the engine counts, informed reports (`informed.engines`).
"""

from __future__ import annotations

import argparse
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

from informed.errors import InputError, MemoryLimitError

if TYPE_CHECKING:
    from informed.cli.output import Output
    from informed.engines.sql import Source
    from informed.io import Summaries
    from informed.slices import Slices

__all__ = [
    "add_options",
    "check_engine_options",
    "close",
    "count_on_engine",
    "open_source",
    "read_engine",
    "requested",
    "run_engine",
]


def add_options(parser: Any) -> None:
    """The options of `informed evaluate` that name a database, a table or a query."""
    parser.add_argument(
        "--database",
        metavar="PATH|URL",
        help="a DuckDB database file, or a URL that ibis opens (postgres://..., ...): "
        "evaluate its --table or a --sql query where it lives; only counts are fetched",
    )
    parser.add_argument("--table", metavar="NAME", help="with --database: the table or view")
    parser.add_argument(
        "--sql",
        metavar="QUERY",
        help="a query whose rows to evaluate, run on --database, or without it on an "
        "in-memory DuckDB that reads files itself (FROM 'data/*.parquet')",
    )
    parser.add_argument(
        "--engine",
        choices=["duckdb"],
        help="read the FILEs (Parquet, or CSV with every label as text) with DuckDB, "
        "which counts them; needs informed[sql]",
    )


def requested(args: argparse.Namespace) -> bool:
    """Whether the rows live in an engine (a database, a query, or --engine)."""
    return any(getattr(args, name, None) is not None for name in ("database", "table", "sql")) or (
        getattr(args, "engine", None) is not None
    )


def check_engine_options(args: argparse.Namespace) -> None:
    """Refuse engine options that do not go together, before anything is opened."""
    if args.engine is not None:
        if not args.file:
            msg = "--engine duckdb reads the FILEs named: give FILE..."
            raise InputError(msg)
        if args.database is not None or args.table is not None or args.sql is not None:
            msg = "--engine reads files; --database, --table and --sql name another source."
            raise InputError(msg)
    elif args.file:
        msg = (
            "give FILE... or --database/--sql, not both (a query reads files itself: "
            "--sql \"SELECT * FROM 'data/*.parquet'\")."
        )
        raise InputError(msg)
    if args.table is not None and args.database is None:
        msg = "--table names a table of a --database: give --database PATH|URL."
        raise InputError(msg)
    if args.table is not None and args.sql is not None:
        msg = "give --table NAME or --sql QUERY, not both."
        raise InputError(msg)
    if args.database is not None and args.table is None and args.sql is None:
        msg = "--database needs --table NAME or --sql QUERY: what to evaluate in it."
        raise InputError(msg)
    if args.dask is not None:
        msg = "--dask reads files on a cluster; a database or --engine counts where it lives."
        raise InputError(msg)
    from informed.io.csv_standard import is_utf8

    if args.engine is not None and not is_utf8(args.encoding):
        msg = (
            f"--engine duckdb reads CSV files as UTF-8; files in {args.encoding} are read by "
            "informed itself: run without --engine."
        )
        raise InputError(msg)


def _open(
    args: argparse.Namespace,
    columns: Sequence[str] = (),
    search: Sequence[str] = (),
    bins: int | None = None,
) -> Source:
    """The source the options name; `args.positive` becomes the label it names there, read
    as the file route reads it (`--positive 1` is the integer 1 of an integer column), so
    that the count and the report use one label."""
    from informed.engines.keys import label_from_text
    from informed.engines.sql import source

    numbers = [c for c in (args.score, args.weight) if c]
    wanted = [
        args.actual,
        args.predicted,
        args.score,
        args.weight,
        *args.by,
        args.by_time,
        *columns,
    ]
    opened = source(
        database=args.database,
        table=args.table,
        sql=args.sql,
        files=args.file,
        numbers=numbers,
        columns=[c for c in dict.fromkeys(wanted) if c is not None],
        encoding=args.encoding,
        stored=[args.by_time] if args.by_time is not None else [],
        search=search,
        **({} if bins is None else {"bins": bins}),
    )
    if args.positive is not None:
        try:
            args.positive = label_from_text(opened.frame, args.actual, args.positive)
        except BaseException:
            _close(opened.connection)
            raise
    return opened


def _counted(
    args: argparse.Namespace, count: Callable[[Source], Any], columns: Sequence[str] = ()
) -> tuple[Any, Source]:
    """What `count` finds on the source the options name, the source closed after. CSV
    files read by DuckDB are checked to hold the rows DuckDB counted (their records, as
    informed counts them); and where the engine refuses them (a short row, a NUL in a
    label, a blank line: a grouped count cannot name the row), the file route reads the
    same files for its message, which names the line, and gives it if it refuses them
    too."""
    try:
        opened = _open(args, columns)
        try:
            found = count(opened)
        finally:
            _close(opened.connection)
        if opened.rows is not None:
            rows = found.rows  # a Summaries' int, or the rows of each slice
            counted = rows if isinstance(rows, int) else int(rows.sum())
            if counted != opened.rows:
                msg = (
                    f"{opened.name}: DuckDB counted {counted:,} rows, but the file holds "
                    f"{opened.rows:,} records below its header (counted by informed); read it "
                    "without --engine."
                )
                raise InputError(msg)
    except MemoryLimitError:
        raise
    except InputError as error:
        if not _csv_files(args):
            raise
        _file_route_refusal(args)
        if "without --engine" in str(error):
            raise
        msg = f"{error} (informed reads these files itself: run without --engine.)"
        raise InputError(msg) from None
    return found, opened


def _csv_files(args: argparse.Namespace) -> bool:
    """Whether the options name CSV files read by DuckDB (--engine duckdb)."""
    from pathlib import Path

    from informed.io.files import file_format

    if args.engine is None or not args.file:
        return False
    try:
        return all(file_format(Path(name)) == "csv" for name in args.file)
    except InputError:
        return False


def _file_route_refusal(args: argparse.Namespace) -> None:
    """Read the files as `informed evaluate FILE` reads them (without --engine), to raise
    its error, which names the file, line and value; return if it reads them."""
    from informed.io import read_summaries
    from informed.io.sliced import read_slices

    source = args.file[0] if len(args.file) == 1 else args.file
    options = {
        "actual": args.actual,
        "predicted": args.predicted,
        "scores": args.score,
        "weights": args.weight,
        "positive": args.positive,
        "encoding": args.encoding,
        "positive_option": "--positive",
    }
    try:
        if args.by or args.by_time is not None:
            read_slices(source, by=args.by, time=args.by_time, every=args.every, **options)
        else:
            read_summaries(source, partial=args.partial is not None, **options)
    except InputError as error:
        raise error from None


def count_on_engine(
    args: argparse.Namespace, count: Callable[[Source], Any], columns: Sequence[str] = ()
) -> tuple[Any, str]:
    """What `count` finds on the source the options name (checked first, `columns` read
    beside the options' own), with the source's name; its rows checked against a CSV
    file's records, its refusals worded as the file route words them (`_counted`)."""
    check_engine_options(args)
    found, opened = _counted(args, count, columns)
    return found, opened.name


def open_source(args: argparse.Namespace, columns: Sequence[str], bins: int) -> Source:
    """The source the options name, opened as a lazy frame (`informed.engines.sql`), with
    the slice search's `columns` read beside the options' own (CSV files read by DuckDB
    read only those); `args.positive` becomes the label it names there. On Parquet files
    the `columns` (but the actual and predicted labels) are read as the file route reads
    them: booleans, and numbers of at most `bins` values, as text; numbers of more values
    kept numbers, which the search on an engine refuses (the file route cuts them)."""
    search = [c for c in columns if c not in (args.actual, args.predicted)]
    return _open(args, columns, search, bins)


def close(connection: Any) -> None:
    """Close the connection `open_source` opened."""
    _close(connection)


def read_engine(args: argparse.Namespace) -> tuple[Summaries, str, str]:
    """The summaries of the source the options name, counted on its engine; with the
    source's name and engine."""
    from informed.engines.route import summaries
    from informed.io.coverage import check_positive

    def count(opened: Source) -> Summaries:
        return summaries(
            opened.frame,
            part=opened.name,
            actual=args.actual,
            predicted=args.predicted,
            scores=args.score,
            weights=args.weight,
            positive=args.positive,
        )

    found, opened = _counted(args, count)
    if found.rows == 0 and args.partial is None:
        if _csv_files(args):
            _file_route_refusal(args)  # the file route's words: a header but no data rows
        msg = f"{opened.name}: no rows: nothing to evaluate."
        raise InputError(msg)
    if args.partial is None:
        check_positive(
            found, args.positive, f"--positive {args.positive!r} is not a label in {opened.name}"
        )
    return found, opened.name, opened.engine


def _close(connection: Any) -> None:
    """Close a DuckDB connection (`close`) or an ibis backend (`disconnect`)."""
    close = getattr(connection, "close", None) or getattr(connection, "disconnect", None)
    if close is not None:
        close()


def run_engine(args: argparse.Namespace, report_summaries: Callable[..., Output]) -> None:
    """`informed evaluate` on an engine: the report of a Table and a Ranking (made by
    `report_summaries`, `informed.cli.evaluate`'s), or of slices."""
    from pathlib import Path

    from informed.cli.output import check_dvc_path, check_html_path, emit, write_dvc, write_html
    from informed.cli.scale import coverage

    check_engine_options(args)
    if args.by or args.by_time is not None:
        from informed.cli.slices import check_slice_options, report_slices
        from informed.coding.labels import as_label, keyed, sort_labels
        from informed.engines.route import slices

        check_slice_options(args)

        def count(opened: Source) -> Slices:
            found: Slices = slices(
                opened.frame,
                by=args.by,
                actual=args.actual,
                predicted=args.predicted,
                scores=args.score,
                positive=args.positive,
                weights=args.weight,
                time=args.by_time,
                every=args.every,
            )
            return found

        found_slices, opened = _counted(args, count)
        if int(found_slices.rows.sum()) == 0:  # as without --by, and as a file's rows
            msg = f"{opened.name}: no rows: nothing to evaluate."
            raise InputError(msg)
        if found_slices.overall is not None and args.positive is not None:
            labels = sort_labels((*found_slices.overall.predicted, *found_slices.overall.actual))
            if keyed(as_label(args.positive)) not in {keyed(x) for x in labels}:
                msg = (
                    f"--positive {args.positive!r} is not a label in {opened.name}; labels "
                    f"are {list(labels[:20])}."
                )
                raise InputError(msg)
        report_slices(args, found_slices, opened.name)
        return
    if args.html is not None:
        check_html_path(args.html)
    if args.dvc is not None:
        check_dvc_path(args.dvc)
    if args.partial is not None:
        from informed.cli.scale import check_save_path, write_partial

        check_save_path(args.partial, "--partial")
        write_partial(args, read_engine(args)[0])
        return
    found, name, engine = read_engine(args)
    output = report_summaries(args, found.table, found.ranking, found.weighted_rows, name)
    output.coverage = coverage(found, f"{engine}, one grouped count")
    emit(output, args.format)
    if args.html is not None:
        write_html(output, args.html, Path(name).name)
    if args.dvc is not None:
        write_dvc(output, args.dvc)
