"""The progress line: only on a terminal, only after the delay, erased at the end."""

from __future__ import annotations

import io

from informed.report.progress import Progress


class _Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_progress_on_a_terminal() -> None:
    stream = _Terminal()
    progress = Progress("data.csv", 200, delay=0.0, stream=stream)
    progress.update(50, 1000)
    progress.close()
    text = stream.getvalue()
    assert "reading data.csv:  25.0 % 1,000 rows" in text
    assert text.endswith("\r\033[K")


def test_silent_when_quick_redirected_or_quiet() -> None:
    quick = _Terminal()
    Progress("d", 10, delay=60.0, stream=quick).update(5, 5)
    redirected = io.StringIO()
    Progress("d", 10, delay=0.0, stream=redirected).update(5, 5)
    quiet = _Terminal()
    Progress("d", 10, enabled=False, delay=0.0, stream=quiet).update(5, 5)
    assert quick.getvalue() == redirected.getvalue() == quiet.getvalue() == ""


def test_a_file_name_cannot_drive_the_terminal() -> None:
    """The progress line shows the file name with its control characters escaped; the only
    control bytes written are the line's own CR and erase."""
    stream = _Terminal()
    progress = Progress("\x1b]0;owned\x07.csv", 200, delay=0.0, stream=stream)
    progress.update(50, 1000)
    progress.close()
    text = stream.getvalue()
    assert "\\x1b]0;owned\\x07.csv" in text
    assert text.replace("\r\033[K", "").replace("\r", "").isprintable()
