"""Small helpers are written once (`informed._common`, `informed.coding.labels`), and source
comments say their point in place instead of pointing at files outside the repository."""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np
import pytest

from informed.coding.labels import as_vector
from informed.errors import InputError, InputTypeError
from informed.ranking import Ranking

SOURCE = Path(__file__).resolve().parents[1] / "src" / "informed"
MODULES = sorted(SOURCE.rglob("*.py"))
# Being rewritten by the issue-11 work (label coding); they keep their own loops for now.
CODING = {"coding/labels.py", "table/counting.py"}


def _grep(pattern: str, skip: set[str] = frozenset()) -> list[str]:  # type: ignore[assignment]
    found = []
    for path in MODULES:
        name = path.relative_to(SOURCE).as_posix()
        if name in skip:
            continue
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            if re.search(pattern, line):
                found.append(f"{name}:{number}: {line.strip()}")
    return found


@pytest.mark.parametrize(
    ("pattern", "where"),
    [
        (r"def (_?as_vector)\b", "coding/labels.py"),
        (r"def (_?readonly)\b", "_common.py"),
        (r"def (_?check_choice)\b", "_common.py"),
        (r"def (_?json_float)\b", "_common.py"),
        (r"def (_?json_number)\b", "_common.py"),
        (r"def (_?printable)\b", "_common.py"),
    ],
)
def test_a_helper_is_defined_once(pattern: str, where: str) -> None:
    assert [hit.split(":")[0] for hit in _grep(pattern)] == [where]


def test_no_inline_kind_keys() -> None:
    """`keyed(x)` is the kind-aware key of a label, not `(label_kind(x), x)` written out."""
    assert _grep(r"\(label_kind\((\w+)\), \1\)", CODING) == []


def test_no_hand_written_nan_to_none_or_read_only_flag() -> None:
    assert _grep(r"None if (np|math)\.isnan", {"_common.py"}) == []
    assert _grep(r"setflags\(write=False\)", {"_common.py"}) == []


def test_no_comment_points_outside_the_repository() -> None:
    """PITFALLS, DESIGN, RELIABILITY and STYLE live outside the repository: say the point."""
    assert _grep(r"PITFALLS|DESIGN\.md|RELIABILITY|STYLE\.md|shared/(seeds|golden)") == []


def test_one_as_vector_for_tables_and_rankings() -> None:
    """The same input errors read the same, wherever the vector is taken."""
    for call in (
        lambda v: as_vector(v, "actual"),
        lambda v: Ranking.from_scores(actual=v, scores=[1, 2, 3], positive="a"),
    ):
        with pytest.raises(InputTypeError, match=r"`actual` must be an array-like .* bare string"):
            call("abc")
        with pytest.raises(InputTypeError, match="`actual` must be an ordered array-like"):
            call({"a", "b", "c"})
    with pytest.raises(InputError, match=r"one-dimensional .* \(a row vector"):
        as_vector(np.array([[1, 2, 3]]), "scores", labels=False)
    assert as_vector(np.array([[1], [2]]), "scores", labels=False).tolist() == [1, 2]
    assert as_vector(["a", 1], "actual").dtype == object  # kinds kept for the check
