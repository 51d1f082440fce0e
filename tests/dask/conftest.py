"""A Dask cluster for the tests: a LocalCluster of two worker processes (not threads),
started once for the session and closed at its end. Both are made by the command line's
`construct`, so that a constructor that fails leaves nothing half made for the garbage
collector (which closed one, once, inside the next cluster's start and hung the run)."""

from __future__ import annotations

import logging
from collections.abc import Iterator
from typing import Any

import distributed
import pytest

from informed.cli.scale import construct


@pytest.fixture(scope="session")
def client() -> Iterator[Any]:
    """A Client of a LocalCluster with 2 single-threaded worker processes."""
    with (
        construct(
            distributed.LocalCluster,
            n_workers=2,
            threads_per_worker=1,
            processes=True,
            dashboard_address=":0",  # a free port: never "8787 is already in use"
            silence_logs=logging.CRITICAL,
        ) as cluster,
        construct(distributed.Client, cluster) as connected,
    ):
        yield connected
