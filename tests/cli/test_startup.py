"""Startup: the command line answers `--help` without loading the numeric stack.

Speed itself is measured in benchmarks/bench_startup.py; here the cause is pinned: which
modules a fresh interpreter has loaded after `informed --help` and `import informed`.
"""

from __future__ import annotations

import subprocess
import sys

import pytest

import informed

HEAVY = (
    "numpy",
    "scipy",
    "rich",
    "pyarrow",
    "matplotlib",
    "pandas",
    "polars",
    "torch",
    "torchmetrics",
)
ENGINES = ("narwhals", "duckdb", "pyspark", "ibis", "dask", "distributed", "informed.engines")


def _loaded_after(code: str) -> list[str]:
    probe = f"import sys\n{code}\nprint('LOADED', *(m for m in {HEAVY!r} if m in sys.modules))\n"
    done = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, check=True, timeout=120
    )
    return done.stdout.splitlines()[-1].split()[1:]


def test_help_loads_no_numeric_module() -> None:
    code = (
        "from informed.cli.main import main\n"
        "try:\n"
        "    main(['--help'])\n"
        "except SystemExit:\n"
        "    pass\n"
        "for command in ('evaluate', 'tally', 'demo'):\n"
        "    try:\n"
        "        main([command, '--help'])\n"
        "    except SystemExit:\n"
        "        pass"
    )
    assert _loaded_after(code) == []


def test_import_informed_is_lazy() -> None:
    assert _loaded_after("import informed") == []
    assert "numpy" in _loaded_after("from informed import Table")


def test_no_engine_is_imported_until_a_lazy_frame_is_given() -> None:
    """`import informed` and the summaries' classes import no engine (narwhals, DuckDB,
    Spark, ibis, Dask) nor informed's engine route: those load when a lazy frame comes."""
    code = "import informed\nfrom informed import Table, Ranking, Slices, Tally, evaluate\n"
    probe = f"import sys\n{code}print('LOADED', *(m for m in {ENGINES!r} if m in sys.modules))\n"
    done = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, check=True, timeout=120
    )
    assert done.stdout.splitlines()[-1].split()[1:] == []


@pytest.mark.parametrize("name", informed.__all__)
def test_every_public_name_resolves(name: str) -> None:
    """`__all__` and the lazy table of sources agree, and each name imports."""
    assert getattr(informed, name) is not None
    assert name in dir(informed)


def test_lazy_sources_match_all() -> None:
    assert set(informed._SOURCES) == set(informed.__all__)
    with pytest.raises(AttributeError, match="no attribute 'nope'"):
        _ = informed.nope  # type: ignore[attr-defined]


def test_evaluating_a_file_without_intervals_loads_no_statistics(tmp_path: object) -> None:
    """scipy.stats (tests and intervals) and scipy.optimize (matching) load only when used."""
    from pathlib import Path

    path = Path(str(tmp_path)) / "d.csv"
    path.write_text("y,p\na,a\nb,a\nb,b\n")
    code = (
        "from informed.cli.main import main\n"
        f"main(['evaluate', {str(path)!r}, '--actual', 'y', '--predicted', 'p', "
        "'--format', 'json', '--quiet'])\n"
        "print('LOADED', *(m for m in ('scipy.stats', 'scipy.optimize', 'matplotlib') "
        "if m in sys.modules))"
    )
    probe = f"import sys\n{code}\n"
    done = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, check=True, timeout=120
    )
    assert done.stdout.splitlines()[-1].split()[1:] == []


def test_a_submodule_never_hides_the_function_of_its_name() -> None:
    """`informed.inference.mcnemar` is a module and a function: importing the module first
    (as the report does) must not turn the package's public name into the module; nor may
    the comparison's modules hide `compare`, from `informed.comparison` or from its
    earlier home `informed.inference`."""
    code = (
        "import informed.inference.mcnemar, informed.comparison.comparing\n"
        "import informed.comparison.result\n"
        "from informed.inference import compare, mcnemar\n"
        "from informed.comparison import compare as compare_here\n"
        "import informed\n"
        "print('LOADED', callable(mcnemar) and callable(compare)"
        " and compare is compare_here is informed.compare)"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, timeout=120
    )
    assert done.stdout.split() == ["LOADED", "True"]


def test_evaluating_scores_computes_calibration_without_scipy_optimize(tmp_path: object) -> None:
    """evaluate --score prints the calibration section (CORP by informed's own PAV, the
    logistic fits by Newton in numpy) and imports no scipy.optimize (issue 29: its import
    cost more than the rest of the section at 200,000 rows)."""
    from pathlib import Path

    path = Path(str(tmp_path)) / "d.csv"
    path.write_text("y,p\n1,0.9\n0,0.2\n1,0.6\n0,0.7\n1,0.4\n0,0.1\n")
    code = (
        "import json, io, contextlib\n"
        "from informed.cli.main import main\n"
        "out = io.StringIO()\n"
        "with contextlib.redirect_stdout(out):\n"
        f"    main(['evaluate', {str(path)!r}, '--actual', 'y', '--score', 'p', "
        "'--positive', '1', '--format', 'json', '--quiet'])\n"
        "print('SLOPE' in out.getvalue().upper() and 'corp' in out.getvalue())\n"
        "print('LOADED', *(m for m in ('scipy.optimize', 'scipy.linalg') if m in sys.modules))"
    )
    done = subprocess.run(
        [sys.executable, "-c", f"import sys\n{code}\n"],
        capture_output=True,
        text=True,
        check=True,
        timeout=120,
    )
    *_, shown, loaded = done.stdout.splitlines()
    assert shown == "True"
    assert loaded.split()[1:] == []
