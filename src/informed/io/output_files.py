"""Files written for the user (an HTML report, summaries for `informed merge`), and what
an output path means: what a shell's ``>`` means, except that a file is never left
half written.

- A regular file, or a new name in an existing folder: the text goes to a temporary
  file in the same folder, which is then moved over the path (`os.replace`), so a
  reader never sees half a file and an error leaves an earlier file as it was. An
  existing file keeps its permissions. A read-only file is refused, not replaced: one
  this user may not write, and one whose mode lets nobody write it (``chmod a-w``,
  0444) also when the user is root, whom the system lets write any file: the mode says
  the file is to be kept, and a file replaced cannot be had back. A folder is read
  alike, since a new file, or the temporary file of a replacement, is made in it; so is
  a device or FIFO, which is written through.
- A symbolic link is followed: its target is written as above and the link is kept (a
  link to a missing file creates that file). A loop of links is refused.
- A character device (``/dev/null``, ``/dev/stdout``, a terminal) or a named pipe (FIFO)
  is written through, opened for writing as it is: never replaced by a regular file.
  A FIFO waits for its reader, as a shell does.
- A folder, a socket or a block device (a disk) is refused, naming the path, as is a
  path ending with ``/`` (a folder's name, never made into a file) or an empty one.

Every error is an `InputError` (checked before any work) or an `OSError` (while writing:
a full disk, a device that refuses the bytes) whose one-line message names what was
being written and the path, and gives the reason in words.
"""

from __future__ import annotations

import errno
import os
import stat
import tempfile
from pathlib import Path

from informed.errors import InputError

__all__ = ["check_output", "reason", "write_output"]


def reason(error: OSError) -> str:
    """An OSError's reason in words, without its number: "no space left on device".

    >>> reason(OSError(errno.ENOSPC, os.strerror(errno.ENOSPC)))
    'no space left on device'
    """
    if error.errno == errno.ELOOP:
        return "it is a loop of symbolic links"
    text = error.strerror or str(error) or type(error).__name__
    return text[:1].lower() + text[1:]


def _refuse(what: str, path: str | os.PathLike[str], why: str) -> InputError:
    from informed._common import printable

    return InputError(f"cannot write {what} to {printable(repr(os.fspath(path)))}: {why}.")


def _resolve(path: str | os.PathLike[str], what: str) -> tuple[Path, bool]:
    """(the file to write, whether to write through it) for `path`, or an InputError."""
    if os.fspath(path) == "":
        raise _refuse(what, path, "the path is empty; give a file name")
    target = Path(os.path.realpath(path))
    try:
        found = os.stat(target)
    except FileNotFoundError:
        found = None
    except OSError as error:
        raise _refuse(what, path, reason(error)) from None
    if found is None and os.fspath(path).endswith(("/", os.sep)):
        raise _refuse(what, path, "it ends with '/', as a folder does; give a file name")
    if found is None:
        folder = target.parent
        if not folder.is_dir():
            why = f"the folder {str(folder)!r} does not exist; create it first"
            raise _refuse(what, path, why)
        refusal = _folder_refusal(folder)
        if refusal is not None:
            raise _refuse(what, path, refusal)
        return target, False
    mode = found.st_mode
    if stat.S_ISDIR(mode):
        raise _refuse(what, path, "it is a folder; give a file name")
    if stat.S_ISREG(mode):
        if not mode & _ANY_WRITE:
            raise _refuse(what, path, f"the file is read-only (mode {_mode(mode)})")
        if not os.access(target, os.W_OK):
            raise _refuse(what, path, "the file is read-only")
        refusal = _folder_refusal(target.parent)
        if refusal is not None:
            refusal += " (the file is replaced whole, through a temporary file beside it)"
            raise _refuse(what, path, refusal)
        return target, False
    if stat.S_ISCHR(mode) or stat.S_ISFIFO(mode):
        if not mode & _ANY_WRITE:
            raise _refuse(what, path, f"it is read-only (mode {_mode(mode)})")
        if not os.access(target, os.W_OK):
            raise _refuse(what, path, "permission denied")
        return target, True
    kind = "a socket" if stat.S_ISSOCK(mode) else "a block device (a disk)"
    if not stat.S_ISBLK(mode) and not stat.S_ISSOCK(mode):
        kind = "not a regular file"
    raise _refuse(what, path, f"it is {kind}; give a file name")


_ANY_WRITE = stat.S_IWUSR | stat.S_IWGRP | stat.S_IWOTH


def _mode(mode: int) -> str:
    """A file's permissions as `ls -l` and `chmod` write them.

    >>> _mode(0o100444)
    'r--r--r--, 0444'
    """
    return f"{stat.filemode(mode)[1:]}, {stat.S_IMODE(mode):04o}"


def _folder_refusal(folder: Path) -> str | None:
    """Why no file may be made in `folder`, or None: this user may not, or its mode lets
    nobody write in it (root included, as for a file)."""
    mode = os.stat(folder).st_mode
    if not mode & _ANY_WRITE:
        return f"the folder {str(folder)!r} is read-only (mode {_mode(mode)})"
    if not os.access(folder, os.W_OK | os.X_OK):
        return f"the folder {str(folder)!r} is not writable"
    return None


def check_output(path: str | os.PathLike[str], what: str) -> Path:
    """The file `path` names (links followed), if `what` ("the report") can be written
    there; else an InputError naming it. Called before any work, and again to write."""
    return _resolve(path, what)[0]


def write_output(path: str | os.PathLike[str], text: str, what: str) -> Path:
    """Write `text` (UTF-8) to `path` as the module's docstring says; return `path`."""
    target, through = _resolve(path, what)
    try:
        if through and _write_through(target, text):
            return Path(path)
        _replace(target, text)
    except OSError as error:
        from informed._common import printable

        shown = printable(repr(os.fspath(path)))
        msg = f"cannot write {what} to {shown}: {reason(error)}."
        raise OSError(msg) from None
    return Path(path)


def _write_through(target: Path, text: str) -> bool:
    """Write into a device or FIFO as it is; False (nothing written) if `target` turned
    out to be a regular file by the time it was opened (then it is replaced instead)."""
    handle = os.open(target, os.O_WRONLY | os.O_NOCTTY)  # no O_CREAT, no O_TRUNC
    if stat.S_ISREG(os.fstat(handle).st_mode):
        os.close(handle)
        return False
    with os.fdopen(handle, "w", encoding="utf-8") as stream:
        stream.write(text)
    return True


def _replace(target: Path, text: str) -> None:
    """`text` written to a temporary file beside `target`, then moved over it."""
    try:
        mode = stat.S_IMODE(os.stat(target).st_mode)
    except FileNotFoundError:
        umask = os.umask(0)
        os.umask(umask)
        mode = 0o666 & ~umask
    handle, temporary = tempfile.mkstemp(
        prefix=f".{target.name}.", suffix=".tmp", dir=target.parent
    )
    try:
        with os.fdopen(handle, "w", encoding="utf-8") as stream:
            stream.write(text)
            stream.flush()
            os.fsync(stream.fileno())
        os.chmod(temporary, mode)
        os.replace(temporary, target)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise
