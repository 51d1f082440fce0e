"""The generated sections of docs/reproductions.md: write them, read them back, compare them.

A generated section sits between two markers, so the prose around it survives when a
script rewrites it:

    <!-- BEGIN GENERATED name (examples/script.py) -->
    ...
    <!-- END GENERATED name -->

Figures are SVG files under docs/figures/, drawn by the report's plot functions. Both
scripts take `--check`: nothing is written, and the exit status is 1 when the document
or a figure differs from what the script produces today (tests/examples runs the same
comparison).
"""

from __future__ import annotations

import argparse
import math
import re
import sys
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
DOC = ROOT / "docs" / "reproductions.md"
FIGURES = ROOT / "docs" / "figures"

SECTION = re.compile(
    r"<!-- BEGIN GENERATED (?P<name>[\w-]+) \((?P<script>[^)]*)\) -->\n"
    r"(?P<body>.*?)"
    r"<!-- END GENERATED (?P=name) -->",
    re.S,
)
NUMBER = re.compile(r"(?<![\w.])(-?\d+\.\d+)")
TEXT = re.compile(r"<text\b[^>]*>([^<]*)</text>")

UNITS = 2
"""Numbers may differ by this many units of their last printed digit between machines
(BLAS kernels differ in the last bits, which a multilayer perceptron can carry a little
further); everything else must be identical."""


@dataclass
class Output:
    """What one script produces: markdown sections and SVG figures, by name."""

    script: str
    sections: dict[str, str] = field(default_factory=dict)
    figures: dict[str, str] = field(default_factory=dict)


def fmt(value: float, digits: int = 3) -> str:
    """A number for the document: fixed decimals, "nan" for undefined, never "-0.000"."""
    if math.isnan(value):
        return "nan"
    text = f"{value:.{digits}f}"
    return text[1:] if text.startswith("-") and float(text) == 0 else text


def markdown(header: Sequence[str], rows: Iterable[Sequence[object]], left: int = 1) -> str:
    """A markdown table: the first `left` columns left-aligned, the others right-aligned
    (numbers). Blank lines around it, so that it never joins a paragraph."""
    align = [":---"] * left + ["---:"] * (len(header) - left)
    lines = ["| " + " | ".join(header) + " |", "|" + "|".join(align) + "|"]
    lines += ["| " + " | ".join(str(x) for x in row) + " |" for row in rows]
    return "\n" + "\n".join(lines) + "\n\n"


def sections(text: str) -> dict[str, str]:
    """The generated sections of a document: name -> body."""
    return {m["name"]: m["body"] for m in SECTION.finditer(text)}


def normalised(body: str) -> str:
    """A section as it is written: no leading or trailing blank line, none doubled."""
    return re.sub(r"\n{3,}", "\n\n", body).strip("\n") + "\n"


def replace(text: str, output: Output) -> str:
    """`text` with each of `output`'s sections rewritten; every section must have markers."""
    missing = [name for name in output.sections if name not in sections(text)]
    if missing:
        msg = (
            f"{DOC.name} has no markers for the generated section(s) {missing}; add "
            f"'<!-- BEGIN GENERATED {missing[0]} ({output.script}) -->' and "
            f"'<!-- END GENERATED {missing[0]} -->' where it belongs."
        )
        raise SystemExit(msg)

    def body(match: re.Match[str]) -> str:
        name = match["name"]
        if name not in output.sections:
            return match[0]
        content = normalised(output.sections[name])
        return (
            f"<!-- BEGIN GENERATED {name} ({output.script}) -->\n{content}"
            f"<!-- END GENERATED {name} -->"
        )

    return SECTION.sub(body, text)


def standalone(svg: str) -> str:
    """An inline <svg> of the report (no namespace, width 100 %) as an SVG file."""
    view = re.search(r'viewBox="0 0 ([\d.]+) ([\d.]+)"', svg)
    if view is None:  # pragma: no cover - the report's SVG always has a viewBox
        msg = "an SVG without a viewBox"
        raise ValueError(msg)
    head = f'<svg xmlns="http://www.w3.org/2000/svg" width="{view[1]}pt" height="{view[2]}pt"'
    return re.sub(r'<svg id="([^"]+)" width="100%" style="[^"]*"', rf'{head} id="\1"', svg, count=1)


def svg_texts(svg: str) -> list[str]:
    """The text drawn in a figure, in order: what must not change between machines."""
    return TEXT.findall(svg)


def differences(expected: str, found: str, where: str) -> list[str]:
    """Where `found` differs from `expected` beyond `UNITS` in a number's last digit."""
    want, got = NUMBER.split(expected), NUMBER.split(found)
    if len(want) != len(got):
        return [f"{where}: the text differs:\n{_first_difference(expected, found)}"]
    problems = []
    for i, (a, b) in enumerate(zip(want, got, strict=True)):
        if a == b:
            continue
        if i % 2 == 0:  # text between numbers
            problems.append(f"{where}: the text differs:\n{_first_difference(a, b)}")
            continue
        decimals = len(a.partition(".")[2])
        if (
            len(b.partition(".")[2]) != decimals
            or abs(float(a) - float(b)) > UNITS * 10.0**-decimals * 1.0001
        ):
            problems.append(f"{where}: {b} where the document has {a}")
    return problems


def _first_difference(a: str, b: str) -> str:
    lines_a, lines_b = a.splitlines(), b.splitlines()
    for line_a, line_b in zip(lines_a, lines_b, strict=False):
        if line_a != line_b:
            return f"  document: {line_a}\n  script:   {line_b}"
    return f"  the document has {len(lines_a)} lines, the script {len(lines_b)}"


def check(output: Output) -> list[str]:
    """Every difference between the committed document and figures and `output`."""
    problems = []
    committed = sections(DOC.read_text(encoding="utf-8"))
    for name, body in output.sections.items():
        if name not in committed:
            problems.append(f"{DOC.name}: no generated section {name!r}")
            continue
        problems += differences(committed[name], normalised(body), f"{DOC.name} [{name}]")
    for name, svg in output.figures.items():
        path = FIGURES / f"{name}.svg"
        if not path.exists():
            problems.append(f"{path.relative_to(ROOT)} is missing")
            continue
        want, got = svg_texts(path.read_text(encoding="utf-8")), svg_texts(svg)
        problems += differences("\n".join(want), "\n".join(got), str(path.relative_to(ROOT)))
    return problems


def write(output: Output) -> None:
    """Rewrite the document's sections and the figures."""
    DOC.write_text(replace(DOC.read_text(encoding="utf-8"), output), encoding="utf-8")
    FIGURES.mkdir(exist_ok=True)
    for name, svg in output.figures.items():
        (FIGURES / f"{name}.svg").write_text(standalone(svg) + "\n", encoding="utf-8")


def run(generate: Callable[[], Output], argv: Iterable[str] | None, description: str) -> int:
    """The command line of a reproduction script: write, or `--check`."""
    parser = argparse.ArgumentParser(description=description)
    parser.add_argument(
        "--check",
        action="store_true",
        help="write nothing; exit 1 if docs/reproductions.md or a figure differs",
    )
    options = parser.parse_args(None if argv is None else list(argv))
    output = generate()
    if options.check:
        problems = check(output)
        for problem in problems:
            print(problem, file=sys.stderr)
        return 1 if problems else 0
    write(output)
    figures = ", ".join(f"docs/figures/{name}.svg" for name in output.figures)
    print(
        f"wrote {len(output.sections)} section(s) of docs/reproductions.md"
        + (f" and {figures}" if figures else "")
    )
    return 0
