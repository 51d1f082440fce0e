"""The Perl conventions against the real Statistics::Contingency 0.09, when it is installed.

This is extra evidence, not the primary one (the PITFALLS reference vectors in
test_tally_golden.py are). It runs `perl` with the module on random experiments: unused
categories, unknown categories, the three input forms of add_result and set_entries in
the middle of a run, and compares every statistic printed with %.17g (exact doubles) and
the stats tables byte for byte. Debian/Ubuntu: apt-get install libstatistics-contingency-perl.
"""

from __future__ import annotations

import random
import shutil
import subprocess

import pytest

from informed.tally import Tally

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
  if ($f[0] eq 'S') { $s->set_entries(@f[1..4]); next; }
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


def _python(categories: list[str], ops: list[list[str]]) -> Tally:
    t = Tally(categories, unknown="ignore", conventions="statistics-contingency")
    for op in ops:
        if op[0] == "S":
            t.set_entries(*(int(x) for x in op[1:]))
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


@pytest.mark.parametrize("seed", range(40))
def test_against_the_perl_module(seed: int) -> None:
    """Micro and per-category statistics bit for bit, macro to 1e-15 (Perl sums in hash
    order, which varies between runs), the stats tables byte for byte."""
    assert PERL is not None
    categories, ops = _experiment(seed)
    text = "".join("\t".join(op) + "\n" for op in ops)
    run = subprocess.run(
        [PERL, "-e", SCRIPT, ",".join(categories)],
        input=text,
        capture_output=True,
        text=True,
        check=True,
    )
    lines = run.stdout.split("\n")
    t = _python(categories, ops)
    micro = [float(x) for x in lines[0].split()[1:]]
    assert micro == [t.micro(name) for name in STATISTICS]
    macro = [float(x) for x in lines[1].split()[1:]]
    assert macro == pytest.approx([t.macro(name) for name in STATISTICS], abs=1e-15)
    stats = t.category_stats()
    rows = [line.split() for line in lines if line.startswith("cat ")]
    assert sorted(row[1] for row in rows) == sorted(categories)
    for row in rows:
        ours = stats[row[1]]
        assert [int(x) for x in row[2:6]] == [ours["a"], ours["b"], ours["c"], ours["d"]]
        assert [float(x) for x in row[6:]] == [
            ours[k] for k in ("precision", "recall", "F1", "accuracy", "error")
        ]
    tables = run.stdout.split("table ")[1:]
    for chunk in tables:
        figures, table = chunk.split("\n", 1)
        assert table == t.stats_table(int(figures)), figures
