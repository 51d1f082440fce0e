"""The Perl conventions against the real Statistics::Contingency 0.09, when it is installed.

This is extra evidence, not the primary one (the PITFALLS reference vectors in
test_tally_golden.py are). It runs `perl` with the module on random experiments: unused
categories, unknown categories, the three input forms of add_result and set_entries in
the middle of a run, and compares every statistic printed with %.17g (exact doubles) and
the stats tables byte for byte. Debian/Ubuntu: apt-get install libstatistics-contingency-perl.

Issue 10, item 4: the Perl conventions accept what the module accepts (a category list
with repeats, unknown categories in a document, fractional set_entries cells), through
the Tally, the JSON-lines reader and `informed tally`, each checked against the module.
"""

from __future__ import annotations

import json
import random
import shutil
import subprocess
from pathlib import Path

import pytest

from informed.cli import main
from informed.io import read_jsonl
from informed.tally import Tally
from informed.tally.stats_table import format_stats_table

PERL = shutil.which("perl")

SCRIPT = r"""
use strict;
use warnings;
use Statistics::Contingency;
my @cats = split /,/, shift @ARGV;
my $s = Statistics::Contingency->new(categories => \@cats);
sub side {
  my ($form, $text) = @_;
  my @names = split /,/, $text;
  return $names[0] if $form eq 'string';
  return { map { ($_ => 1) } @names } if $form eq 'hash';
  return \@names;
}
while (my $line = <STDIN>) {
  chomp $line;
  my @f = split /\t/, $line, -1;
  if ($f[0] eq 'S') { $s->set_entries(map { $_ + 0 } @f[1..4]); next; }  # numbers, as callers pass
  $s->add_result(side($f[1], $f[2]), side($f[1], $f[3]), "doc");
}
my @m = qw(precision recall F1 accuracy error);
printf "micro %s\n", join ' ', map { my $x = "micro_$_"; sprintf '%.17g', $s->$x } @m;
printf "macro %s\n", join ' ', map { my $x = "macro_$_"; sprintf '%.17g', $s->$x } @m;
my $stats = $s->category_stats;
for my $cat (sort keys %$stats) {
  my $v = $stats->{$cat};
  printf "cat %s %s\n", $cat, join ' ', (map { $v->{$_} } qw(a b c d)), map { sprintf '%.17g', $v->{$_} } @m;
}
for my $figs (3, 2, 1, 4) { print "table $figs\n", $s->stats_table($figs); }
"""


def _module_available() -> str | None:
    if PERL is None:
        return "perl is not installed"
    probe = subprocess.run(
        [PERL, "-MStatistics::Contingency", "-e", "print $Statistics::Contingency::VERSION"],
        capture_output=True,
        text=True,
        check=False,
    )
    if probe.returncode != 0:
        return "Statistics::Contingency is not installed (libstatistics-contingency-perl)"
    if probe.stdout.strip() != "0.09":
        return f"Statistics::Contingency {probe.stdout.strip()} is installed, not 0.09"
    return None


REASON = _module_available()
pytestmark = pytest.mark.skipif(REASON is not None, reason=REASON or "")

STATISTICS = ("precision", "recall", "f_measure", "accuracy", "error")


def _experiment(seed: int) -> tuple[list[str], list[list[str]]]:
    rng = random.Random(seed)
    categories = [f"c{j}" for j in range(rng.randint(1, 6))]
    universe = [*categories, "unknown1"]
    used = categories[: max(1, len(categories) - rng.randint(0, 2))]  # some never appear
    ops: list[list[str]] = []
    for _ in range(rng.randint(0, 30)):
        if rng.random() < 0.08:
            ops.append(["S", *(str(rng.randint(0, 6)) for _ in range(4))])
            continue
        pool = [*used, "unknown1"] if rng.random() < 0.2 else used
        assigned = sorted(set(rng.sample(pool, rng.randint(0, len(pool)))))
        correct = sorted(set(rng.sample(pool, rng.randint(0, len(pool)))))
        if len(assigned) == 1 and len(correct) == 1 and rng.random() < 0.5:
            form = "string"
        else:
            form = rng.choice(["array", "hash"])
        ops.append(["R", form, ",".join(assigned), ",".join(correct)])
    assert set(universe) >= set(categories)
    return categories, ops


def _number(text: str) -> int | float:
    return int(text) if text.isdigit() else float(text)


