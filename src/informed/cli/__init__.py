"""The command line: `informed evaluate`, `informed tally` and `informed demo`."""

from __future__ import annotations

from informed.cli.main import main

__all__ = ["main"]
