"""The Tally summary: multi-label tallies with the semantics of Statistics::Contingency.

Lowest first: `conventions` holds the Perl module's values for undefined measures,
`names` and `indicators` read the two input forms (category names, 0/1 matrices),
`state` what a Tally holds, `counting` how documents and merges change it, `measures`
its micro, macro and per-category measures, `stats_table` the Perl module's printed table
and per-category hash, `perl_methods` the Perl-named methods, `json_form` the JSON form
of its state, `tally` the `Tally` class that documents and delegates to them, and
`document` its measures computed once (`TallySummary`) and their JSON report.
"""

from __future__ import annotations

from informed.tally.document import (
    TallySummary,
    summarize_tally,
    tally_report,
)
from informed.tally.tally import (
    Tally,
)

__all__ = [
    "Tally",
    "TallySummary",
    "summarize_tally",
    "tally_report",
]
