"""The Tally summary: multi-label tallies with the semantics of Statistics::Contingency.

`tally` counts (`add_result`, `add_results`, `set_entries`, merge, JSON), `conventions`
holds the Perl module's fixed values for undefined measures and its printed table, and
`document` the JSON document of a Tally.
"""

from __future__ import annotations

from informed.tally.document import (
    tally_report,
)
from informed.tally.tally import (
    Tally,
)

__all__ = [
    "Tally",
    "tally_report",
]
