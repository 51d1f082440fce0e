"""Where the seeds' golden numbers live, and how a test loads them.

A module of its own, not a conftest.py: `from conftest import ...` would find whichever
conftest.py (tests/dask has one) was imported first."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

REPO = Path(__file__).resolve().parents[1]
SHARED = REPO.parent / "shared"
GOLDEN = SHARED / "golden"


def load_golden(name: str) -> dict[str, Any]:
    """A golden file of the seeds; the suite fails (not skips) if it is missing."""
    path = GOLDEN / name
    if not path.exists():
        pytest.fail(f"golden file {path} is missing: CI needs ../shared beside the clone")
    data: dict[str, Any] = json.loads(path.read_text())
    return data