def _python(categories: list[str], ops: list[list[str]]) -> Tally:
    t = Tally(categories, conventions="statistics-contingency")  # unknown: ignored by default
    for op in ops:
        if op[0] == "S":
            t.set_entries(*(_number(x) for x in op[1:]))
            continue
        form, assigned, correct = (
            op[1],
            op[2].split(",") if op[2] else [],
            op[3].split(",") if op[3] else [],
        )
        if form == "string":
            t.add_result(assigned[0], correct[0], name="doc")
        elif form == "hash":
            t.add_result(dict.fromkeys(assigned, 1), dict.fromkeys(correct, 1), name="doc")
        else:
            t.add_result(assigned, correct, name="doc")
    return t


def _perl(categories: list[str], ops: list[list[str]]) -> str:
    assert PERL is not None
    text = "".join("\t".join(op) + "\n" for op in ops)
    run = subprocess.run(
        [PERL, "-e", SCRIPT, ",".join(categories)],
        input=text,
        capture_output=True,
        text=True,
        check=True,
    )
    return run.stdout


def _assert_same(stdout: str, t: Tally) -> None:
    """Micro and per-category statistics bit for bit, macro to 1e-15 (Perl sums in hash
    order, which varies between runs), the stats tables byte for byte."""
    lines = stdout.split("\n")
    micro = [float(x) for x in lines[0].split()[1:]]
    assert micro == [t.micro(name) for name in STATISTICS]
    macro = [float(x) for x in lines[1].split()[1:]]
    assert macro == pytest.approx([t.macro(name) for name in STATISTICS], abs=1e-15)
    stats = t.category_stats()
    rows = [line.split() for line in lines if line.startswith("cat ")]
    assert sorted(row[1] for row in rows) == sorted(t.categories)
    for row in rows:
        ours = stats[row[1]]
        assert [int(x) for x in row[2:6]] == [ours["a"], ours["b"], ours["c"], ours["d"]]
        assert [float(x) for x in row[6:]] == [
            ours[k] for k in ("precision", "recall", "F1", "accuracy", "error")
        ]
    tables = stdout.split("table ")[1:]
    for chunk in tables:
        figures, table = chunk.split("\n", 1)
        _assert_same_table(table, t, int(figures))


def _assert_same_table(perl_table: str, t: Tally, figures: int) -> None:
    """The stats table byte for byte, except that a macro value whose sum lies within
    rounding of a printing boundary may print either way: Perl sums the categories in
    hash order, which changes from run to run, so its last bit is not reproducible."""
    ours = t.stats_table(figures)
    if perl_table == ours:
        return
    values = [
        t.macro("recall"),
        t.macro("precision"),
        t.macro("f_measure"),
        t.micro("recall"),
        t.micro("precision"),
        t.micro("f_measure"),
        t.micro("error"),
    ]
    either = [
        {
            format_stats_table([*values[:k], v * f, *values[k + 1 :]], figures)
            for f in (1 - 1e-13, 1.0, 1 + 1e-13)
        }
        for k, v in enumerate(values[:3])
    ]
    assert any(perl_table in tables for tables in either), (perl_table, ours)


@pytest.mark.parametrize("seed", range(40))
def test_against_the_perl_module(seed: int) -> None:
    categories, ops = _experiment(seed)
    _assert_same(_perl(categories, ops), _python(categories, ops))


# ---------------------------------------------------------------------- what the module accepts
# binary fractions: every sum of them and of whole counts is exact, so the order in which
# the module and a Tally add to a fractional cell cannot change a bit
FRACTIONS = ["0", "0.5", "1.25", "3", "2.75", "0.0009765625", "7.5", "12.125"]
DECIMALS = ["0.001", "0.1", "1e-9", "2.3", "0"]


def _accepting(seed: int, fractions: list[str] = FRACTIONS) -> tuple[list[str], list[list[str]]]:
    """An experiment with a repeated category in the list, unknown categories in the
    documents and fractional set_entries cells."""
    rng = random.Random(1000 + seed)
    categories, ops = _experiment(seed)
    repeated = [*categories, *rng.sample(categories, rng.randint(1, len(categories)))]
    rng.shuffle(repeated)
    for op in ops:
        if op[0] == "S":
            op[1:] = [rng.choice(fractions) for _ in range(4)]
    ops.insert(rng.randint(0, len(ops)), ["S", *(rng.choice(fractions) for _ in range(4))])
    ops.append(["R", "array", "unknown1,unknown2", categories[0]])
    return repeated, ops


