"""The HTML page of two models compared across cross-validation folds
(`informed compare --folds --html`): the comparison's own section
(`informed.comparison.fold_html`) in the page every report shares."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from informed._markup import escaped
from informed.comparison.fold_html import FOLD_COMPARISON_SOURCES, fold_comparison_section
from informed.comparison.folds import FoldComparison
from informed.errors import InputTypeError
from informed.report.html.page import page_document, write_page

__all__ = ["fold_comparison_report", "write_fold_comparison_report"]


def fold_comparison_report(
    comparison: FoldComparison,
    *,
    title: str = "Comparison across cross-validation folds",
    source: str = "",
) -> str:
    """One self-contained HTML document reporting a comparison across folds
    (`informed.comparison.compare_folds`).

    >>> from informed.comparison import compare_folds
    >>> from informed.slices import Folds
    >>> fold, y = [1, 1, 2, 2, 3, 3] * 4, [1, 0] * 12
    >>> a = Folds.from_labels(folds=fold, actual=y, predicted=[1, 1, 1, 0] * 6)
    >>> b = Folds.from_labels(folds=fold, actual=y, predicted=[1, 0, 1, 0, 0, 0] * 4)
    >>> page = fold_comparison_report(compare_folds(a, b, positive=1))
    >>> 'id="folds-tests"' in page and "https://" not in page
    True
    """
    if not isinstance(comparison, FoldComparison):
        msg = (
            "fold_comparison_report needs a FoldComparison (from `compare_folds`); got "
            f"{type(comparison).__name__}."
        )
        raise InputTypeError(msg)
    a, b = (escaped(name) for name in comparison.names)
    where = f"Source: <strong>{escaped(source)}</strong> · " if source else ""
    meta = (
        f'<p class="meta">{where}{b} against {a} · {len(comparison.folds)} folds · '
        f"{len(comparison.measures)} measures</p>"
    )
    section = ("folds", "Models compared across folds", fold_comparison_section(comparison))
    return page_document(title, meta, [section], list(FOLD_COMPARISON_SOURCES))


def write_fold_comparison_report(
    path: str | os.PathLike[str], comparison: FoldComparison, **options: Any
) -> Path:
    """Write `fold_comparison_report(comparison, **options)` to `path` atomically."""
    return write_page(path, fold_comparison_report(comparison, **options))
