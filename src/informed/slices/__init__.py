"""Slices: every summary by group (one column or several crossed), in one pass.

`Slices` holds the Table (and Ranking) of every slice of the rows and of all of them;
`evaluate_slices` gives every registry measure of every slice with its denominator and
a flag where a slice is too small to say anything. Bootstrap intervals and the
differences between slices are in `informed.inference` (`bootstrap_slices`,
`disparities`). User guide: docs/slices.md.
"""

from __future__ import annotations

from informed.slices.keys import MISSING, key_name
from informed.slices.slices import Slices

__all__ = ["MISSING", "Slices", "key_name"]
