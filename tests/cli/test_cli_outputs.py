"""Issue 19, the command line's outputs: what an output path that is not a regular file
means (a device, a FIFO, a socket, a link), and a write that fails (a full disk) is one
line and a non-zero exit, on stdout too; only a closed pipe ends quietly."""

from __future__ import annotations

import json
import os
import socket
import stat
import subprocess
import sys
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest

from informed.cli import main
from informed.io import Summaries

FULL = Path("/dev/full")
needs_full = pytest.mark.skipif(not FULL.exists(), reason="/dev/full exists on Linux only")
ROOT = hasattr(os, "geteuid") and os.geteuid() == 0


def _run(args: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    code = main(args)
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def _data(tmp_path: Path) -> Path:
    path = tmp_path / "data.csv"
    path.write_text("y,p,q,s\na,a,a,0.9\nb,a,b,0.8\nb,b,b,0.1\na,b,b,0.3\na,a,b,0.7\n")
    return path


def _evaluate(data: Path, *more: str) -> list[str]:
    return ["evaluate", str(data), "--actual", "y", "--predicted", "p", "--quiet", *more]


def _part(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> Path:
    """A summary file for `informed merge`."""
    part = tmp_path / "part.json"
    code, _, _ = _run(_evaluate(_data(tmp_path), "--partial", str(part)), capsys)
    assert code == 0
    return part


def _one_line(err: str) -> str:
    assert err.count("\n") == 1 and err.startswith("informed: error: "), err
    assert "Traceback" not in err and "Errno" not in err
    return err


def _device(path: Path, minor: int) -> Path:
    """A character device like /dev/null (minor 3) or /dev/full (7) at `path`."""
    try:
        os.mknod(path, stat.S_IFCHR | 0o666, os.makedev(1, minor))
    except PermissionError:
        pytest.skip("this container does not let root make device nodes (os.mknod)")
    return path


def _leftovers(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.iterdir() if p.name.endswith(".tmp"))


# -- item 1: an output path that exists and is not a regular file ---------------------------


def _outputs(tmp_path: Path, capsys: pytest.CaptureFixture[str], target: Path) -> Iterator[str]:
    """Run every command's output option into `target`; yield each run's stderr."""
    pytest.importorskip("matplotlib")
    data = _data(tmp_path)
    part = _part(tmp_path, capsys)
    for args in (
        _evaluate(data, "--html", str(target)),
        _evaluate(data, "--partial", str(target)),
        ["merge", str(part), "--output", str(target)],
        ["merge", str(part), "--html", str(target)],
        ["compare", str(data), "--actual", "y", "--predicted", "p", "q", "--html", str(target)],
    ):
        code, _, err = _run(args, capsys)
        yield f"{code} {err}"


@pytest.mark.skipif(not ROOT, reason="os.mknod makes a device node only as root")
def test_a_device_is_written_through_never_replaced(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A copy of /dev/null made in the test's folder stays a device after every output;
    a copy of /dev/full stays one too, and every write into it fails by name."""
    null = _device(tmp_path / "null", 3)
    for outcome in _outputs(tmp_path, capsys, null):
        assert outcome == "0 ", outcome
        assert stat.S_ISCHR(null.lstat().st_mode)
    full = _device(tmp_path / "full", 7)
    for outcome in _outputs(tmp_path, capsys, full):
        code, err = outcome.split(" ", 1)
        assert code == "2" and _one_line(err).endswith("no space left on device.\n")
        assert repr(str(full)) in err
        assert stat.S_ISCHR(full.lstat().st_mode)
    assert _leftovers(tmp_path) == []


def test_a_fifo_is_written_through_to_its_reader(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A named pipe is opened for writing as a shell's `>` opens it: the reader gets the
    whole document and the pipe stays a pipe."""
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    received: list[bytes] = []
    # the reader's end is open before the command runs, and a writer's end (`keeper`)
    # until it is done: were the FIFO replaced by a file (the bug), the reader would
    # see the end of an empty stream, not wait forever
    reading = os.open(fifo, os.O_RDONLY | os.O_NONBLOCK)
    keeper = os.open(fifo, os.O_WRONLY)
    os.set_blocking(reading, True)

    def read() -> None:
        with os.fdopen(reading, "rb") as stream:
            received.append(stream.read())

    reader = threading.Thread(target=read)
    reader.start()
    try:
        code, _, err = _run(_evaluate(_data(tmp_path), "--partial", str(fifo)), capsys)
    finally:
        os.close(keeper)
        reader.join()
    assert code == 0, err
    assert Summaries.from_json(received[0].decode()).rows == 5
    assert stat.S_ISFIFO(fifo.lstat().st_mode)
    assert _leftovers(tmp_path) == []


def test_a_link_is_followed_and_kept(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A symbolic link to a file: the file gets the output, the link stays a link to it;
    a link to a missing file creates that file."""
    data = _data(tmp_path)
    target = tmp_path / "real.json"
    target.write_text("an earlier file")
    target.chmod(0o640)
    link = tmp_path / "link.json"
    link.symlink_to(target.name)
    code, _, err = _run(_evaluate(data, "--partial", str(link)), capsys)
    assert code == 0, err
    assert link.is_symlink() and os.readlink(link) == target.name
    assert Summaries.from_json(target.read_text()).rows == 5
    assert stat.S_IMODE(target.stat().st_mode) == 0o640  # the file keeps its permissions
    dangling = tmp_path / "dangling.json"
    dangling.symlink_to("made.json")
    code, _, err = _run(_evaluate(data, "--partial", str(dangling)), capsys)
    assert code == 0, err
    assert dangling.is_symlink() and (tmp_path / "made.json").is_file()
    assert _leftovers(tmp_path) == []


def test_a_socket_a_folder_a_loop_and_an_empty_path_are_refused_first(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Refused before any work, by name and with the true reason; nothing printed, the
    path left as it was."""
    sock = tmp_path / "sock"
    server = socket.socket(socket.AF_UNIX)
    server.bind(str(sock))
    loop = tmp_path / "loop.html"
    loop.symlink_to("loop.html")
    data = _data(tmp_path)
    cases = {
        str(sock): "it is a socket",
        str(tmp_path): "it is a folder",
        str(loop): "it is a loop of symbolic links",
        "": "the path is empty",
        str(tmp_path / "missing" / "r.html"): "does not exist",
    }
    try:
        for path, why in cases.items():
            for args in (
                _evaluate(data, "--html", path),
                _evaluate(data, "--partial", path),
                ["merge", str(data), "--output", path],
                ["merge", str(data), "--html", path],
            ):
                code, out, err = _run(args, capsys)
                assert code == 2 and out == "", (args, err)
                assert why in _one_line(err) and repr(path) in err, err
        assert stat.S_ISSOCK(sock.lstat().st_mode)
    finally:
        server.close()


def test_a_read_only_file_is_refused_for_root_too(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Issue 27, item 17: a file whose mode lets nobody write it (0444) is refused by every
    output option, before any work, with its mode, as docs/cli.md says; also for root,
    whom the system would let replace it. It keeps its text and its mode."""
    target = tmp_path / "kept.html"
    target.write_text("an earlier file")
    target.chmod(0o444)
    assert os.access(target, os.W_OK) == ROOT  # as root, the system alone would replace it
    outcomes = list(_outputs(tmp_path, capsys, target))
    assert len(outcomes) == 5
    for outcome in outcomes:
        assert outcome.startswith("2 informed: error: cannot write "), outcome
        assert "the file is read-only (mode r--r--r--, 0444)" in _one_line(outcome[2:])
        assert repr(str(target)) in outcome
    assert target.read_text() == "an earlier file"
    assert stat.S_IMODE(target.stat().st_mode) == 0o444
    assert _leftovers(tmp_path) == []


def test_a_read_only_folder_or_fifo_is_refused_for_root_too(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A folder whose mode lets nobody write in it (0555) takes no new file and no file
    replaced through a temporary file beside it; a FIFO of mode 0444 is not written
    through. For root too, for every output option."""
    folder = tmp_path / "kept"
    folder.mkdir()
    writable = folder / "writable.json"
    writable.write_text("an earlier file")
    folder.chmod(0o555)
    mode = "(mode r-xr-xr-x, 0555)"
    cases = {
        folder / "new.json": f"the folder {str(folder)!r} is read-only {mode}.",
        writable: f"the folder {str(folder)!r} is read-only {mode} (the file is replaced whole",
    }
    try:
        for path, why in cases.items():
            outcomes = list(_outputs(tmp_path, capsys, path))
            assert len(outcomes) == 5
            for outcome in outcomes:
                assert outcome.startswith("2 ") and why in _one_line(outcome[2:]), outcome
        assert sorted(p.name for p in folder.iterdir()) == ["writable.json"]
        assert writable.read_text() == "an earlier file"
    finally:
        folder.chmod(0o755)
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo, 0o444)
    # a reader takes whatever would be written (a write through would not block), until
    # the writer's end kept open here is closed
    reading = os.open(fifo, os.O_RDONLY | os.O_NONBLOCK)
    keeper = os.open(fifo, os.O_WRONLY)
    os.set_blocking(reading, True)
    received: list[bytes] = []

    def read() -> None:
        with os.fdopen(reading, "rb") as stream:
            received.append(stream.read())

    reader = threading.Thread(target=read)
    reader.start()
    try:
        outcomes = list(_outputs(tmp_path, capsys, fifo))
    finally:
        os.close(keeper)
        reader.join()
    assert len(outcomes) == 5
    for outcome in outcomes:
        assert outcome.startswith("2 ") and "it is read-only (mode r--r--r--, 0444)" in outcome
        _one_line(outcome[2:])
    assert received == [b""]
    assert stat.S_ISFIFO(fifo.lstat().st_mode)


# -- item 2: a failed write is an error, for every command, on stdout too -------------------


def _informed(args: list[str], **options: object) -> subprocess.CompletedProcess[str]:
    return subprocess.run(  # type: ignore[call-overload, no-any-return]
        [sys.executable, "-m", "informed", *args],
        capture_output=False,
        stderr=subprocess.PIPE,
        text=True,
        check=False,
        timeout=120,
        **options,
    )


@needs_full
@pytest.mark.parametrize(
    "args",
    [
        ["--help"],
        ["--version"],
        ["evaluate", "--help"],
        ["compare", "--help"],
        ["tally", "--help"],
        ["merge", "--help"],
        ["demo", "--help"],
    ],
)
def test_help_into_a_full_disk_fails(args: list[str]) -> None:
    """argparse drops a failed write of --help or --version; informed says so."""
    with FULL.open("w") as full:
        done = _informed(args, stdout=full)
    assert done.returncode == 2
    assert done.stderr == (
        "informed: error: cannot write to standard output: no space left on device.\n"
    )


@needs_full
def test_every_command_s_report_into_a_full_disk_fails(tmp_path: Path) -> None:
    data = _data(tmp_path)
    jsonl = tmp_path / "docs.jsonl"
    jsonl.write_text('{"categories": ["x", "y"]}\n{"assigned": ["x"], "correct": ["y"]}\n')
    part = tmp_path / "part.json"
    assert _informed(_evaluate(data, "--partial", str(part))).returncode == 0
    for args in (
        _evaluate(data),
        _evaluate(data, "--format", "json"),
        ["compare", str(data), "--actual", "y", "--predicted", "p", "q"],
        ["tally", str(jsonl)],
        ["merge", str(part)],
    ):
        with FULL.open("w") as full:
            done = _informed(args, stdout=full)
        assert done.returncode == 2, args
        assert done.stderr == (
            "informed: error: cannot write to standard output: no space left on device.\n"
        )


@needs_full
def test_every_output_file_into_a_full_disk_fails(tmp_path: Path) -> None:
    """A full device is written through (never replaced) and fails by name. As root the
    test writes to its own copy of /dev/full: were the device replaced (the bug), the
    machine's /dev/full would be lost."""
    pytest.importorskip("matplotlib")
    full = FULL
    if ROOT:
        full = _device(tmp_path / "full", 7)
    data = _data(tmp_path)
    part = tmp_path / "part.json"
    assert _informed(_evaluate(data, "--partial", str(part))).returncode == 0
    for args, what in (
        (_evaluate(data, "--html", str(full)), "the report"),
        (_evaluate(data, "--partial", str(full)), "the summaries (--partial)"),
        (["merge", str(part), "--output", str(full)], "the merged summaries (--output)"),
        (["merge", str(part), "--html", str(full)], "the report"),
    ):
        done = _informed(args, stdout=subprocess.DEVNULL)
        assert done.returncode == 2
        assert done.stderr == (
            f"informed: error: cannot write {what} to {str(full)!r}: no space left on device.\n"
        )
        assert stat.S_ISCHR(full.lstat().st_mode)


def test_a_closed_stdout_is_an_error_but_not_for_a_command_that_prints_nothing(
    tmp_path: Path,
) -> None:
    """`informed ... >&-`: the report cannot be written; --partial prints nothing."""
    data = _data(tmp_path)
    done = _informed(_evaluate(data), preexec_fn=lambda: os.close(1))
    assert done.returncode == 2
    assert done.stderr == "informed: error: cannot write to standard output: it is closed.\n"
    part = tmp_path / "part.json"
    done = _informed(_evaluate(data, "--partial", str(part)), preexec_fn=lambda: os.close(1))
    assert done.returncode == 0 and done.stderr == ""
    assert json.loads(part.read_text())["rows_read"] == 5


def test_help_into_a_closed_pipe_ends_quietly() -> None:
    process = subprocess.Popen(
        [sys.executable, "-m", "informed", "evaluate", "--help"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    assert process.stdout is not None and process.stderr is not None
    process.stdout.close()
    assert process.wait(timeout=120) == 0
    assert process.stderr.read() == b""
