"""Tally: multi-label evaluation with the semantics of Statistics::Contingency 0.09.

A document may be assigned several categories and may truly belong to several; a Tally
keeps one 2x2 table per declared category and the pooled (micro) table
(`informed.tally.state`). Micro statistics measure the pooled table; macro statistics
are the mean of the per-category values (`informed.tally.measures`). Every registry
measure is available, the Perl module's five also by their Perl names
(`informed.tally.perl_methods`). Undefined values are nan under the default conventions,
the Perl module's fixed values under ``conventions="statistics-contingency"``
(`informed.tally.conventions`). Counts merge exactly with ``+`` (`informed.tally.counting`)
and round-trip through JSON (`informed.tally.json_form`). Tables load on demand.

References
----------
Williams, K. (2002-2008). Statistics::Contingency 0.09, Perl module.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import TYPE_CHECKING, Any

from informed.errors import InputTypeError
from informed.tally import counting, json_form, measures
from informed.tally.conventions import Conventions
from informed.tally.display import TallyView
from informed.tally.perl_methods import PerlMethods
from informed.tally.state import Unknown
from informed.tally.stats_table import category_stats

if TYPE_CHECKING:
    from informed.table.table import Table

__all__ = ["Tally"]


class Tally(PerlMethods, TallyView):
    """One 2x2 contingency table per category, plus the pooled table (Statistics::Contingency).

    Parameters
    ----------
    categories : sequence of str
        Every category that may be assigned or correct (Perl's ``categories``). The order
        is kept: it is the order of `per_category`, of the columns of the indicator
        matrices given to `add_results`, and of the JSON. A set is sorted (it has no
        order). A non-empty list of str, distinct under the default conventions; under
        "statistics-contingency" a repeated name is kept once, as in the Perl module.
    unknown : {"error", "ignore"}, optional
        A category outside `categories` in `add_result` / `add_results`: "error" raises
        an InputError naming the document and the category; "ignore" skips it, as
        Statistics::Contingency does silently, and counts the documents that mentioned it
        in `ignored`, so nothing is lost unseen. Default: "error" under the default
        conventions, "ignore" under "statistics-contingency".
    conventions : {"default", "statistics-contingency"}
        How undefined values are reported. "default": nan (see `reason`). The other
        reproduces Statistics::Contingency 0.09 as its source computes:
        precision(0,0,0,d) = 1, precision(0,0,c>0,d) = 0, recall(a,b,0,d) = 1,
        F1(a,0,0,d) = 1, accuracy of an empty table 1 and error 0. The conventions change
        only accuracy, error, precision, recall and F1 (`f_measure`); the other registry
        measures have no Perl twin and stay nan where undefined. They also accept what
        the module accepts: repeated category names, unknown categories (ignored and
        counted) and fractional cells in `set_entries`.

    Notes
    -----
    Both conventions share these rules of the Perl module:

    - macro = mean over all declared categories, used or not; adding an unused
      category changes micro accuracy and the macro averages;
    - `set_entries` sets the pooled table only; the per-category tables are untouched;
    - a list given to `add_result` is a set: a repeated category counts once;
    - micro and macro keep their standard meaning: micro pools the counts,
      macro averages per-category values.

    Differences from the Perl module, by design: under the default conventions an unknown
    category is an error unless ``unknown="ignore"`` and repeated names in `categories`
    are an error; in both, `set_entries` refuses negative, infinite and nan cells and
    ``stats_table(0)`` is an error (Perl turns 0 into 3).

    Examples
    --------
    Five documents, the last naming an unknown category; the values and the table are
    Statistics::Contingency 0.09's output for the same five ``add_result`` calls:

    >>> t = Tally(["sports", "politics", "finance"], conventions="statistics-contingency")
    >>> t.add_result(["sports", "finance"], ["sports"])
    >>> t.add_result(["politics"], ["politics", "finance"])
    >>> t.add_result([], ["finance"])
    >>> t.add_result("sports", "sports")
    >>> t.add_result(["unknowncat"], ["sports"])
    >>> t.micro_precision(), t.micro_recall(), round(t.micro_F1(), 12)
    (0.75, 0.5, 0.6)
    >>> t.ignored
    {'unknowncat': 1}
    >>> print(t.stats_table(), end="")
    +---------------------------------------------+
    |   maR   maP  maF1    miR   miP  miF1    Err |
    | 0.556 0.667 0.600  0.500 0.750 0.600  0.267 |
    +---------------------------------------------+
    """

    __hash__ = None  # type: ignore[assignment]  # mutable: add_result changes the counts

    @classmethod
    def from_counts(
        cls,
        categories: Iterable[str],
        counts: Any,
        *,
        pooled: Any = None,
        ignored: Mapping[str, int] | None = None,
        unknown: Unknown | None = None,
        conventions: Conventions = "default",
    ) -> Tally:
        """A Tally holding given tables: ``counts[k] = [[a, b], [c, d]]`` of category k.

        Every table must sum to the same number of documents (each document falls in one
        cell of every table); `pooled` defaults to their sum (otherwise as `set_entries`
        takes it); `ignored` maps undeclared categories to the documents that named them.
        Everything is checked; an InputError says what is wrong.

        >>> t = Tally.from_counts(["x", "y"], [[[1, 0], [0, 1]], [[0, 1], [1, 0]]])
        >>> t.documents, t.pooled.tolist()
        (2, [[1, 1], [1, 1]])
        """
        return counting.from_fields(cls, categories, counts, pooled, ignored, unknown, conventions)

    def copy(self) -> Tally:
        """An independent copy: adding to one leaves the other unchanged."""
        return counting.rebuilt(Tally, self, counting.fields(self))

    # ------------------------------------------------------------------ adding
    def add_result(self, assigned: Any, correct: Any, name: str | int | None = None) -> None:
        """Add one document: the categories it was assigned and those that are correct.

        For every declared category k, exactly one cell of its table grows by one:
        a (assigned and correct), b (assigned, not correct), c (correct, not assigned) or
        d (neither); the pooled table grows by the same four totals.

        Parameters
        ----------
        assigned, correct : list, tuple, set, dict or str
            As the Perl module takes them: a list (or tuple, set) of category names; a dict
            whose keys are category names and whose values are true (Python truthiness;
            keys with false values are not mentions); or a single string for one category.
            Repeats count once.
        name : str or int, optional
            Used in error messages only (as in the Perl module); otherwise the document is
            named by its 0-based position among the documents added to this tally.

        Raises
        ------
        InputTypeError
            For another container type or a category that is not a str.
        InputError
            For a category outside `categories` when ``unknown="error"``. Nothing is
            counted when an error is raised.

        References
        ----------
        Statistics::Contingency 0.09 (Williams),
        ``$e->add_result($assigned_categories, $correct_categories, $name)``.

        >>> t = Tally(["sports", "politics"])
        >>> t.add_result({"sports": True, "politics": False}, "sports", name="doc-1")
        >>> t.table("sports").counts.tolist()
        [[1, 0], [0, 0]]
        >>> t.add_result(["sport"], [], name="doc-2")  # doctest: +ELLIPSIS
        Traceback (most recent call last):
        ...
        informed.errors.InputError: document 'doc-2': `assigned` names the category 'sport', ...
        """
        counting.add_result(self, assigned, correct, name)

    def add_results(
        self,
        assigned: Any = None,
        correct: Any = None,
        *,
        columns: Iterable[str] | None = None,
        **aliases: Any,
    ) -> None:
        """Add many documents at once from two indicator matrices, vectorised.

        Row i is a document, column j a category; entry 1 (or True) means assigned (in
        `assigned`) or correct (in `correct`). Per column, with A and C the two matrices
        and n the number of rows::

            a = sum_i A[i, j] C[i, j]      b = sum_i A[i, j] - a
            c = sum_i C[i, j] - a          d = n - a - b - c

        The result equals `add_result` called on each row (the per-document rule of
        Statistics::Contingency 0.09's ``add_result``).

        Parameters
        ----------
        assigned, correct : array_like or scipy.sparse matrix/array, shape (n, m)
            Entries 0/1 (bool, integer or float dtype); dense and sparse may be mixed.
            Also by informed's names, ``predicted=`` and ``actual=`` (scikit-learn's
            ``y_pred=``, ``y_true=``): positionally the Perl order is predicted first.
        columns : sequence of str, optional
            The category of each column; by default `categories` in their order. Declared
            categories missing from `columns` count the n documents as d. An unknown
            column raises under ``unknown="error"``; under "ignore" its documents with a
            1 in either matrix are counted in `ignored`.

        Raises
        ------
        InputError
            Shapes that differ or do not match `columns`, entries other than 0 and 1
            (named by row and column), or unknown columns. Nothing is counted then.
        InputTypeError
            A ragged list, strings or objects instead of indicators.

        >>> t = Tally(["x", "y"])
        >>> t.add_results([[1, 0], [1, 1], [0, 0]], [[1, 0], [0, 1], [0, 1]])
        >>> t.counts.tolist()
        [[[1, 1], [0, 1]], [[1, 0], [1, 1]]]
        """
        counting.add_results(self, assigned, correct, columns, aliases)

    def set_entries(self, a: int, b: int, c: int, d: int) -> None:
        """Set the four cells of the pooled (micro) table directly.

        As in Statistics::Contingency 0.09, only the pooled table is replaced: the
        per-category tables and `documents` are untouched, so afterwards micro statistics
        describe the given table while macro statistics still average the per-category
        tables (under the Perl conventions an empty category table gives 1 for
        precision, recall, F1 and accuracy; under the default conventions nan). Results
        added later are added to the given cells.

        Parameters
        ----------
        a, b, c, d : int (or float under "statistics-contingency")
            Non-negative cells: assigned and correct, assigned not correct, correct not
            assigned, neither. Whole counts in int64; the Perl conventions also take
            fractional numbers, as the module does (the pooled table is float64 then).

        References
        ----------
        Statistics::Contingency 0.09 (Williams), ``$e->set_entries($a, $b, $c, $d)``, and
        its source, which sets only the pooled table.

        >>> t = Tally(["x"], conventions="statistics-contingency")
        >>> t.set_entries(0, 0, 5, 10)
        >>> t.micro_precision(), t.micro_recall(), t.micro_accuracy()
        (0.0, 0.0, 0.6666666666666666)
        >>> t.set_entries(1.5, 0.5, 2, 4)
        >>> t.micro_precision()
        0.75
        """
        counting.set_entries(self, a, b, c, d)

    # ------------------------------------------------------------------ merging
    def merge(self, other: Tally, *, union: bool = False) -> Tally:
        """A new Tally holding the documents of both; the inputs are untouched.

        Counts, pooled tables, document counts and `ignored` are added. Both tallies must
        have the same `conventions` and `unknown` policy.

        Parameters
        ----------
        other : Tally
        union : bool
            False (the default, also ``+``): the two must declare the same categories (the
            order may differ; the result keeps the left one's). True: the result declares
            the union, in code-point order; a category unknown to one side counts that
            side's documents as d (neither assigned nor correct), which is refused if
            that side ignored the category under ``unknown="ignore"`` (its documents
            could not be placed).

        Returns
        -------
        Tally

        A Tally holds counts only, so two tallies merge exactly by adding their tables.

        >>> left, right = Tally(["x", "y"]), Tally(["y", "z"])
        >>> left.add_result("x", "x")
        >>> right.add_result("z", "y")
        >>> both = left.merge(right, union=True)
        >>> both.categories, both.documents, both.table("y").counts.tolist()
        (('x', 'y', 'z'), 2, [[0, 0], [1, 1]])
        """
        if not isinstance(other, Tally):
            msg = f"a Tally merges with a Tally; got {type(other).__name__}."
            raise InputTypeError(msg)
        return counting.rebuilt(Tally, self, counting.merged(self, other, union))

    def __add__(self, other: object) -> Tally:
        """``left + right`` = ``left.merge(right)``: same categories required."""
        if not isinstance(other, Tally):
            return NotImplemented
        return self.merge(other)

    def __eq__(self, other: object) -> bool:
        """Same conventions, policy, category set, and equal counts category by category."""
        if not isinstance(other, Tally):
            return NotImplemented
        return counting.equal(self, other)

    def __radd__(self, other: object) -> Tally:
        """``0 + tally`` is a copy, so that ``sum(tallies)`` starts from Python's 0."""
        if isinstance(other, int) and not isinstance(other, bool) and other == 0:
            return self.copy()
        return NotImplemented

    # ------------------------------------------------------------------ measures
    def micro(self, name: str, **params: float) -> float:
        """A registry measure of the pooled table: counts summed over categories, then measured.

        micro(m) = m(sum_k [[a_k, b_k], [c_k, d_k]]), or m of the table given to
        `set_entries`. E.g. micro precision = sum a / (sum a + sum b); micro error is the
        Hamming loss.

        Parameters
        ----------
        name : str
            A measure of `informed.measures.MEASURES` by any of its names ("precision",
            "f_measure", "F1", "informedness", "Youden's J", ...).
        **params : float
            ``alpha`` for the F-measures.

        Returns
        -------
        float
            nan where undefined under the default conventions (see `reason`).

        References
        ----------
        Statistics::Contingency 0.09 (Williams): "calculated over all decisions" (micro-averaging).

        >>> t = Tally(["x", "y"])
        >>> t.add_results([[1, 1], [0, 1]], [[1, 0], [0, 1]])
        >>> t.micro("precision"), t.micro("informedness")
        (0.6666666666666666, 0.5)
        """
        return measures.micro(self, name, **params)

    def per_category(self, name: str, **params: float) -> dict[str, float]:
        """A registry measure of each category's table: {category: value}.

        Parameters
        ----------
        name : str
            A registry measure by any of its names ("recall", "tpr", ...).
        **params : float
            ``alpha`` for the F-measures.

        Returns
        -------
        dict
            Category -> float, in the declared order; nan where undefined (default
            conventions).

        References
        ----------
        Statistics::Contingency 0.09 (Williams), ``category_stats`` (here for any registry measure).

        >>> t = Tally(["x", "y"])
        >>> t.add_results([[1, 1], [0, 1]], [[1, 0], [0, 1]])
        >>> t.per_category("recall")
        {'x': 1.0, 'y': 1.0}
        """
        return measures.per_category(self, name, **params)

    def macro(self, name: str, *, undefined: str = "propagate", **params: float) -> float:
        """The mean of a registry measure over all declared categories.

        macro(m) = (1 / K) sum_k m([[a_k, b_k], [c_k, d_k]]), K = number of declared
        categories, whether used or not, as in the Perl module. The sum is exact before its one
        rounding (`math.fsum`), so the order of the categories cannot change the last bit.

        Parameters
        ----------
        name : str
            A registry measure by any of its names ("recall", "tpr", ...).
        undefined : {"propagate", "omit"}
            "propagate" (default): nan if any category's value is nan. "omit": the mean
            over the categories where it is defined (scikit-learn's
            ``zero_division=np.nan``); nan if none is. Under the Perl conventions the five
            Perl statistics are never nan.
        **params : float
            ``alpha`` for the F-measures.

        Returns
        -------
        float

        References
        ----------
        Statistics::Contingency 0.09 (Williams): "calculated for each category and then averaged"
        (macro-averaging).

        >>> t = Tally(["x", "y"])
        >>> t.add_results([[1, 0], [0, 0]], [[1, 0], [0, 1]])
        >>> t.macro("recall"), t.macro("precision"), t.macro("precision", undefined="omit")
        (0.5, nan, 1.0)
        """
        return measures.macro(self, name, undefined=undefined, **params)

    def reason(self, name: str, category: str | None = None) -> str | None:
        """Why a measure is nan for one category (or, with no category, for the pooled
        table); None when it is defined. The registry names the margin that vanished.

        Parameters
        ----------
        name : str
            A registry measure by any of its names ("recall", "tpr", ...).
        category : str, optional
            A declared category; None for the pooled (micro) table.

        Returns
        -------
        str or None

        References
        ----------
        An undefined measure is nan, and the registry of measures knows why
        (`informed.measures.registry.undefined_reason`).

        >>> t = Tally(["x", "y"])
        >>> t.add_result("x", "x")
        >>> t.reason("precision", "y"), t.reason("precision")
        ('no +P predictions', None)
        """
        return measures.reason(self, name, category)

    # ------------------------------------------------------------------ views
    def category_stats(self) -> dict[str, dict[str, float | int]]:
        """Per category, its cells and the Perl module's five statistics, under its names.

        {category: {"a", "b", "c", "d", "accuracy", "error", "precision", "recall", "F1"}},
        as the Perl module's ``category_stats`` hash (which also holds a, b, c, d).

        Returns
        -------
        dict
            Plain Python ints and floats, categories in the declared order.

        References
        ----------
        Statistics::Contingency 0.09 (Williams), ``$e->category_stats``.

        >>> t = Tally(["sports"])
        >>> t.add_result("sports", "sports")
        >>> t.category_stats()["sports"]["recall"]
        1.0
        """
        return category_stats(self)

    def table(self, category: str) -> Table:
        """The 2x2 `Table` of one category: Table.binary(tp=a, fp=b, fn=c, tn=d).

        Rows are predicted (+, -), columns actual (+, -), as everywhere in `informed`.

        >>> t = Tally(["x"])
        >>> t.add_result("x", [])
        >>> t.table("x").one_vs_rest("+")
        OneVsRest(label='+', tp=0.0, fp=1.0, fn=0.0, tn=0.0)
        """
        from informed.table.table import Table

        (a, b), (c, d) = self._counts[self._code(category)].tolist()
        return Table.binary(tp=a, fp=b, fn=c, tn=d)

    def pooled_table(self) -> Table:
        """The pooled (micro) table as a 2x2 `Table` (rows predicted, columns actual)."""
        from informed.table.table import Table

        (a, b), (c, d) = self._pooled.tolist()
        return Table.binary(tp=a, fp=b, fn=c, tn=d)

    # ------------------------------------------------------------------ JSON
    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready dict that `Tally.from_dict` restores exactly (its keys: see
        `informed.tally.json_form`; categories are a list, so their order survives)."""
        return json_form.to_dict(self)

    def to_json(self) -> str:
        """Serialise to JSON; `Tally.from_json` restores an equal Tally (same category order).

        >>> t = Tally(["x", "y"])
        >>> t.add_result("x", ["x", "y"])
        >>> Tally.from_json(t.to_json()) == t
        True
        """
        return json_form.to_json(self)

    @classmethod
    def from_dict(cls, data: Any) -> Tally:
        """Restore a Tally from `to_dict` output, validating every field: an edited or
        truncated state (a missing key, a negative count, tables that do not sum to
        `documents`, ...) is an InputError rather than merged."""
        return json_form.from_dict(cls, data)

    @classmethod
    def from_json(cls, text: str) -> Tally:
        """Parse `to_json` output; NaN and Infinity tokens are refused."""
        return json_form.from_json(cls, text)
