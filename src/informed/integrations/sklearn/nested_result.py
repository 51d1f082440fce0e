"""`NestedCV`: the nested cross-validation estimate of a per-case loss and its interval.

The arithmetic of Bates, Hastie & Tibshirani (2023) on the fold summaries the fits left
(`nested_estimate`), and the typed result holding it: the estimate, the nested interval,
the naive interval beside it (labelled naive), the refits it took, its JSON document and
its terminal text. The fits themselves are in `informed.integrations.sklearn.nested`.
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass, field
from typing import Any

import numpy as np
from numpy.typing import NDArray
from rich.text import Text

from informed._common import json_float, printable
from informed._terminal import WIDTH, grid, render, titled, value
from informed.inference.interval import Interval

__all__ = ["LOSSES", "NestedCV", "nested_estimate"]

Floats = NDArray[np.float64]

LOSSES = {
    "zero_one": "misclassification (0/1 loss)",
    "balanced_error": "balanced error rate",
    "log_loss": "log loss",
    "brier": "Brier score",
}
"""The per-case losses `nested_cv` knows by name, with their titles."""

NESTED_METHOD = "nested cross-validation (Bates, Hastie & Tibshirani 2023)"
NAIVE_METHOD = "naive: the held-out losses taken as independent"


def nested_estimate(
    inner: Floats, outer: Floats, n: int, level: float
) -> tuple[Interval, Interval, dict[str, float]]:
    """The nested and naive intervals from each outer fold's summaries.

    Parameters
    ----------
    inner, outer : ndarray [R, K, 3]
        For repetition r and outer fold k, the (count, mean, sum of squared deviations)
        of the inner cross-validation's per-case losses e_in (the K - 1 other folds, each
        predicted by a model fitted without it and without fold k) and of the outer
        losses e_out (fold k, predicted by the model fitted on all other folds).
    n : int
        Cases in the data.
    level : float
        Nominal coverage.

    Returns
    -------
    nested, naive : Interval
    parts : dict
        The pieces: "nested_mean" (Err_NCV), "cv_mean" (Err_CV), "bias", "mse",
        "inflation".

    Notes
    -----
    Algorithm 1 (nested CV) of Bates et al. (2023), for R repetitions of K folds of n
    cases, with per-case losses; a bar is a mean over cases::

        a_rk = (mean(e_in_rk) - mean(e_out_rk))^2
        b_rk = var(e_out_rk) / n_k                          (var with n_k - 1)
        MSE = mean(a) - mean(b)                             (the MSE of the CV estimate)
        Err_NCV = mean of every inner loss of every (r, k)
        Err_CV = mean of every outer loss (each repetition's outer folds are a K-fold CV)

    and the interval built from them, as the authors' R package nestedcv computes it::

        s = sd(every inner loss)                            (n - 1 denominator)
        inflation = sqrt(max(MSE, 0)) / (s / sqrt(floor(n (K - 1) / K)))
                    clipped to [1, sqrt(K)]                 (never narrower than naive,
                                                             nor wider than sqrt(K) times)
        SE = inflation * s / sqrt(n)                        (= sqrt(MSE (K - 1) / K) unclipped)
        bias = (1 + ((K - 2) / K)^(3/2)) * (Err_NCV - Err_CV)
        interval = Err_NCV - bias -/+ z_(1 - alpha/2) * SE

    The inner models see (K - 2)/K of the data and the outer ones (K - 1)/K: the MSE
    estimates the error of a CV at the smaller size, and (K - 1)/K rescales it to the
    full one; the bias moves the estimate from the inner models' size past the outer ones'
    to a model fitted on all n cases. nestedcv runs separate K-fold CVs for Err_CV
    (ceil(R/5) of them); here each repetition's outer fits are that CV, with no refit.

    The naive interval, beside it, is Err_CV -/+ z * sd(outer losses) / sqrt(n): the
    usual one, which takes the n held-out losses as independent; they are not (every
    model shares most of its training cases with the others), and Bates et al. show its
    coverage falls below nominal.

    References: Bates, S., Hastie, T. & Tibshirani, R. (2023). Cross-validation: what
    does it estimate and how well does it do it? Journal of the American Statistical
    Association.
    """
    from scipy.stats import norm

    folds = inner.shape[1]
    z = float(norm.ppf(0.5 + level / 2))
    a = (inner[..., 1] - outer[..., 1]) ** 2
    b = outer[..., 2] / (outer[..., 0] - 1) / outer[..., 0]
    mse = float(a.mean() - b.mean())
    nested_mean, inner_sd = _pooled(inner)
    cv_mean, outer_sd = _pooled(outer)
    naive_scale = inner_sd / math.sqrt(math.floor(n * (folds - 1) / folds))
    if naive_scale > 0:
        inflation = math.sqrt(max(mse, 0.0)) / naive_scale
        inflation = min(max(inflation, 1.0), math.sqrt(folds))
    else:  # every inner loss equal: no spread to scale
        inflation = 1.0
    standard_error = inflation * inner_sd / math.sqrt(n)
    bias = (1.0 + ((folds - 2) / folds) ** 1.5) * (nested_mean - cv_mean)
    centre = nested_mean - bias
    nested = Interval(
        centre, centre - z * standard_error, centre + z * standard_error, level,
        NESTED_METHOD, standard_error,
    )  # fmt: skip
    naive_error = outer_sd / math.sqrt(n)
    naive = Interval(
        cv_mean, cv_mean - z * naive_error, cv_mean + z * naive_error, level,
        NAIVE_METHOD, naive_error,
    )  # fmt: skip
    parts = {
        "nested_mean": nested_mean,
        "cv_mean": cv_mean,
        "bias": bias,
        "mse": mse,
        "inflation": inflation,
    }
    return nested, naive, parts


def _pooled(summaries: Floats) -> tuple[float, float]:
    """The mean and sample standard deviation of every loss, from the (count, mean, sum
    of squared deviations) of each part (Chan et al.'s pairwise combination)."""
    count = summaries[..., 0].ravel()
    means = summaries[..., 1].ravel()
    squares = summaries[..., 2].ravel()
    total = float(count.sum())
    mean = float((count * means).sum() / total)
    spread = float(squares.sum() + (count * (means - mean) ** 2).sum())
    return mean, math.sqrt(spread / (total - 1))


@dataclass(frozen=True, eq=False)
class NestedCV:
    """The nested cross-validation estimate of a per-case loss, with both intervals.

    Attributes
    ----------
    estimate : Interval
        The nested estimate of the loss of a model fitted on all n cases (Err_NCV less
        the bias) and its interval (Bates, Hastie & Tibshirani 2023).
    naive : Interval
        The ordinary K-fold CV estimate (Err_CV, over every repetition) and the naive
        interval, which takes the held-out losses as independent: often too narrow.
    loss : str
        The per-case loss ("zero_one", "balanced_error", "log_loss", "brier", or the
        name of the callable given).
    estimator : str
        The estimator's class name.
    n : int
        The cases in the data.
    folds : int
        K, the folds of each repetition.
    repetitions : int
        R, the repetitions of K-fold cross-validation.
    refits : int
        The estimator's fits: K (K + 1) / 2 per repetition.
    nested_mean, cv_mean, bias, mse, inflation : float
        Err_NCV (the mean inner loss), Err_CV (the mean outer loss), the bias
        subtracted, the estimated MSE of the CV estimate, and how many times the naive
        standard error the nested one is (between 1 and sqrt(K)).
    classes : int
        Distinct classes of `y` (0 for a callable loss on other targets).
    inner, outer : ndarray [R, K, 3]
        Each outer fold's (count, mean, sum of squared deviations) of its inner and
        outer losses: what the intervals are computed from.
    assignments : ndarray [R, n]
        Each repetition's fold (0 .. K - 1) of every case.
    """

    estimate: Interval
    naive: Interval
    loss: str
    estimator: str
    #: The cases in the data (documented as a member, so that the reference's ``n`` is
    #: this one and not a Table's or a Ranking's).
    n: int
    folds: int
    repetitions: int
    refits: int
    nested_mean: float
    cv_mean: float
    bias: float
    mse: float
    inflation: float
    classes: int
    inner: Floats = field(repr=False)
    outer: Floats = field(repr=False)
    assignments: NDArray[np.int64] = field(repr=False)

    @property
    def level(self) -> float:
        """The intervals' nominal coverage."""
        return self.estimate.level

    @property
    def informedness(self) -> Interval | None:
        """For the balanced error of two classes, informedness = 1 - 2 * balanced error
        with the nested interval mapped alike (Powers 2011); None otherwise."""
        if self.loss != "balanced_error" or self.classes != 2:
            return None
        e = self.estimate
        return Interval(
            1 - 2 * e.estimate, 1 - 2 * e.high, 1 - 2 * e.low, e.level, e.method,
            2 * e.standard_error,
        )  # fmt: skip

    def to_dict(self) -> dict[str, Any]:
        """The JSON document: both intervals, the pieces, the cost."""

        def interval(i: Interval) -> dict[str, Any]:
            return {
                "estimate": json_float(i.estimate),
                "interval": i.as_list(),
                "standard_error": json_float(i.standard_error),
                "method": i.method,
            }

        document: dict[str, Any] = {
            "estimator": self.estimator,
            "loss": self.loss,
            "n": self.n,
            "folds": self.folds,
            "repetitions": self.repetitions,
            "refits": self.refits,
            "level": self.level,
            "nested": interval(self.estimate),
            "naive": interval(self.naive),
            "nested_mean": json_float(self.nested_mean),
            "cv_mean": json_float(self.cv_mean),
            "bias": json_float(self.bias),
            "mse": json_float(self.mse),
            "inflation": json_float(self.inflation),
        }
        informedness = self.informedness
        if informedness is not None:
            document["informedness"] = interval(informedness)
        return document

    def to_json(self, **kwargs: Any) -> str:
        """`to_dict()` as strict JSON (nan as null); `kwargs` go to `json.dumps`."""
        return json.dumps(self.to_dict(), allow_nan=False, **kwargs)

    def __repr__(self) -> str:
        e, v = self.estimate, self.naive
        pct = f"{100 * self.level:g} %"
        lines = [
            f"{self._title()}: nested {e.estimate:.4f}, {pct} interval [{e.low:.4f}, {e.high:.4f}]",
            f"  naive {v.estimate:.4f}, {pct} interval [{v.low:.4f}, {v.high:.4f}] (naive)",
        ]
        j = self.informedness
        if j is not None:
            lines.append(
                f"  informedness {j.estimate:.4f}, {pct} interval [{j.low:.4f}, {j.high:.4f}]"
            )
        return "\n".join(lines)

    def _title(self) -> str:
        name = LOSSES.get(self.loss, self.loss)
        return f"{printable(name)} of {printable(self.estimator)}"

    def text(self, *, color: bool = False, width: int = WIDTH) -> str:
        """The terminal view, `width` columns wide (ANSI colours only when `color`)."""
        head = Text(
            f"{self._title()}, n = {self.n:,}\n{self.repetitions} repetitions of "
            f"{self.folds}-fold nested cross-validation, {self.refits:,} refits",
            style="bold",
        )
        pct = f"{100 * self.level:g} % interval"
        table = grid()
        for name, justify in (("estimate", "left"), ("value", "right"), (pct, "left"),
                              ("SE", "right")):  # fmt: skip
            table.add_column(name, justify=justify)  # type: ignore[arg-type]
        rows = [("nested (Bates et al.)", self.estimate), ("naive CV", self.naive)]
        j = self.informedness
        if j is not None:
            rows.append(("informedness, nested", j))
        for name, i in rows:
            table.add_row(name, value(i.estimate), f"[{value(i.low)}, {value(i.high)}]",
                          value(i.standard_error))  # fmt: skip
        notes = Text(
            f"bias corrected {value(self.bias)} (Err_NCV {value(self.nested_mean)}, "
            f"Err_CV {value(self.cv_mean)}); nested SE {value(self.inflation, 2)} x naive.\n"
            "The naive interval takes the held-out losses as independent, and is often "
            "too narrow (Bates, Hastie & Tibshirani 2023, Cross-validation: what does it "
            "estimate and how well does it do it?).",
            style="yellow",
        )
        return render([head, "", titled("Estimates", table), "", notes], color, width)