def _ignored(categories: list[str], ops: list[list[str]]) -> dict[str, int]:
    """Brute force: per unknown category, the documents that name it on either side."""
    counts: dict[str, int] = {}
    for op in ops:
        if op[0] == "R":
            named = set(op[2].split(",") if op[2] else []) | set(op[3].split(",") if op[3] else [])
            for name in named - set(categories):
                counts[name] = counts.get(name, 0) + 1
    return dict(sorted(counts.items()))


@pytest.mark.parametrize("seed", range(25))
def test_what_the_module_accepts(seed: int) -> None:
    """Repeats in the category list are kept once, unknown categories are skipped and
    counted, fractional set_entries cells are taken: the same statistics as the module."""
    categories, ops = _accepting(seed)
    t = _python(categories, ops)
    assert t.categories == tuple(dict.fromkeys(categories))
    assert t.ignored == _ignored(categories, ops)
    assert t.unknown == "ignore"
    _assert_same(_perl(categories, ops), t)


@pytest.mark.parametrize("seed", range(10))
def test_decimal_cells_agree_to_rounding(seed: int) -> None:
    """Cells such as 0.1 are not binary fractions: the module adds a document's ones to a
    cell one at a time, a Tally adds them at once, so the micro values may differ in the
    last bits (never more)."""
    categories, ops = _accepting(seed, DECIMALS)
    t = _python(categories, ops)
    lines = _perl(categories, ops).split("\n")
    micro = [float(x) for x in lines[0].split()[1:]]
    assert micro == pytest.approx([t.micro(name) for name in STATISTICS], rel=1e-14, abs=0)


def _jsonl(ops: list[list[str]], header: list[str] | None) -> str:
    lines = [] if header is None else [json.dumps({"categories": header})]
    for op in ops:
        if op[0] == "S":
            lines.append(json.dumps({"set_entries": [_number(x) for x in op[1:]]}))
            continue
        assigned = op[2].split(",") if op[2] else []
        correct = op[3].split(",") if op[3] else []
        if op[1] == "string":
            lines.append(json.dumps({"assigned": assigned[0], "correct": correct[0]}))
        elif op[1] == "hash":
            lines.append(
                json.dumps(
                    {"assigned": dict.fromkeys(assigned, 1), "correct": dict.fromkeys(correct, 1)}
                )
            )
        else:
            lines.append(json.dumps({"assigned": assigned, "correct": correct}))
    return "\n".join(lines) + "\n"


@pytest.mark.parametrize("seed", range(15))
@pytest.mark.parametrize("declared", [True, False])
def test_json_lines_with_set_entries(seed: int, declared: bool) -> None:
    """The same experiments as JSON lines, with {"set_entries": [...]} lines: declared by
    a header (with repeats), or undeclared (the categories are those the file names)."""
    categories, ops = _accepting(seed)
    if not declared:
        categories = sorted(
            {c for op in ops if op[0] == "R" for c in (op[2] + "," + op[3]).split(",") if c}
        )
    text = _jsonl(ops, categories if declared else None)
    t = read_jsonl(text.splitlines(), conventions="statistics-contingency")
    assert t.ignored == (_ignored(categories, ops) if declared else {})
    _assert_same(_perl(categories, ops), t)


def test_the_command_reads_set_entries_and_reports_the_ignored(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """`informed tally --conventions statistics-contingency` on such a file: the module's
    statistics table, the ignored count in JSON and text; --unknown error refuses it."""
    categories, ops = _accepting(3)
    path = tmp_path / "docs.jsonl"
    path.write_text(_jsonl(ops, categories))
    stdout = _perl(categories, ops)
    perl_table = stdout.split("table 3\n")[1].split("table ")[0]
    command = ["tally", str(path), "--conventions", "statistics-contingency"]
    assert main([*command, "--format", "json"]) == 0
    document = json.loads(capsys.readouterr().out)
    assert document["stats_table"] == perl_table
    assert document["ignored"] == _ignored(categories, ops)
    assert main(command) == 0
    text = capsys.readouterr().out
    assert perl_table.strip() in text
    assert "Ignored 2 undeclared categories (documents naming each): 'unknown1' (" in text
    assert main([*command, "--unknown", "error"]) == 2
    err = capsys.readouterr().err
    assert "unknown1" in err and "Traceback" not in err
