"""The command line: `informed evaluate`, `compare`, `tally`, `merge` and `demo`.

Parses arguments, calls the units that do the work and hands their results to
`informed.report`; no arithmetic happens here. Each command lives in its own module
(`add_parser` declares its options, `run` does it). Any error exits with status 2 and a
one-line message naming the file, line, column and value; never a traceback. Every
message shows the user's text (file names, labels, arguments) with its control
characters escaped, so that no byte of it can drive the terminal. A write to standard
output that fails (a full disk, a closed or missing stdout) is such an error too, for
--help and --version as for a report; only a reader that leaves a pipe early (EPIPE,
`informed ... | head`) ends the command quietly, with status 0.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import sys
from collections.abc import Sequence
from typing import IO, Any, NoReturn

from informed.cli import compare, demo, evaluate, merge, tally
from informed.errors import InputError, InputTypeError

__all__ = ["SafeParser", "StandardOutput", "main", "parser", "version"]

COMMANDS = {
    "evaluate": evaluate,
    "compare": compare,
    "tally": tally,
    "merge": merge,
    "demo": demo,
}


def version() -> str:
    """The installed version of informed (from the package metadata)."""
    from informed.report.result_schema import informed_version

    return informed_version()


class _Version(argparse.Action):
    """--version, as argparse's own action prints it, but the package metadata is read
    only when asked: importlib.metadata takes a tenth of a second to load, a cost every
    command would pay to build its parser."""

    def __init__(self, option_strings: Sequence[str], dest: str, help: str | None = None) -> None:
        super().__init__(option_strings, dest=argparse.SUPPRESS, nargs=0, help=help)

    def __call__(
        self,
        parser: argparse.ArgumentParser,
        namespace: argparse.Namespace,
        values: Any,
        option_string: str | None = None,
    ) -> None:
        formatter = parser._get_formatter()
        formatter.add_text(f"informed {version()}")
        parser._print_message(formatter.format_help(), sys.stdout)
        parser.exit()


class SafeParser(argparse.ArgumentParser):
    """An ArgumentParser whose error messages escape control characters (an argument such
    as ESC [2J is shown as written, never sent to the terminal) and which takes options
    only by their whole name: `--pos` is an error, not `--positive` (and a label such as
    `--c` is never taken for `--ci`)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("allow_abbrev", False)
        super().__init__(*args, **kwargs)

    def _print_message(self, message: str, file: Any = None) -> None:
        """Write help, the version or an error; unlike argparse, a failed write to stdout
        is not ignored (`informed --help > /dev/full` must fail). On stderr it is: the
        exit status still says what happened."""
        if not message:
            return
        stream = sys.stderr if file is None else file
        try:
            stream.write(message)
            stream.flush()
        except OSError:
            if isinstance(stream, StandardOutput):
                raise

    def error(self, message: str) -> NoReturn:
        from informed._common import printable

        self.print_usage(sys.stderr)
        self.exit(2, f"{self.prog}: error: {printable(message)}\n")


def parser() -> argparse.ArgumentParser:
    """The argument parser of every command."""
    top = SafeParser(
        prog="informed", description="Evaluate classifiers by what they got right beyond chance."
    )
    top.add_argument("--version", action=_Version, help="print the version")
    commands = top.add_subparsers(dest="command", required=True, metavar="COMMAND")
    for command in COMMANDS.values():
        command.add_parser(commands)
    return top


class StandardOutput:
    """sys.stdout while a command runs: every write and flush that fails, but for a
    closed pipe, becomes one OSError that says so in words ("cannot write to standard
    output: no space left on device"); a stdout closed at start (``informed ... >&-``)
    fails at the first write, not before (a command that prints nothing still works)."""

    def __init__(self, stream: IO[str] | None) -> None:
        self.stream = stream

    def _failed(self, error: OSError | ValueError | None) -> OSError:
        from informed.io.output_files import reason

        why = "it is closed" if not isinstance(error, OSError) else reason(error)
        if self.stream is not None:
            # what stays in the buffer goes nowhere: the interpreter's last flush at
            # exit would fail again and print a traceback of its own
            with contextlib.suppress(OSError, ValueError):
                os.dup2(os.open(os.devnull, os.O_WRONLY), self.stream.fileno())
        return OSError(f"cannot write to standard output: {why}.")

    def write(self, text: str) -> int:
        if self.stream is None:
            raise self._failed(None)
        try:
            return self.stream.write(text)
        except BrokenPipeError:
            raise
        except OSError as error:
            raise self._failed(error) from None
        except ValueError as error:  # I/O operation on closed file
            raise self._failed(error) from None

    def flush(self) -> None:
        if self.stream is None:
            return
        try:
            self.stream.flush()
        except BrokenPipeError:
            raise
        except OSError as error:
            raise self._failed(error) from None
        except ValueError as error:
            raise self._failed(error) from None

    def isatty(self) -> bool:
        return self.stream is not None and self.stream.isatty()

    def __getattr__(self, name: str) -> Any:
        return getattr(self.stream, name)


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit status (0 success, 2 bad input or a failed
    write). --help, --version and argument errors exit by SystemExit, as argparse does."""
    _idle_blas_threads_sleep()
    stdout = sys.stdout
    guarded = StandardOutput(stdout)
    sys.stdout = guarded
    try:
        return _run(argv, guarded)
    finally:
        sys.stdout = stdout


def _idle_blas_threads_sleep() -> None:
    """OpenBLAS's idle threads sleep at once (`OPENBLAS_THREAD_TIMEOUT`, unless the user
    set it), where by default they spin for 2^28 cycles after each call: a sliced report
    makes a dot product or three of every slice's groups (`np.dot`, threaded past 10,000
    values), and the spinning thread took 1.7 s of the 8.2 s of CPU of 10^7 weighted
    scores in 100 slices. The threads and their share of each product are the same, so
    every number is. Only where numpy is not loaded yet: OpenBLAS reads it once."""
    if "numpy" not in sys.modules:
        os.environ.setdefault("OPENBLAS_THREAD_TIMEOUT", "4")


def _run(argv: Sequence[str] | None, stdout: StandardOutput) -> int:
    try:
        try:
            args = parser().parse_args(argv)
        except SystemExit:
            stdout.flush()  # --help or --version: their text must have been written
            raise
        COMMANDS[args.command].run(args)
        stdout.flush()
    except BrokenPipeError:
        # the reader went away (`informed ... | head`): not an error of the input; point
        # stdout at /dev/null so that the interpreter's final flush stays silent too
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 0
    except (InputError, InputTypeError, OSError) as exc:
        _error(_message(exc))
        return 2
    except MemoryError as exc:  # an allocation not checked before (MemoryLimitError is)
        from informed._common import printable

        _error(
            f"out of memory ({printable(exc) or 'no detail'}); a table of "
            "many labels is stored sparsely by default (--storage auto): check --storage, "
            "or free memory."
        )
        return 2
    return 0


def _message(error: Exception) -> str:
    """The one line of an error: an OSError of the system ("[Errno 13] Permission denied:
    'x.csv'") in words, naming its file ("x.csv: permission denied")."""
    from informed._common import printable

    if isinstance(error, OSError) and error.strerror and error.errno is not None:
        from informed.io.output_files import reason

        text = reason(error)
        if error.filename is not None:
            text = f"{os.fsdecode(error.filename)}: {text}"
        return printable(text)
    return printable(error)


def _error(message: str) -> None:
    """The one line on stderr; if stderr itself cannot be written, the status says it."""
    with contextlib.suppress(OSError, ValueError):
        print(f"informed: error: {message}", file=sys.stderr)


if __name__ == "__main__":
    sys.exit(main())
