"""The Statistics::Contingency methods of a Tally, under the Perl module's names.

The ten statistics micro_accuracy ... macro_F1 are `Tally.micro` and `Tally.macro` of the
registry measures accuracy, error, precision, recall and f_measure; `stats_table` prints
seven of them as the Perl module does (`informed.tally.stats_table`). `Tally` inherits
them from `PerlMethods`.

References
----------
Williams, K. (2002-2008). Statistics::Contingency 0.09, Perl module.
"""

from __future__ import annotations

from informed.tally import measures
from informed.tally.state import TallyState
from informed.tally.stats_table import stats_table

__all__ = ["PerlMethods"]


class PerlMethods(TallyState):
    """The Perl module's named statistics and its printed table, for `Tally` to inherit."""

    def micro_accuracy(self) -> float:
        """Micro-averaged accuracy: (a + d) / (a + b + c + d) of the pooled table.

        Statistics::Contingency's ``micro_accuracy``."""
        return measures.micro(self, "accuracy")

    def micro_error(self) -> float:
        """Micro-averaged error: (b + c) / (a + b + c + d) of the pooled table.

        Statistics::Contingency's ``micro_error``. With no `set_entries`, this is
        scikit-learn's ``hamming_loss``."""
        return measures.micro(self, "error")

    def micro_precision(self) -> float:
        """Micro-averaged precision: a / (a + b) of the pooled table.

        Statistics::Contingency's ``micro_precision``."""
        return measures.micro(self, "precision")

    def micro_recall(self) -> float:
        """Micro-averaged recall: a / (a + c) of the pooled table.

        Statistics::Contingency's ``micro_recall``."""
        return measures.micro(self, "recall")

    def micro_F1(self) -> float:  # noqa: N802  # the Perl module's name
        """Micro-averaged F1: 2a / (2a + b + c) of the pooled table.

        Statistics::Contingency's ``micro_F1``."""
        return measures.micro(self, "f_measure")

    def macro_accuracy(self) -> float:
        """Macro-averaged accuracy: mean over categories of (a + d) / (a + b + c + d).

        Equal to micro accuracy unless `set_entries` was used (Statistics::Contingency:
        "will always give the same number")."""
        return measures.macro(self, "accuracy")

    def macro_error(self) -> float:
        """Macro-averaged error: mean over categories of (b + c) / (a + b + c + d).

        Statistics::Contingency's ``macro_error``."""
        return measures.macro(self, "error")

    def macro_precision(self) -> float:
        """Macro-averaged precision: mean over categories of a / (a + b).

        Statistics::Contingency's ``macro_precision``."""
        return measures.macro(self, "precision")

    def macro_recall(self) -> float:
        """Macro-averaged recall: mean over categories of a / (a + c).

        Statistics::Contingency's ``macro_recall``."""
        return measures.macro(self, "recall")

    def macro_F1(self) -> float:  # noqa: N802  # the Perl module's name
        """Macro-averaged F1: mean over categories of 2a / (2a + b + c).

        Statistics::Contingency's ``macro_F1``."""
        return measures.macro(self, "f_measure")

    def stats_table(self, figures: int = 3) -> str:
        """Statistics::Contingency's table of macro and micro recall, precision, F1 and error.

        Columns maR maP maF1 miR miP miF1 Err, each value with `figures` significant
        figures by the Perl module's ``_sig_figs`` rule (decimals = figures -
        int(log10 x)); see `informed.tally.stats_table.format_stats_table`. Under the
        default conventions an undefined value prints as "nan".

        Parameters
        ----------
        figures : int
            Significant figures, at least 1; 3 by default, as in the Perl module.

        Returns
        -------
        str
            Four lines, each ending in a newline, as the Perl module returns it.

        References
        ----------
        Statistics::Contingency 0.09 (Williams), ``$e->stats_table``; the `Tally` example
        shows its output for five documents, byte for byte.
        """
        return stats_table(self, figures)
