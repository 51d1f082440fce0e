"""The command line: `informed evaluate`, `informed tally` and `informed demo`.

Parses arguments, calls the units that do the work and hands their results to
`informed.report`; no arithmetic happens here. Each command lives in its own module
(`add_parser` declares its options, `run` does it). Any error exits with status 2 and a
one-line message naming the file, line, column and value; never a traceback.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

from informed.cli import demo, evaluate, tally
from informed.errors import InputError, InputTypeError

__all__ = ["main", "parser"]

COMMANDS = {"evaluate": evaluate, "tally": tally, "demo": demo}


def parser() -> argparse.ArgumentParser:
    """The argument parser of every command."""
    top = argparse.ArgumentParser(
        prog="informed", description="Evaluate classifiers by what they got right beyond chance."
    )
    commands = top.add_subparsers(dest="command", required=True)
    for command in COMMANDS.values():
        command.add_parser(commands)
    return top


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit status (0 success, 2 bad input)."""
    args = parser().parse_args(argv)
    try:
        COMMANDS[args.command].run(args)
    except (InputError, InputTypeError, OSError) as exc:
        print(f"informed: error: {exc}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
