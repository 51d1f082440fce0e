"""Slices on Dask: partitions (or files) sliced where they lie and merged in a tree equal
the Slices of all the rows at once."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from informed.slices import Slices

dd = pytest.importorskip("dask.dataframe")
pd = pytest.importorskip("pandas")


def _frame() -> object:
    rng = np.random.default_rng(0)
    n = 1000
    group = rng.choice(["a", "b", "c"], n).astype(object)
    group[rng.random(n) < 0.05] = None
    actual = rng.integers(0, 3, n)
    actual[:300] = np.where(actual[:300] == 0, 1, actual[:300])  # a partition without class 0
    return pd.DataFrame(
        {
            "g": group,
            "y": actual,
            "p": np.where(rng.random(n) < 0.7, actual, rng.integers(0, 3, n)),
            "s": np.round(rng.random(n), 2),
        }
    )


@pytest.mark.parametrize("split_every", [2, 8])
def test_dask_slices_equal_the_slices_of_the_whole_frame(split_every: int) -> None:
    """Four partitions (the first without the positive class), missing keys included."""
    from informed.dask import slices

    frame = _frame()
    whole = Slices.from_frame(frame, by="g", actual="y", predicted="p", scores="s", positive=0)
    found = slices(
        dd.from_pandas(frame, npartitions=4, sort=False),
        by="g",
        actual="y",
        predicted="p",
        scores="s",
        positive=0,
        split_every=split_every,
        scheduler="synchronous",
    )
    assert found == whole
    assert found.keys[-1] == (None,)


def test_dask_slices_of_files_equal_read_slices(tmp_path: Path) -> None:
    from informed.dask import slices
    from informed.io.sliced import read_slices

    frame = _frame()
    frame = frame.assign(g=frame["g"].fillna("none"))
    for i, part in enumerate(np.array_split(np.arange(len(frame)), 3)):
        frame.iloc[part].to_csv(tmp_path / f"part{i}.csv", index=False)
    pattern = str(tmp_path / "part*.csv")
    found = slices(pattern, by="g", actual="y", predicted="p", scheduler="synchronous")
    assert found == read_slices(pattern, by="g", actual="y", predicted="p")
    assert int(found.rows.sum()) == len(frame)
