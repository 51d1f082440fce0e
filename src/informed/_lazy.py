"""Public names loaded on first use (PEP 562), for packages whose `__init__` only says
which module defines each name: `import informed` and `informed --help` then start
without importing numpy, scipy or rich.

>>> import informed
>>> "Table" in dir(informed)
True
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Mapping, Sequence
from importlib import import_module
from typing import Any

__all__ = ["lazy_names"]


def lazy_names(
    package: str, sources: Mapping[str, str], public: Sequence[str]
) -> tuple[Callable[[str], Any], Callable[[], list[str]]]:
    """The `__getattr__` and `__dir__` of a package whose names load on first use.

    Parameters
    ----------
    package : str
        The package's `__name__`.
    sources : mapping of str to str
        Each public name and the module that defines it.
    public : sequence of str
        The package's `__all__`.

    Returns
    -------
    (__getattr__, __dir__)
        `__getattr__(name)` imports the name's module, keeps the name in the package (so
        it loads once) and returns it; an unknown name is an AttributeError as usual.
    """
    namespace = sys.modules[package].__dict__

    def get(name: str) -> Any:
        source = sources.get(name)
        if source is None:
            msg = f"module {package!r} has no attribute {name!r}"
            raise AttributeError(msg)
        value = getattr(import_module(source), name)
        namespace[name] = value
        return value

    def listing() -> list[str]:
        return sorted({*namespace, *public})

    return get, listing
