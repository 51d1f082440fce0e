"""Whole process against whole process: `informed tally FILE.jsonl` against the Perl module
Statistics::Contingency reading the same documents, and against bare pyarrow.

Issue 19, item 13: at least 5x faster than the Perl module, and within 1.5x of a bare
pyarrow process that reads the file into list columns and counts them. Every side is a
fresh process, start-up included, timed from outside (best of `--repeat` runs):

- perl: a script that decodes each line with JSON::XS (JSON::PP when JSON::XS is not
  installed; Debian: libjson-xs-perl) and calls `add_result`, then prints `stats_table`;
- informed tally: the command line, text report (and `--format json`);
- informed, exact reader only: the same command with the fast route turned off (what
  `informed tally` did before: every line parsed and checked in Python);
- bare pyarrow: `pyarrow.json.read_json`, then per category the documents naming it as
  assigned, as correct and on both sides (list_parent_indices, dictionary_encode, numpy
  bincount; no checks, no duplicate names, no report).

The Perl module's table and informed's are checked to be the same text first. Run:

    .venv/bin/python benchmarks/bench_tally_files.py [--documents 200000] [--categories 20]
"""

from __future__ import annotations

import argparse
import json
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

PERL = r"""
use strict;
use warnings;
use Statistics::Contingency;
my $codec;
BEGIN { $codec = eval { require JSON::XS; 'JSON::XS' } || do { require JSON::PP; 'JSON::PP' }; }
my $json = $codec->new;
if ($ENV{SHOW_CODEC}) { print STDERR "$codec\n"; exit 0; }
my $s;
while (my $line = <>) {
  my $doc = $json->decode($line);
  if (exists $doc->{categories}) { $s = Statistics::Contingency->new(categories => $doc->{categories}); next; }
  $s->add_result($doc->{assigned}, $doc->{correct});
}
print $s->stats_table;
"""

BARE = r"""
import sys
import numpy as np
import pyarrow.compute as pc
import pyarrow.json as pj

table = pj.read_json(sys.argv[1])
names = table.column("categories").drop_null()[0].as_py()
k = len(names)
rows = table.num_rows
marks = []
for side in ("assigned", "correct"):
    column = table.column(side).combine_chunks()
    parents = pc.list_parent_indices(column).to_numpy()
    values = pc.dictionary_encode(pc.list_flatten(column))
    index = {name: i for i, name in enumerate(names)}
    codes = np.array([index[v] for v in values.dictionary.to_pylist()])[values.indices.to_numpy()]
    marks.append(parents.astype(np.int64) * k + codes)
both = np.intersect1d(marks[0], marks[1])
print(rows, np.bincount(both % k, minlength=k), np.bincount(marks[0] % k, minlength=k))
"""

EXACT = r"""
import sys
from pathlib import Path
from informed.cli.output import Output, emit
from informed.io.jsonl_arrow import read_file
from informed.io.jsonl_reader import Reader
from informed.tally import summarize_tally

reader = Reader(f"{sys.argv[1]}, ", None, "error", "default")
read_file(Path(sys.argv[1]), reader, fast=False)
emit(Output(source=sys.argv[1], tally=summarize_tally(reader.tally())), "text")
"""


def write_documents(path: Path, documents: int, categories: int, seed: int = 13) -> None:
    """One categories line, then documents whose correct categories have density 0.1 and
    whose assigned ones differ in 5 % of the cells (a noisy classifier)."""
    rng = np.random.default_rng(seed)
    names = [f"category{j:02d}" for j in range(categories)]
    correct = rng.random((documents, categories)) < 0.1
    assigned = correct ^ (rng.random((documents, categories)) < 0.05)
    with path.open("w", encoding="utf-8") as handle:
        handle.write(json.dumps({"categories": names}) + "\n")
        for i in range(documents):
            line = {
                "assigned": [names[j] for j in np.flatnonzero(assigned[i])],
                "correct": [names[j] for j in np.flatnonzero(correct[i])],
            }
            handle.write(json.dumps(line) + "\n")


def best(command: list[str], repeat: int) -> tuple[float, str]:
    """The best wall time of `repeat` runs of a process, and its output."""
    times, output = [], ""
    for _ in range(repeat):
        start = time.perf_counter()
        done = subprocess.run(command, capture_output=True, text=True, check=True)
        times.append(time.perf_counter() - start)
        output = done.stdout
    return min(times), output


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--documents", type=int, default=200_000)
    parser.add_argument("--categories", type=int, default=20)
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    informed = str(Path(sys.executable).with_name("informed"))
    with tempfile.TemporaryDirectory() as folder:
        data = Path(folder) / "documents.jsonl"
        write_documents(data, args.documents, args.categories)
        size = data.stat().st_size / 1e6
        print(f"{args.documents:,} documents x {args.categories} categories ({size:.1f} MB)")
        print(f"whole processes, best of {args.repeat} (a shared machine: figures vary)\n")
        sides: dict[str, list[str]] = {
            "informed tally": [informed, "tally", str(data)],
            "informed tally --format json": [informed, "tally", str(data), "--format", "json"],
            "informed tally, exact reader only": [sys.executable, "-c", EXACT, str(data)],
            "bare pyarrow (read + count)": [sys.executable, "-c", BARE, str(data)],
        }
        perl = shutil.which("perl")
        probe = [perl or "perl", "-MStatistics::Contingency", "-e1"]
        if perl and subprocess.run(probe, capture_output=True, check=False).returncode == 0:
            script = Path(folder) / "tally.pl"
            script.write_text(PERL, encoding="utf-8")
            codec = subprocess.run(
                [perl, str(script), "/dev/null"],
                capture_output=True,
                text=True,
                env={"SHOW_CODEC": "1", "PATH": "/usr/bin:/bin"},
                check=False,
            ).stderr.strip()
            sides[f"perl Statistics::Contingency ({codec})"] = [perl, str(script), str(data)]
        else:
            print("perl or Statistics::Contingency is missing: the Perl side is left out\n")
        timings, outputs = {}, {}
        for name, command in sides.items():
            timings[name], outputs[name] = best(command, args.repeat)
        ours = timings["informed tally"]
        for name, seconds in timings.items():
            print(f"{name:48s} {seconds:7.3f} s  {seconds / ours:6.2f} x informed tally")
        perl_name = next((n for n in timings if n.startswith("perl")), None)
        if perl_name:
            table = outputs[perl_name].strip()
            assert table in outputs["informed tally"], "the stats tables differ"
            print(f"\ngoal: >= 5 x faster than Perl: {timings[perl_name] / ours:.2f} x")
        bare = timings["bare pyarrow (read + count)"]
        print(f"goal: <= 1.5 x bare pyarrow: {ours / bare:.2f} x")
        exact = timings["informed tally, exact reader only"]
        print(f"the fast route against the exact reader alone: {exact / ours:.2f} x faster")


if __name__ == "__main__":
    main()
