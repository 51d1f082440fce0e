"""A plain-text table (`informed._terminal.plain_table`, the slices' reports) split to
a terminal's width: blocks of its columns, each repeating the key column; a number never
cut or wrapped, a name or prose folded; a note that spans the rest of its row put under
it when it has no room beside; without a width, or where it fits, the lines as they
were written."""

from __future__ import annotations

from informed._terminal import MIN_WIDTH, PlainColumn, plain_table

COLUMNS = [
    PlainColumn("slice", 30, "<", 0, wraps=True),
    PlainColumn("n", 9),
    PlainColumn("95% interval", 18, "<", 1),
    PlainColumn("markedness", 10),
    PlainColumn("flag", 0, "<", wraps=True),
]
NAME = "a rather long region name num…"  # 30 characters, as the reports cut a name
ROWS = [
    [NAME, "1,200", "[-0.297, -0.088]", "0.501", "informedness: 25 real positives"],
    ["south", "971", "[0.562, 0.637]", "0.602", ""],
    ["… 15 more, pooled", "900", "", "(every slice: --format json)"],
]


def test_where_it_fits_or_without_a_width_each_row_is_one_line_as_written() -> None:
    whole = plain_table(COLUMNS, ROWS, None)
    assert whole == plain_table(COLUMNS, ROWS, 200)
    assert whole[1] == (
        f"{NAME:<30}  {'1,200':>9} {'[-0.297, -0.088]':<18}  {'0.501':>10}  "
        "informedness: 25 real positives"
    )
    assert (
        whole[3] == f"{'… 15 more, pooled':<30}  {'900':>9} {'':<18}  (every slice: --format json)"
    )


def test_split_at_the_narrowest_width_every_cell_whole_and_every_line_fits() -> None:
    lines = plain_table(COLUMNS, ROWS, MIN_WIDTH)
    assert max(len(line) for line in lines) <= MIN_WIDTH
    for cell in ("1,200", "971", "900", "[-0.297, -0.088]", "[0.562, 0.637]", "0.501", "0.602"):
        assert sum(cell in line for line in lines) == 1  # on one line, whole
    blocks = sum(line.startswith("slice ") for line in lines)
    assert (
        blocks >= 3
        and sum(line == "south" or line.startswith("south ") for line in lines) == blocks
    )
    assert "  (every slice: --format json)" in lines  # no room beside its row: under it
    flag = [line[20:] for line in lines[lines.index("slice               flag") :]]
    assert " ".join(" ".join(flag).split()) == "flag informedness: 25 real positives"  # folded
    assert plain_table(COLUMNS, ROWS, 10) == lines  # never narrower than MIN_WIDTH


def test_a_column_no_row_fills_is_left_out_of_the_blocks() -> None:
    rows = [[*row[:4], ""] for row in ROWS[:2]]
    lines = plain_table(COLUMNS, rows, 50)
    assert max(len(line) for line in lines) <= 50
    assert not any("flag" in line for line in lines)
    assert "flag" in plain_table(COLUMNS, rows, None)[0]
