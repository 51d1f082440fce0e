"""Peers that import pyplot when imported (model-diagnostics, dcurves), run in a child
process: this test session never imports pyplot, so informed's plots keep making plain
Figures here (with pyplot loaded they would be pyplot's, and pile up in its list)."""

from __future__ import annotations

import importlib.util
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import numpy as np
import pytest


def run_peer(module: str, code: str, arrays: dict[str, np.ndarray], folder: Path) -> Any:
    """Run `code` in a child process with `arrays` loaded as numpy arrays of those names;
    return the JSON value it prints last. Skipped when `module` is not installed."""
    if importlib.util.find_spec(module.split(".")[0]) is None:  # not imported here
        pytest.skip(f"{module} is not installed (the test extra installs it)")
    data = folder / "peer_data.npz"
    np.savez(data, **arrays)
    script = (
        "import json, sys\nimport numpy as np\n"
        f"_data = np.load({str(data)!r})\n"
        "globals().update({k: _data[k] for k in _data.files})\n"
        f"{code}\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, check=False, timeout=300
    )
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout.strip().splitlines()[-1])
