"""The command line lets OpenBLAS's idle threads sleep at once (`OPENBLAS_THREAD_TIMEOUT`),
where they would spin after each threaded dot product: the same threads share each
product as before, so every number is the same (checked here in fresh interpreters)."""

from __future__ import annotations

import os
import subprocess
import sys

PROBE = """
import os, sys
from informed.cli.main import main
try:
    main(["--version"])
except SystemExit:
    pass
print("TIMEOUT", os.environ.get("OPENBLAS_THREAD_TIMEOUT"))
"""

DOTS = """
import numpy as np
rng = np.random.default_rng(3)
for n in (9_999, 10_001, 50_000, 100_649, 1_000_000):
    x = rng.random(n) * rng.choice([1e-17, 0.1, 3.3, 1e17], n)
    print(np.dot(x, rng.random(n)).hex())
"""


def _run(code: str, **env: str) -> list[str]:
    environment = {k: v for k, v in os.environ.items() if k != "OPENBLAS_THREAD_TIMEOUT"}
    environment.update(env)
    done = subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        check=True,
        timeout=120,
        env=environment,
    )
    return done.stdout.split()


def test_the_command_line_sets_the_timeout_unless_the_user_did() -> None:
    assert _run(PROBE)[-2:] == ["TIMEOUT", "4"]
    assert _run(PROBE, OPENBLAS_THREAD_TIMEOUT="20")[-2:] == ["TIMEOUT", "20"]


def test_the_timeout_changes_no_product() -> None:
    assert _run(DOTS, OPENBLAS_THREAD_TIMEOUT="4") == _run(DOTS)
