"""The command line: `informed evaluate`, `compare`, `tally`, `merge` and `demo`.

Parses arguments, calls the units that do the work and hands their results to
`informed.report`; no arithmetic happens here. Each command lives in its own module
(`add_parser` declares its options, `run` does it). Any error exits with status 2 and a
one-line message naming the file, line, column and value; never a traceback. Every
message shows the user's text (file names, labels, arguments) with its control
characters escaped, so that no byte of it can drive the terminal.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Sequence
from typing import Any, NoReturn

from informed.cli import compare, demo, evaluate, merge, tally
from informed.errors import InputError, InputTypeError

__all__ = ["SafeParser", "main", "parser", "version"]

COMMANDS = {
    "evaluate": evaluate,
    "compare": compare,
    "tally": tally,
    "merge": merge,
    "demo": demo,
}


def version() -> str:
    """The installed version of informed (from the package metadata)."""
    from importlib.metadata import PackageNotFoundError
    from importlib.metadata import version as installed

    try:
        return installed("informed")
    except PackageNotFoundError:  # pragma: no cover - run from a source tree
        return "unknown (not installed)"


class SafeParser(argparse.ArgumentParser):
    """An ArgumentParser whose error messages escape control characters (an argument such
    as ESC [2J is shown as written, never sent to the terminal) and which takes options
    only by their whole name: `--pos` is an error, not `--positive` (and a label such as
    `--c` is never taken for `--ci`)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("allow_abbrev", False)
        super().__init__(*args, **kwargs)

    def error(self, message: str) -> NoReturn:
        from informed._common import printable

        self.print_usage(sys.stderr)
        self.exit(2, f"{self.prog}: error: {printable(message)}\n")


def parser() -> argparse.ArgumentParser:
    """The argument parser of every command."""
    top = SafeParser(
        prog="informed", description="Evaluate classifiers by what they got right beyond chance."
    )
    top.add_argument(
        "--version", action="version", version=f"informed {version()}", help="print the version"
    )
    commands = top.add_subparsers(dest="command", required=True, metavar="COMMAND")
    for command in COMMANDS.values():
        command.add_parser(commands)
    return top


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit status (0 success, 2 bad input)."""
    args = parser().parse_args(argv)
    try:
        COMMANDS[args.command].run(args)
    except BrokenPipeError:
        # the reader went away (`informed ... | head`): not an error of the input; point
        # stdout at /dev/null so that the interpreter's final flush stays silent too
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 0
    except (InputError, InputTypeError, OSError) as exc:
        from informed._common import printable

        print(f"informed: error: {printable(exc)}", file=sys.stderr)
        return 2
    except MemoryError as exc:  # an allocation not checked before (MemoryLimitError is)
        from informed._common import printable

        print(
            f"informed: error: out of memory ({printable(exc) or 'no detail'}); a table of "
            "many labels is stored sparsely by default (--storage auto): check --storage, "
            "or free memory.",
            file=sys.stderr,
        )
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
