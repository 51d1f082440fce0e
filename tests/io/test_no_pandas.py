"""Reading a file never imports pandas (issue 19, item 12).

pyarrow imports pandas, when it is installed, on `Array.to_numpy`, `np.asarray` of an
Arrow array and `pa.array` (0.2-0.5 s of a command's time); informed crosses between
Arrow and numpy through buffers instead. pandas is installed in the test environment (it
is a test dependency), so a subprocess that reads files and evaluates shows whether any
call on the way loaded it.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

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
