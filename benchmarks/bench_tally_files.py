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
  assigned, as correct and on both sides (dictionary_encode, numpy sort and bincount of
  (document, category) codes; no checks, no report).

The Perl module's table and informed's are checked to be the same text first. Run:

    .venv/bin/python benchmarks/bench_tally_files.py [--documents 200000] [--categories 20]
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np
from bytecode import compile_informed

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
import pyarrow.json as pj

# numbers read off the Arrow buffers: np.asarray of an Arrow array would load pandas
def int32s(array, count):
    return np.frombuffer(array.buffers()[1], dtype=np.int32, count=count, offset=4 * array.offset)

table = pj.read_json(sys.argv[1])
names = next(v for v in table.column("categories").to_pylist() if v is not None)
index = {name: i for i, name in enumerate(names)}
k, n = len(names), table.num_rows
marks = []
for side in ("assigned", "correct"):
    keys, row = [], 0
    for chunk in table.column(side).chunks:
        offsets = int32s(chunk, len(chunk) + 1)
        values = chunk.values.slice(int(offsets[0]), int(offsets[-1] - offsets[0]))
        encoded = values.dictionary_encode()
        local = np.array([index[v] for v in encoded.dictionary.to_pylist()], dtype=np.int64)
        rows = np.repeat(np.arange(row, row + len(chunk)), np.diff(offsets))
        keys.append(local[int32s(encoded.indices, len(encoded.indices))] + k * rows)
        row += len(chunk)
    marks.append(np.concatenate(keys))
distinct = []
for keys in marks:  # sorted, duplicates dropped (np.unique hashes: slow on such keys)
    keys.sort()
    distinct.append(keys[np.concatenate(([True], keys[1:] != keys[:-1]))])
pooled = np.sort(np.concatenate(distinct))
both = pooled[1:][pooled[1:] == pooled[:-1]]
print(n, *(np.bincount(x % k, minlength=k) for x in (both, *distinct)))
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


def best(command: list[str], repeat: int) -> tuple[float, float, str]:
    """The best wall time and the best CPU time (user + system, all threads) of `repeat`
    runs of a process, and its output. CPU time moves less on a busy machine."""
    times, cpus, output = [], [], ""
    for _ in range(repeat):
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        start = time.perf_counter()
        done = subprocess.run(command, capture_output=True, text=True, check=True)
        times.append(time.perf_counter() - start)
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        cpus.append(after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime)
        output = done.stdout
    return min(times), min(cpus), output


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--documents", type=int, default=200_000)
    parser.add_argument("--categories", type=int, default=20)
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--skip-exact", action="store_true", help="do not time the exact reader")
    args = parser.parse_args()
    compile_informed()  # as installed: see benchmarks/bytecode.py
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
        if args.skip_exact:
            del sides["informed tally, exact reader only"]
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
        timings, cpu, outputs = {}, {}, {}
        for name, command in sides.items():
            timings[name], cpu[name], outputs[name] = best(command, args.repeat)
        ours, ours_cpu = timings["informed tally"], cpu["informed tally"]
        print(f"{'':48s} {'wall':>8s} {'/ ours':>7s} {'CPU':>8s} {'/ ours':>7s}")
        for name, seconds in timings.items():
            print(
                f"{name:48s} {seconds:7.3f}s {seconds / ours:7.2f} {cpu[name]:7.3f}s "
                f"{cpu[name] / ours_cpu:7.2f}"
            )
        perl_name = next((n for n in timings if n.startswith("perl")), None)
        if perl_name:
            table = outputs[perl_name].strip()
            assert table in outputs["informed tally"], "the stats tables differ"
            print(
                f"\ngoal: >= 5 x faster than Perl: {timings[perl_name] / ours:.2f} x wall, "
                f"{cpu[perl_name] / ours_cpu:.2f} x CPU"
            )
        bare = "bare pyarrow (read + count)"
        print(
            f"goal: <= 1.5 x bare pyarrow: {ours / timings[bare]:.2f} x wall, "
            f"{ours_cpu / cpu[bare]:.2f} x CPU"
        )
        exact = "informed tally, exact reader only"
        if exact in timings:
            print(
                f"the fast route against the exact reader alone: {timings[exact] / ours:.2f} x "
                f"faster (wall), {cpu[exact] / ours_cpu:.2f} x (CPU)"
            )
        print(f"load average at the end: {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")


if __name__ == "__main__":
    main()
