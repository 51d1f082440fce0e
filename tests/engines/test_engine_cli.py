"""`informed evaluate` on an engine: a DuckDB database's table or query, files queried by
DuckDB (`--engine duckdb`), with `--by`: the same report as the same rows read from a
file, and the coverage of one grouped count."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from informed.cli.main import main

for _package in ("narwhals", "pyarrow", "duckdb", "ibis"):
    pytest.importorskip(_package, reason=f"the engine tests need {_package} (informed[test])")

COLUMNS = ["--actual", "y", "--predicted", "p", "--score", "s", "--positive", "yes"]


def _run(args: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    code = main(args)
    out, err = capsys.readouterr()
    return code, out, err


@pytest.fixture(scope="module")
def files(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """The same rows as CSV, Parquet and a table of a DuckDB database ("007" is a label)."""
    import duckdb
    import pyarrow as pa
    import pyarrow.csv as pacsv
    import pyarrow.parquet as pq

    rng = np.random.default_rng(4)
    n = 800
    y = rng.choice(["yes", "no", "007"], n, p=[0.4, 0.5, 0.1])
    table = pa.table(
        {
            "y": y,
            "p": np.where(rng.random(n) < 0.7, y, rng.choice(["yes", "no", "007"], n)),
            "s": np.round(rng.random(n) * 0.6 + 0.4 * (y == "yes"), 2),
            "g": rng.choice(["north", "south"], n),
        }
    )
    folder = tmp_path_factory.mktemp("engine_cli")
    paths = {"csv": folder / "rows.csv", "parquet": folder / "rows.parquet"}
    pacsv.write_csv(table, paths["csv"])
    pq.write_table(table, paths["parquet"])
    paths["duckdb"] = folder / "rows.duckdb"
    connection = duckdb.connect(str(paths["duckdb"]))
    connection.sql(f"CREATE TABLE predictions AS SELECT * FROM '{paths['parquet']}'")
    connection.close()
    return paths


def _document(out: str) -> dict[str, object]:
    document = json.loads(out)
    document.pop("coverage", None)
    return document


def test_a_table_a_query_and_files_read_by_duckdb_equal_the_file_read_by_informed(
    files: dict[str, Path], capsys: pytest.CaptureFixture[str]
) -> None:
    """--database with --table, --sql on a database and on files, --engine duckdb on CSV
    (labels as text: '007' stays a label) and Parquet: the report of the file itself."""
    code, out, err = _run(["evaluate", str(files["csv"]), *COLUMNS, "--format", "json"], capsys)
    assert code == 0, err
    expected = _document(out)
    sources = [
        ["--database", str(files["duckdb"]), "--table", "predictions"],
        ["--database", str(files["duckdb"]), "--sql", "SELECT * FROM predictions"],
        ["--sql", f"SELECT * FROM '{files['parquet']}'"],
        ["--database", f"duckdb://{files['duckdb']}", "--table", "predictions"],  # ibis
        [str(files["csv"]), "--engine", "duckdb"],
        [str(files["parquet"]), "--engine", "duckdb"],
    ]
    for source in sources:
        code, out, err = _run(["evaluate", *source, *COLUMNS, "--format", "json"], capsys)
        assert code == 0, (source, err)
        document = json.loads(out)
        engine = "ibis" if "duckdb://" in " ".join(source) else "DuckDB"
        assert document.pop("coverage") == {
            "rows_read": 800,
            "rows_counted": 800,
            "partitions": 1,
            "engine": f"{engine}, one grouped count",
        }
        assert document == expected, source


def test_slices_of_a_database_equal_those_of_the_file(
    files: dict[str, Path], capsys: pytest.CaptureFixture[str]
) -> None:
    """--by on a database: the same slices, intervals and disparities as the file's."""
    by = ["--by", "g", "--format", "json", "--seed", "3"]
    code, out, err = _run(["evaluate", str(files["csv"]), *COLUMNS, *by], capsys)
    assert code == 0, err
    source = ["--database", str(files["duckdb"]), "--table", "predictions"]
    code, engine_out, err = _run(["evaluate", *source, *COLUMNS, *by], capsys)
    assert code == 0, err
    found, expected = json.loads(engine_out), json.loads(out)
    found.pop("source", None)
    expected.pop("source", None)
    assert found == expected


