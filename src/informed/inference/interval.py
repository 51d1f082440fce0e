"""The Interval every method of `informed.inference` returns: an estimate and its bounds."""

from __future__ import annotations

import math
from dataclasses import dataclass

from informed._common import json_float

__all__ = ["Interval", "nan_interval"]


@dataclass(frozen=True)
class Interval:
    """A confidence interval and the estimate it surrounds.

    Attributes
    ----------
    estimate : float
        The measure of the data (nan where undefined).
    low, high : float
        The interval; nan where it cannot be computed (`reason` says why).
    level : float
        Nominal coverage, e.g. 0.95.
    method : str
        How it was computed: "percentile", "bca", "wilson", "clopper-pearson",
        "delong", "delong-logit".
    standard_error : float
        The standard error where the method has one (the bootstrap standard deviation,
        the DeLong standard error); nan otherwise.
    reason : str or None
        Why the interval is nan, or a caveat; None when there is nothing to say.
    undefined_replicates : int
        Bootstrap replicates in which the measure was undefined (nan); the interval is
        computed from the others, i.e. conditional on the measure being defined.
    """

    estimate: float
    low: float
    high: float
    level: float
    method: str
    standard_error: float = math.nan
    reason: str | None = None
    undefined_replicates: int = 0

    def as_list(self) -> list[float | None]:
        """[low, high] with None for nan: the JSON form.

        >>> Interval(0.5, 0.25, float("nan"), 0.95, "percentile").as_list()
        [0.25, None]
        """
        return [json_float(self.low), json_float(self.high)]


def nan_interval(estimate: float, level: float, method: str, reason: str) -> Interval:
    """An interval whose bounds cannot be computed, with the `reason`."""
    return Interval(estimate, math.nan, math.nan, level, method, reason=reason)
