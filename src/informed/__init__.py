"""informed: evaluate classifiers by what they got right beyond chance."""

from __future__ import annotations

__all__: list[str] = []