@pytest.mark.parametrize(("every", "days"), [("1mo", 200), ("1q", 200), ("6h", 4)])
def test_time_windows_on_an_engine_equal_those_of_the_file(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], every: str, days: int
) -> None:
    """--by-time on a CSV read by DuckDB as text (--engine duckdb), on a database table of
    TIMESTAMP values and a --sql query: the report of the CSV read by informed (it was
    refused); --rolling merges the engine's windows as the file's."""
    import duckdb

    rng = np.random.default_rng(5)
    n = 600
    when = np.datetime64("2023-11-20T00:00") + rng.integers(0, days * 86400, n).astype(
        "timedelta64[s]"
    )
    text = [str(w) if rng.random() > 0.05 else "" for w in when.astype("datetime64[s]")]
    y = rng.choice(["yes", "no"], n)
    p = np.where(rng.random(n) < 0.7, y, "no")
    s = np.round(rng.random(n), 2)
    csv = tmp_path / "rows.csv"
    csv.write_text(
        "t,y,p,s,g\n"
        + "".join(
            f"{t},{a},{b},{c},{g}\n"
            for t, a, b, c, g in zip(text, y, p, s, rng.choice(["n", "s"], n), strict=True)
        )
    )
    database = tmp_path / "rows.duckdb"
    connection = duckdb.connect(str(database))
    connection.sql(
        "CREATE TABLE predictions AS SELECT * "
        "REPLACE (CAST(t AS TIMESTAMP) AS t, CAST(s AS DOUBLE) AS s) "
        f"FROM read_csv('{csv}', all_varchar = true)"
    )
    connection.close()
    options = [*COLUMNS, "--by-time", "t", "--every", every, "--by", "g", "--format", "json"]
    code, out, err = _run(["evaluate", str(csv), *options], capsys)
    assert code == 0, err
    expected = json.loads(out)
    expected.pop("source", None)
    assert expected["slices"][-1]["key"][0] is None  # blank timestamps: "missing"
    for source in (
        [str(csv), "--engine", "duckdb"],
        ["--database", str(database), "--table", "predictions"],
        # t detected as TIMESTAMP; yes and no would be booleans
        ["--sql", f"SELECT * FROM read_csv('{csv}', types = {{'y': 'VARCHAR', 'p': 'VARCHAR'}})"],
    ):
        code, engine_out, err = _run(["evaluate", *source, *options], capsys)
        assert code == 0, err
        found = json.loads(engine_out)
        found.pop("source", None)
        assert found == expected, source
    rolling = [*options, "--rolling", "2"]
    code, out, err = _run(["evaluate", str(csv), *rolling], capsys)
    code2, engine_out, err2 = _run(["evaluate", str(csv), "--engine", "duckdb", *rolling], capsys)
    assert code == code2 == 0, err + err2
    assert json.loads(out)["slices"] == json.loads(engine_out)["slices"]


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--table", "t"], "--table names a table of a --database"),
        (["--database", "x.duckdb"], "--database needs --table NAME or --sql QUERY"),
        (["--database", "missing.duckdb", "--table", "t"], "no such DuckDB database file"),
        (["--sql", "SELECT * FROM nowhere"], "DuckDB: Catalog Error"),
        (
            ["--sql", "SELECT 1 AS y, 1 AS p, 0.5 AS s", "--by-time", "y", "--every", "1d"],
            "`time`: the column 'y' is Int32 on DuckDB, not timestamps",
        ),
        (
            [
                "--sql",
                "SELECT TIMESTAMPTZ '2024-01-01 10:00+00' AS t, 1 AS y, 1 AS p, 0.5 AS s",
                "--by-time",
                "t",
                "--every",
                "1mo",
            ],
            "timestamps with a time zone",
        ),
        (
            ["--sql", "SELECT 1 AS y, 1 AS p, 0.5 AS s", "--by-time", "y", "--every", "1m"],
            "write 1min for minutes or 1mo for calendar months",
        ),
        ([], "give FILE... to evaluate (or --database"),
    ],
)
def test_wrong_engine_options_are_one_line(
    args: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    code, _, err = _run(["evaluate", *args, *COLUMNS], capsys)
    assert code == 2 and message in err and len(err.strip().splitlines()) == 1, err


def _labels_as_text(value: object) -> object:
    """A JSON document with every label written as the file route writes it (1 as "1",
    True as "true"), to hold an engine's report of integer labels against a file's."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, list):
        return [_labels_as_text(v) for v in value]
    return value


def test_positive_reads_as_on_the_file_route_on_every_engine_route(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """--positive 1 against integer labels (and --positive true against booleans): the
    file route reads the labels as their text and accepts it; --engine duckdb, --database
    and --sql give the same report (they refused "'1' is not a label; labels are [0, 1]").
    "01" names no label on any route."""
    import duckdb
    import pyarrow as pa
    import pyarrow.parquet as pq

    rng = np.random.default_rng(15)
    y = rng.integers(0, 2, 300)
    table = pa.table(
        {
            "y": y,
            "p": np.where(rng.random(300) < 0.7, y, 1 - y),
            "s": np.round(rng.random(300) * 0.6 + 0.4 * y, 2),
            "b": y == 1,
            "q": rng.random(300) < 0.5,
        }
    )
    parquet, database = tmp_path / "ints.parquet", tmp_path / "ints.duckdb"
    pq.write_table(table, parquet)
    connection = duckdb.connect(str(database))
    connection.sql(f"CREATE TABLE t AS SELECT * FROM '{parquet}'")
    connection.close()
    sources = [
        [str(parquet), "--engine", "duckdb"],
        ["--database", str(database), "--table", "t"],
        ["--sql", f"SELECT * FROM '{parquet}'"],
    ]
    for columns in (["y", "p", "1"], ["b", "q", "true"]):
        options = ["--actual", columns[0], "--predicted", columns[1], "--score", "s"]
        options += ["--positive", columns[2], "--format", "json"]
        code, out, err = _run(["evaluate", str(parquet), *options], capsys)
        assert code == 0, err
        expected = json.loads(out)
        for source in sources:
            code, out, err = _run(["evaluate", *source, *options], capsys)
            assert code == 0, (source, err)
            found = json.loads(out)
            found.pop("coverage")
            found["positive"] = _labels_as_text(found["positive"])
            found["labels"] = {k: _labels_as_text(v) for k, v in found["labels"].items()}
            found["payoff"]["labels"] = _labels_as_text(found["payoff"]["labels"])
            named = {"True": "true", "False": "false"}  # per_label's keys: str(True)
            found["per_label"] = {named.get(k, k): v for k, v in found["per_label"].items()}
            assert found == expected, source
    for source in [[str(parquet)], *sources]:
        options = ["--actual", "y", "--predicted", "p", "--positive", "01"]
        code, _, err = _run(["evaluate", *source, *options], capsys)
        assert code == 2 and "--positive '01' is not a label" in err, (source, err)


_DIALECT = {
    # DuckDB's sniffer took the first as a comment line, the second's ' as a quote, the
    # third's \" as an escape, and picked one of two y columns
    "hash": b"y,p\n1,1\n#0,0\n0,0\n1,0\n",
    "apostrophe": b"y,p\n'a,b',1\n0,0\n",
    "backslash": b'y,p\n"a\\"b",1\n0,0\n',
    "two_y": b"y,y,p\n1,0,1\n0,1,0\n",
    # read alike by both: quoted commas, line ends and quotes, a quote inside a field,
    # no final line end, a byte-order mark, spaces kept; \r\n or lone \r line ends
    "quoted": b'\xef\xbb\xbfy,p\r\n"a,\r\nb",1\r\n5" tv,"x""y"\r\n"0 ",0',
    "returns": b'y,p\r"a\rb",1\r0,0\r',
    # a blank line: skipped by DuckDB, a record (refused) for the file route
    "blank": b"y,p\n1,1\n\n0,0\n",
    "blank_last": b"y,p\n1,1\n0,0\n\n",
    "nul": b"y,p\n1,1\n0,0\na\x00b,0\n0,1\n",  # DuckDB's route cited no row for it
    "short": b"y,p\n1,1\n0\n1,0\n",  # "no column 'y'; its columns are ['y,p']"
    "long": b"y,p\n1,1\n0,0,1\n1,0\n",
    "utf8": b"y,p\n1,1\n\xff,0\n",  # DuckDB's IOException passed through
    "blank_label": b"y,p\n1,1\n,0\n",
    "header_only": b"y,p\n",
    "open_quote": b'y,p\n1,1\n"ab,0\n',
}


@pytest.mark.parametrize("name", sorted(_DIALECT))
def test_duckdb_reads_csv_in_the_file_routes_dialect_and_words(
    name: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """--engine duckdb on CSV: DuckDB guesses no dialect (no comment lines, only " quotes,
    no escape character, duplicate headers refused) and counts the rows the file holds:
    the report is the file route's, and every refusal is the file route's one line,
    naming the file and line (the oracle: `informed evaluate FILE` on the same file)."""
    file = tmp_path / f"{name}.csv"
    file.write_bytes(_DIALECT[name])
    options = ["--actual", "y", "--predicted", "p", "--format", "json"]
    code, out, err = _run(["evaluate", str(file), *options], capsys)
    engine_code, engine_out, engine_err = _run(
        ["evaluate", str(file), "--engine", "duckdb", *options], capsys
    )
    assert (engine_code, engine_err) == (code, err), name
    if code == 0:
        found = json.loads(engine_out)
        assert found.pop("coverage")["rows_read"] == json.loads(out)["n"]
        assert found == json.loads(out)
    else:
        assert code == 2 and str(file) in err and len(err.strip().splitlines()) == 1, err


def test_duckdb_names_files_and_numbers_as_the_file_route_does(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A missing file, a glob that matches nothing, a folder, files of different column
    orders, numbers DuckDB reads and Python does not (+-1, nan(1)), a number written
    with underscores: the file route's report or one-line error, never DuckDB's own
    exception; a file DuckDB cannot parse (mixed line ends) is refused saying so."""
    (tmp_path / "a.csv").write_bytes(b"y,p,s\n1,1,0.5\n0,0,1_0\n")
    (tmp_path / "b.csv").write_bytes(b"s,p,y,z\n0.25,1,0,x\n")
    (tmp_path / "plus.csv").write_bytes(b"y,p,s\n1,1,+-1\n0,0,0.5\n")
    (tmp_path / "nan.csv").write_bytes(b"y,p,s\n1,1,0.5\n0,0,nan(1)\n")
    (tmp_path / "ends.csv").write_bytes(b"y,p,s\n1,1,0.5\r\n0,0,1\r1,0,0\n")
    options = [*COLUMNS[:4], "--score", "s", "--positive", "1", "--format", "json"]
    sources = [
        ["missing.csv"],
        ["nothing-*.csv"],
        [str(tmp_path)],
        [str(tmp_path / "a.csv"), str(tmp_path / "b.csv")],
        [str(tmp_path / "plus.csv")],
        [str(tmp_path / "nan.csv")],
    ]
    for source in sources:
        code, out, err = _run(["evaluate", *source, *options], capsys)
        found = _run(["evaluate", *source, "--engine", "duckdb", *options], capsys)
        assert (found[0], found[2]) == (code, err), source
        assert len(err.strip().splitlines()) <= 1 and "Traceback" not in err
        if code == 0:
            assert _document(found[1]) == _document(out)
    code, _, err = _run(
        ["evaluate", str(tmp_path / "ends.csv"), "--engine", "duckdb", *options], capsys
    )
    assert code == 2 and "DuckDB could not run the count" in err and "without --engine" in err
    assert _run(["evaluate", str(tmp_path / "ends.csv"), *options], capsys)[0] == 0


def test_rows_duckdb_did_not_count_are_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """The coverage check of CSV read by DuckDB compares DuckDB's count with the records
    informed counts in the file, not with DuckDB's own COUNT(*): a record DuckDB did not
    count is refused, nothing reported; the coverage line gives the file's rows."""
    import informed.engines.csv_files as csv_files

    file = tmp_path / "rows.csv"
    file.write_bytes(b"y,p\n1,1\n0,0\n1,0\n")
    options = ["--actual", "y", "--predicted", "p", "--engine", "duckdb", "--format", "json"]
    code, out, err = _run(["evaluate", str(file), *options], capsys)
    assert code == 0 and json.loads(out)["coverage"]["rows_read"] == 3, err
    monkeypatch.setattr(csv_files, "data_records", lambda path: 4)
    code, _, err = _run(["evaluate", str(file), *options], capsys)
    assert code == 2 and "DuckDB counted 3 rows, but the file holds 4 records" in err, err


def test_a_nul_in_a_database_is_counted_not_given_a_wrong_row(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """--database with a NUL in a slice column or a label (row 3 of the table): a grouped
    count cannot name the row, so the message gives the rows that hold it and the filter
    that finds them, never the position of a group ("row 2 (index 1)", "at 1 rows")."""
    import duckdb

    database = tmp_path / "nul.duckdb"
    connection = duckdb.connect(str(database))
    connection.sql(
        "CREATE TABLE t AS SELECT * FROM (VALUES ('a', 'a', 'x'), ('b', 'b', 'y'), "
        "('a', 'b', 'z' || chr(0)), ('b', 'b', 'x')) v(y, p, g)"
    )
    connection.close()
    source = ["--database", str(database), "--table", "t"]
    for options in (
        ["--actual", "y", "--predicted", "p", "--by", "g"],
        ["--actual", "g", "--predicted", "g"],
    ):
        code, _, err = _run(["evaluate", *source, *options], capsys)
        assert code == 2 and len(err.strip().splitlines()) == 1, err
        assert "holds 'z\\x00' in 1 rows" in err and 'WHERE strpos("g", chr(0)) > 0' in err, err
        assert "row 2" not in err and "at 1 rows" not in err
