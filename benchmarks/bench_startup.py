"""Start-up time of the command line, measured as whole processes.

    .venv/bin/python benchmarks/bench_startup.py [--runs 5]

Runs `informed --help` and `informed --version` (when the command line has it) and a bare
`python -c pass` for comparison, each `runs` times in fresh processes, and prints the
median wall time. Goal (issue 11): `informed --help` < 0.25 s.
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import time
from pathlib import Path

from bytecode import compile_informed

INFORMED = str(Path(sys.executable).with_name("informed"))


def median_of(runs: int, command: list[str]) -> tuple[float, int]:
    times = []
    status = 0
    for _ in range(runs):
        start = time.perf_counter()
        done = subprocess.run(command, capture_output=True, check=False)
        times.append(time.perf_counter() - start)
        status = done.returncode
    return statistics.median(times), status


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    compile_informed()  # as installed: see benchmarks/bytecode.py
    commands = {
        "python -c pass": [sys.executable, "-c", "pass"],
        "informed --help": [INFORMED, "--help"],
        "informed --version": [INFORMED, "--version"],
        "informed evaluate --help": [INFORMED, "evaluate", "--help"],
    }
    print(f"median of {args.runs} fresh processes")
    for name, command in commands.items():
        seconds, status = median_of(args.runs, command)
        note = "" if status == 0 else f"  (exit status {status})"
        goal = "  (goal < 0.25 s)" if name == "informed --help" else ""
        print(f"  {name:<28} {seconds:6.3f} s{goal}{note}")


if __name__ == "__main__":
    main()
