"""The classes a sliced Ranking names: its positive class, and its negative class as
`Ranking.from_scores` names it.

A slice's Ranking counts the rows of the positive class against the others. When the rows
of all the slices hold one other class, every Ranking (each slice's and the overall one)
names it as its `negative`, so that a slice's Ranking equals
``Ranking.from_scores(actual, scores, positive=p, negative=n)`` of that slice's rows, and
the overall one ``Ranking.from_scores`` of all the rows, whichever route built them (in
memory, from files, on an engine or on a Dask cluster). When the rows hold several other
classes (`Ranking.from_scores` refuses them) or none, `negative` is None: the positive
class against all the others (`informed.ranking.classes`).

The routes that build Slices in parts (batches of a file, partitions of a Dask DataFrame)
build each part with `negative` None and name the negative once, from the classes seen in
every part (`informed.ranking.classes.negative_of`). Two Slices merged with `+` keep a
negative both name, or one names while the other's rows hold no other class
(`merged_negative`); otherwise None, never a class that one part may lack.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

from informed.coding.labels import Label, keyed
from informed.ranking import Ranking

__all__ = ["Side", "merged_negative", "named", "side"]


def named(
    rankings: tuple[Ranking, ...], overall: Ranking, positive: Label | None, negative: Label | None
) -> tuple[tuple[Ranking, ...], Ranking]:
    """Every Ranking said to rank `positive` against `negative` (the counts unchanged)."""
    return (
        tuple(r.with_classes(positive, negative) for r in rankings),
        overall.with_classes(positive, negative),
    )


class Side(NamedTuple):
    """What one of two merged Slices says of its classes: the negative it names, and
    whether its rows may hold a class other than the positive one."""

    negative: Label | None
    others: bool


def side(overall: Ranking, classes: Sequence[Label] | None, positive: Label | None) -> Side:
    """The `Side` of Slices whose overall Ranking is `overall`; `classes` are the actual
    classes of its rows where known (its Table's columns), else None: then rows of another
    class are assumed wherever the Ranking cannot rule them out (weights of 0 leave none)."""
    if overall.negative is not None:
        return Side(overall.negative, True)
    if classes is not None:
        wanted = None if positive is None else keyed(positive)
        return Side(None, any(keyed(x) != wanted for x in classes))
    return Side(None, overall.weighted or overall.n_negative > 0)


def merged_negative(mine: Side, theirs: Side) -> Label | None:
    """The negative class of two merged Slices: the one both name, or the one named by a
    side whose partner holds no other class; None otherwise.

    >>> a, b, several = Side("a", True), Side("b", True), Side(None, True)
    >>> merged_negative(a, Side(None, False)), merged_negative(a, b), merged_negative(a, several)
    ('a', None, None)
    """
    named_by = [s.negative for s in (mine, theirs) if s.negative is not None]
    if any(s.negative is None and s.others for s in (mine, theirs)):
        return None
    if not named_by or len({keyed(x) for x in named_by}) > 1:
        return None
    return named_by[0]
