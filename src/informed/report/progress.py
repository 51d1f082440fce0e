"""A progress line on stderr for inputs that take more than a second to read.

Shown only when stderr is a terminal and the caller has not asked for quiet; it rewrites
one line and clears it at the end, so redirected output never holds progress noise.
"""

from __future__ import annotations

import sys
import time
from typing import TextIO

from informed._common import printable

__all__ = ["Progress"]


class Progress:
    """Report how far reading has got: `update(done, rows)`, then `close()`.

    Parameters
    ----------
    label : str
        What is being read (the file name).
    total : int
        The total (bytes for CSV, record batches for Arrow), 0 if unknown.
    enabled : bool
        False silences it; it is also silent when `stream` is not a terminal.
    delay : float
        Seconds before the first line appears: quick inputs show nothing.
    verb, unit : str
        What is done and what is counted ("reading ... rows"; a slice search: "searching
        ... combinations of columns").
    """

    def __init__(
        self,
        label: str,
        total: int,
        *,
        enabled: bool = True,
        delay: float = 1.0,
        stream: TextIO | None = None,
        verb: str = "reading",
        unit: str = "rows",
    ) -> None:
        self.label = printable(label)  # a file name: its control characters escaped
        self.total = total
        self.stream = stream if stream is not None else sys.stderr
        self.enabled = enabled and self.stream.isatty()
        self.start = time.monotonic()
        self.delay = delay
        self.shown = False
        self.verb, self.unit = verb, unit

    def update(self, done: int, rows: int) -> None:
        """Redraw the line if more than `delay` seconds have passed."""
        if not self.enabled or time.monotonic() - self.start < self.delay:
            return
        share = f"{100 * done / self.total:5.1f} %" if self.total else ""
        self.stream.write(f"\r{self.verb} {self.label}: {share} {rows:,} {self.unit}")
        self.stream.flush()
        self.shown = True

    def close(self) -> None:
        """Erase the progress line, if one was drawn."""
        if self.shown:
            self.stream.write("\r\033[K")
            self.stream.flush()
