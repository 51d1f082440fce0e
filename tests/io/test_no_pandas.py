"""Reading a file never imports pandas (issue 19, item 12).

pyarrow imports pandas, when it is installed, on `Array.to_numpy`, `np.asarray` of an
Arrow array and `pa.array` (0.2-0.5 s of a command's time); informed crosses between
Arrow and numpy through buffers instead. pandas is installed in the test environment (it
is a test dependency), so a subprocess that reads files and evaluates shows whether any
call on the way loaded it.
"""

from __future__ import annotations

import datetime as dt
import json
import subprocess
import sys
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("pandas")
pa = pytest.importorskip("pyarrow")
pq = pytest.importorskip("pyarrow.parquet")


def _write(folder: Path) -> dict[str, Path]:
    actual = ["cat", "dog", "cat", "eel, red", 'say "hi"', "dog"] * 50
    predicted = ["cat", "cat", "dog", "eel, red", 'say "hi"', "dog"] * 50
    scores = [0.9, 0.1, 0.8, 0.3, 0.4, 0.2] * 50
    plain = folder / "plain.csv"
    plain.write_text(
        "actual,predicted,score\n"
        + "".join(
            f"{a},{p},{s}\n"
            for a, p, s in zip(actual, predicted, scores, strict=True)
            if '"' not in a and "," not in a
        )
    )
    quoted = folder / "quoted.csv"  # every string quoted, as pyarrow and R write them
    quoted.write_text(
        '"actual","predicted","score"\n'
        + "".join(
            '"{}","{}",{}\n'.format(a.replace('"', '""'), p.replace('"', '""'), s)
            for a, p, s in zip(actual, predicted, scores, strict=True)
        )
    )
    table = pa.table({"actual": actual, "predicted": predicted, "score": scores})
    parquet = folder / "d.parquet"
    pq.write_table(table, parquet)
    latin = folder / "latin.csv"  # another encoding: the standard library's reader
    latin.write_bytes("actual,predicted\nété,été\nhiver,été\n".encode("latin-1"))
    inches = folder / "inches.csv"  # a quote inside an unquoted field: the standard reader
    inches.write_text('actual,predicted\n5" tv,5" tv\nradio,5" tv\n')
    ints = folder / "ints.parquet"  # integer labels are turned into their text
    pq.write_table(pa.table({"actual": [1, 2, 1, 2], "predicted": [1, 1, 2, 2]}), ints)
    return {
        "plain": plain,
        "quoted": quoted,
        "parquet": parquet,
        "ints": ints,
        "latin": latin,
        "inches": inches,
    }


def test_reading_and_evaluating_files_never_imports_pandas(tmp_path: Path) -> None:
    files = _write(tmp_path)
    runs = [
        [str(files["plain"]), "--predicted", "predicted", "--score", "score", "--positive", "cat"],
        [str(files["quoted"]), "--predicted", "predicted", "--score", "score", "--positive", "cat"],
        [
            str(files["parquet"]),
            "--predicted",
            "predicted",
            "--score",
            "score",
            "--positive",
            "cat",
        ],
        [str(files["ints"]), "--predicted", "predicted"],
        [str(files["latin"]), "--predicted", "predicted", "--encoding", "latin-1"],
        [str(files["inches"]), "--predicted", "predicted"],
    ]
    code = (
        "import sys\n"
        "from informed.cli.main import main\n"
        f"for run in {runs!r}:\n"
        "    main(['evaluate', *run, '--actual', 'actual', '--format', 'json', '--quiet'])\n"
        "print('PANDAS', 'pandas' in sys.modules)\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, timeout=120
    )
    assert done.stdout.splitlines()[-1] == "PANDAS False"
    # the probe can see pandas: it is installed, and importing pyarrow's way loads it
    again = subprocess.run(
        [sys.executable, "-c", "import sys, pyarrow as pa\npa.array([1])\nprint('pandas' in sys.modules)"],
        capture_output=True, text=True, check=True, timeout=120,
    )  # fmt: skip
    assert again.stdout.strip() == "True"


