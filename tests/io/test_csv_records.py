"""The records of a CSV file counted on its bytes (`informed.io.csv_records`, for engines
that read the file themselves) equal the records the standard library's reader reads,
whatever the quotes, line ends and block boundaries; a file it cannot read is refused."""

from __future__ import annotations

import csv
import io
from pathlib import Path

import numpy as np
import pytest

from informed.errors import InputError
from informed.io.csv_records import csv_header, data_records

_PIECES = ["a", "b", ",", '"', '""', "\n", "\r", "\r\n", " ", "é", '5" tv', '"x,\ny"']
_ENDS = ["\n", "\r\n", "\r"]


def _regular(rng: np.random.Generator) -> str:
    """Records of plain and quoted fields (quoted ones holding commas, line ends and
    doubled quotes), blank lines among them, the last line end sometimes left out."""
    records = []
    for _ in range(rng.integers(1, 12)):
        fields = []
        for _ in range(rng.integers(0, 4)):
            if rng.random() < 0.4:
                inner = "".join(rng.choice(["a", ",", "\n", "\r", "\r\n", '""', "é"], 4))
                fields.append(f'"{inner}"')
            else:
                fields.append("".join(rng.choice(["a", "b", " ", "é"], rng.integers(0, 3))))
        records.append(",".join(fields) + str(rng.choice(_ENDS)))
    text = "".join(records)
    return text if rng.random() < 0.7 else text.rstrip("\r\n")


def _standard(data: bytes) -> int | None:
    """The oracle: records below the header by `csv.reader` (strict), None if it fails."""
    try:
        reader = csv.reader(io.StringIO(data.decode("utf-8"), newline=""), strict=True)
        return max(sum(1 for _ in reader) - 1, 0)
    except csv.Error:
        return None


@pytest.mark.parametrize("block", [3, 8, 64, 1 << 22])
def test_records_counted_on_the_bytes_equal_the_standard_readers(
    tmp_path: Path, block: int
) -> None:
    """Random files of quotes (regular and not), commas, \\n, \\r\\n, lone \\r, blank
    lines and multi-line quoted fields, cut in blocks of any size: the count equals the
    standard reader's, or both refuse the file."""
    rng = np.random.default_rng(block)
    file = tmp_path / "x.csv"
    for _ in range(300):
        if rng.random() < 0.5:
            data = _regular(rng).encode("utf-8")
        else:  # quotes anywhere: mostly files the standard reader refuses
            data = "".join(rng.choice(_PIECES, rng.integers(1, 40))).encode("utf-8")
        file.write_bytes(b"y,p\n" + data)
        expected = _standard(b"y,p\n" + data)
        if expected is None:
            with pytest.raises(InputError, match="malformed UTF-8 CSV"):
                data_records(file, block_bytes=block)
        else:
            assert data_records(file, block_bytes=block) == expected, data


def test_a_header_is_read_and_checked_as_the_file_route_checks_it(tmp_path: Path) -> None:
    """A byte-order mark dropped, a quoted name with a comma kept whole; duplicate names
    and a missing column refused with the file route's words; gzip read through."""
    import gzip

    file = tmp_path / "x.csv"
    file.write_bytes(b'\xef\xbb\xbfy,"p,q"\n1,2\n')
    assert csv_header(file, ["y", "p,q"]) == ["y", "p,q"]
    file.write_bytes(b"y,y,p\n1,0,1\n")
    with pytest.raises(InputError, match=r"duplicate column names \['y'\]"):
        csv_header(file, ["y"])
    file.write_bytes(b"y,p\n1,0\n")
    with pytest.raises(InputError, match=r"no column 's'; the columns are \['y', 'p'\]"):
        csv_header(file, ["y", "s"])
    packed = tmp_path / "x.csv.gz"
    packed.write_bytes(gzip.compress(b"y,p\n1,0\n0,0"))
    assert csv_header(packed, ["p"]) == ["y", "p"] and data_records(packed) == 2
