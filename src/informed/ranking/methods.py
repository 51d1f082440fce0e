"""The measures people reach for, as methods of a Ranking: ``r.auc()``, ``r.pem()``,
``r.hit_rate(100)``...

Each method calls the function that the ranking registry (`informed.ranking.registry`)
lists for its measure, so a method and the function of the same name are one definition:
``r.auc() == informed.ranking.auc(r)``. The registry imports the Ranking, so it hands its
table to this module when it is imported (`use_registry`), which importing
`informed.ranking` always does; no import runs upward.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar

from informed.errors import InputError

__all__ = ["RankingMeasures", "use_registry"]


class RankingMeasures:
    """The registry's measures of a Ranking as methods (`Ranking` inherits them)."""

    _registry: ClassVar[Mapping[str, Any]] = {}

    def measure(self, name: str, quota: Any = None) -> Any:
        """The registry measure `name` of this Ranking (at `quota` where it takes one).

        >>> from informed import Ranking
        >>> r = Ranking.from_scores([1, 0, 1, 0], [4, 3, 2, 1], positive=1)
        >>> r.measure("auc"), r.measure("hit_rate", 2)
        (0.75, 0.5)
        """
        registry = RankingMeasures._registry
        entry = registry.get(name)
        if entry is None or entry.function is None:
            known = [k for k, m in registry.items() if m.function is not None]
            msg = f"no ranking measure {name!r}; the measures are {', '.join(known)}."
            raise InputError(msg)
        if quota is None:
            if entry.quota == "required":
                msg = f"`{name}` is a value at a quota J: pass it, e.g. r.{name}(100)."
                raise InputError(msg)
            return entry.function(self)
        return entry.function(self, quota)

    def auc(self) -> float:
        """Area under the ROC curve, a tied pair counting one half (`informed.ranking.auc`)."""
        return float(self.measure("auc"))

    def pem(self, quota: float | None = None) -> float:
        """PEM, Arbel & Rokach's Potential Extract Measure (`informed.ranking.pem`)."""
        return float(self.measure("pem", quota))

    def average_hit_rate(self, quota: float | None = None) -> float:
        """The average hit rate (`informed.ranking.average_hit_rate`)."""
        return float(self.measure("average_hit_rate", quota))

    def average_qrecall(self, quota: float | None = None) -> float:
        """The average Qrecall (`informed.ranking.average_qrecall`)."""
        return float(self.measure("average_qrecall", quota))

    def hit_rate(self, quota: Any) -> Any:
        """HitRate(J) at a quota or an array of quotas (`informed.ranking.hit_rate`)."""
        return self.measure("hit_rate", quota)

    def qrecall(self, quota: Any) -> Any:
        """Qrecall(J) at a quota or an array of quotas (`informed.ranking.qrecall`)."""
        return self.measure("qrecall", quota)

    def lift(self, quota: Any) -> Any:
        """The cumulative lift at a quota or an array of quotas (`informed.ranking.lift`)."""
        return self.measure("lift", quota)

    def pearson(self, quota: Any) -> Any:
        """Pearson within the quota J (`informed.ranking.pearson`)."""
        return self.measure("pearson", quota)


def use_registry(registry: Mapping[str, Any]) -> None:
    """Give the methods the registry's table (called once, by `informed.ranking.registry`)."""
    RankingMeasures._registry = registry