def _write_sliced(folder: Path) -> tuple[dict[str, Path], list[str | None], list[Any]]:
    """A Parquet file and a CSV file of the same rows: a group with missing values, a
    second group, scores, and timestamps (naive with nulls, zone-aware, dates)."""
    n = 400
    groups = ["a", "b", None, "c", "b"]
    group = [groups[i % 5] for i in range(n)]
    start = dt.datetime(2024, 3, 1, 6)
    times = [None if i % 11 == 0 else start + dt.timedelta(hours=7 * i) for i in range(n)]
    actual = ["yes" if i % 3 else "no" for i in range(n)]
    predicted = ["yes" if i % 4 else "no" for i in range(n)]
    scores = [(i * 37 % 101) / 100 for i in range(n)]
    table = pa.table(
        {
            "actual": actual,
            "predicted": predicted,
            "score": scores,
            "group": pa.array(group, pa.string()),
            "device": ["app" if i % 2 else "web" for i in range(n)],
            "t": pa.array(times, pa.timestamp("us")),
            "zoned": pa.array(
                [t and t.replace(tzinfo=dt.UTC) for t in times], pa.timestamp("ms", "Europe/Paris")
            ),
            "day": pa.array([t and t.date() for t in times], pa.date32()),
        }
    )
    parquet = folder / "sliced.parquet"
    pq.write_table(table, parquet)
    text = folder / "sliced.csv"  # blank groups and timestamps, ISO-8601 text
    text.write_text(
        "actual,predicted,score,group,device,t\n"
        + "".join(
            f"{a},{p},{s},{g or ''},{d},{'' if t is None else t.isoformat()}\n"
            for a, p, s, g, d, t in zip(
                actual, predicted, scores, group, table.column("device").to_pylist(), times,
                strict=True,
            )
        )
    )  # fmt: skip
    return {"parquet": parquet, "csv": text}, group, times


def test_slicing_files_by_columns_and_by_time_never_imports_pandas(tmp_path: Path) -> None:
    """`evaluate FILE --by COL` and `--by-time COL` on Parquet and CSV: pyarrow's
    `np.asarray` of a mask, `take` with numpy indices, a Python scalar in a compute call and
    `to_numpy` of timestamps each loaded pandas (0.5 s of a 1.7 s run); the slices found
    are counted here row by row."""
    files, group, times = _write_sliced(tmp_path)
    base = ["--actual", "actual", "--predicted", "predicted", "--positive", "yes"]
    runs = []
    for kind in ("parquet", "csv"):
        path = str(files[kind])
        runs += [
            [path, *base, "--by", "group"],
            [path, *base, "--score", "score", "--by", "group", "device"],
            [path, *base, "--by-time", "t", "--every", "1w"],
            [path, *base, "--by-time", "t", "--every", "1mo", "--by", "group"],
        ]
    runs += [
        [str(files["parquet"]), *base, "--by-time", column, "--every", "1d"]
        for column in ("zoned", "day")
    ]
    code = (
        "import contextlib, io, json, sys\n"
        "from informed.cli.main import main\n"
        f"for run in {runs!r}:\n"
        "    out = io.StringIO()\n"
        "    with contextlib.redirect_stdout(out):\n"
        "        main(['evaluate', *run, '--format', 'json', '--quiet'])\n"
        "    found = json.loads(out.getvalue())['slices']\n"
        "    print(json.dumps({s['name']: s['rows'] for s in found}))\n"
        "print('PANDAS', 'pandas' in sys.modules)\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, timeout=120
    )
    lines = done.stdout.splitlines()
    assert lines[-1] == "PANDAS False"
    found = [json.loads(line) for line in lines[:-1]]
    by_group = Counter("missing" if g is None else g for g in group)
    weeks = Counter(
        "missing" if t is None else (t.date() - dt.timedelta(days=t.weekday())).isoformat()
        for t in times
    )
    for first in (0, 4):  # Parquet, then CSV
        assert found[first] == by_group
        assert sum(found[first + 1].values()) == len(group)
        assert found[first + 2] == weeks
        assert sum(found[first + 3].values()) == len(group)
    missing = sum(t is None for t in times)
    assert found[8]["missing"] == found[9]["missing"] == missing
    assert sum(found[8].values()) == sum(found[9].values()) == len(times)
