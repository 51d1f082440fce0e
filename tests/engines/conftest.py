"""The engines' tests need narwhals and pyarrow, DuckDB, polars and ibis (the test extra
installs them); the Spark tests need PySpark and Java (`.ci/run` installs a JRE)."""

from __future__ import annotations

import pytest

for package in ("narwhals", "pyarrow", "duckdb", "polars", "ibis"):
    pytest.importorskip(package, reason=f"the engine tests need {package} (informed[test])")
