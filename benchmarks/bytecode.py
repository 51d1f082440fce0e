"""Whole processes compared fairly: informed's modules compiled to bytecode first.

The packages a bare route imports (numpy, pyarrow, pandas) were compiled to bytecode when
pip installed them. informed, installed in editable mode from this checkout, is compiled
on first import and the bytecode cached in `__pycache__`, unless the environment forbids
writing it (`PYTHONDONTWRITEBYTECODE`, set on this project's machines): then every
process compiles every module it imports again, about 0.2 s that no installed copy pays.
The whole-process benchmarks call `compile_informed()` first, so both sides start as an
installed package starts.
"""

from __future__ import annotations

import compileall
from pathlib import Path

import informed


def compile_informed() -> None:
    """Write the bytecode of every module of the informed package (once; quick after)."""
    compileall.compile_dir(str(Path(informed.__file__).parent), quiet=1)
