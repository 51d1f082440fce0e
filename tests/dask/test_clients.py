"""Issue 27, item 1: no half-made distributed Client or LocalCluster is left for the
garbage collector. A Client whose constructor raised (an unreachable scheduler) had
already started its IO loop thread and made itself dask's default scheduler; collected
later, at a moment of the collector's choosing, its `__del__` closed it inside the next
LocalCluster's start, holding the lock that closing needs: the test suite hung.

Each test runs with the collector off, so that what the code leaves behind is still
there to be found: every Client and LocalCluster made is closed, and every IO loop
thread started is stopped, when the call returns."""

from __future__ import annotations

import gc
import logging
import socket
import threading
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import dask
import distributed
import pytest

from informed.cli import scale
from informed.cli.main import main


def _open(kind: type) -> list[Any]:
    """The live objects of `kind` not closed yet."""
    return [
        found
        for found in gc.get_objects()
        if isinstance(found, kind) and str(getattr(found, "status", "")) not in _CLOSED
    ]


_CLOSED = {"closed", "Status.closed"}


def _loop_threads() -> set[threading.Thread]:
    return {thread for thread in threading.enumerate() if thread.name == "IO loop"}


@pytest.fixture
def nothing_left_behind() -> Iterator[Callable[[], None]]:
    """A check, with the collector off, that no Client, LocalCluster or IO loop thread
    made since the fixture began is still open, and that dask's default scheduler is
    what it was; whatever is found open is closed afterwards, not left to other tests."""
    before = {
        id(found): found
        for kind in (distributed.Client, distributed.LocalCluster)
        for found in _open(kind)
    }
    threads = _loop_threads()
    scheduler = dask.config.get("scheduler", None)
    enabled = gc.isenabled()
    gc.disable()
    left: list[Any] = []

    def check() -> None:
        left.extend(
            found
            for kind in (distributed.Client, distributed.LocalCluster)
            for found in _open(kind)
            if id(found) not in before
        )
        assert left == []
        assert _loop_threads() - threads == set()
        assert dask.config.get("scheduler", None) == scheduler

    try:
        yield check
    finally:
        for found in left:
            found.close()
        if enabled:
            gc.enable()


@pytest.fixture
def refusing_port() -> Iterator[int]:
    """A local TCP port bound but not listening: a connection to it is refused."""
    with socket.socket() as bound:
        bound.bind(("127.0.0.1", 0))
        yield bound.getsockname()[1]


def _data(tmp_path: Path) -> Path:
    path = tmp_path / "data.csv"
    path.write_text("y,p\na,a\nb,a\nb,b\n")
    return path


@pytest.mark.parametrize("address", ["nonsense://x", "refused"])
def test_an_unreachable_scheduler_leaves_no_client_behind(
    address: str,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    refusing_port: int,
    nothing_left_behind: Callable[[], None],
) -> None:
    """An unknown scheme fails after the Client started its loop and set itself as dask's
    scheduler; a refused port fails after the Client closed itself but not its loop.
    Either way: one line, and nothing left open."""
    if address == "refused":
        address = f"tcp://127.0.0.1:{refusing_port}"
        monkeypatch.setattr(scale, "CONNECT_TIMEOUT", "0.5s")  # distributed retries until then
    code = main(
        ["evaluate", str(_data(tmp_path)), "--actual", "y", "--predicted", "p", "--dask", address]
    )
    err = capsys.readouterr().err
    assert code == 2
    assert err.startswith(f"informed: error: --dask {address}: cannot reach a Dask scheduler")
    assert err.count("\n") == 1 and "Traceback" not in err
    nothing_left_behind()


@pytest.mark.parametrize("error", [RuntimeError, ImportError])
def test_a_client_that_fails_on_a_local_cluster_closes_the_cluster(
    error: type[Exception],
    monkeypatch: pytest.MonkeyPatch,
    nothing_left_behind: Callable[[], None],
) -> None:
    """An error between making the LocalCluster and its Client (here the Client's first
    exchange with the scheduler, made to fail) closes both, workers and loops. distributed
    leaves the Client open after most errors; after an ImportError (the scheduler's
    versions refused) it closes the Client but leaves its loop running."""

    async def refuse(self: Any, timeout: Any = None) -> None:
        raise error("the Client failed to connect")

    monkeypatch.setattr(distributed.Client, "_ensure_connected", refuse)
    with (
        pytest.raises(error, match="the Client failed to connect"),
        scale.dask_client("local"),
    ):
        pass  # pragma: no cover: the client is never made
    nothing_left_behind()


def test_a_local_cluster_that_fails_to_start_stops_its_loop(
    nothing_left_behind: Callable[[], None],
) -> None:
    """A LocalCluster whose scheduler cannot bind its port closes itself but leaves its
    IO loop thread running; `construct` stops it (the tests' own cluster is made so)."""
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        with pytest.raises(RuntimeError, match="Cluster failed to start"):
            scale.construct(
                distributed.LocalCluster,
                n_workers=0,
                processes=False,
                scheduler_port=taken.getsockname()[1],
                dashboard_address=":0",
                silence_logs=logging.CRITICAL,
            )
    nothing_left_behind()
