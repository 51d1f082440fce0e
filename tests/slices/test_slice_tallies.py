"""Multi-label input by slice: every slice's Tally equals Tally.add_results of its own
documents (dense and sparse indicators, crossed keys, missing keys)."""

from __future__ import annotations

import numpy as np
import pytest
import scipy.sparse

from informed.errors import InputError
from informed.slices.tallies import slice_tallies
from informed.tally import Tally


@pytest.mark.parametrize("sparse", [False, True])
def test_every_slice_tally_equals_add_results_of_its_documents(sparse: bool) -> None:
    rng = np.random.default_rng(0)
    n, m = 300, 5
    assigned = (rng.random((n, m)) < 0.3).astype(int)
    correct = np.where(rng.random((n, m)) < 0.8, assigned, 1 - assigned)
    group = rng.choice(["a", "b", "c"], n).astype(object)
    group[:7] = None
    device = rng.choice(["web", "app"], n)
    categories = [f"c{j}" for j in range(m)]
    given = (
        (scipy.sparse.csr_array(assigned), scipy.sparse.csr_array(correct))
        if sparse
        else (assigned, correct)
    )
    found = slice_tallies([group, device], *given, categories=categories, names=["g", "d"])
    assert (None, "app") in found or (None, "web") in found
    for key, tally in found.items():
        rows = np.array([(g, d) == key for g, d in zip(group, device, strict=True)])
        expected = Tally(categories)
        expected.add_results(assigned[rows], correct[rows])
        assert tally == expected, key
        assert tally.micro("f_measure") == expected.micro("f_measure")


def test_bad_indicators_are_refused() -> None:
    with pytest.raises(InputError, match="indicator matrices hold only 0 and 1"):
        slice_tallies(["a"], [[2]], [[1]], categories=["x"])
    with pytest.raises(InputError, match="same documents"):
        slice_tallies(["a", "b"], [[1]], [[1]], categories=["x"])


def _documents(seed: int = 3, n: int = 200) -> tuple[list[str], list[dict[str, object]]]:
    rng = np.random.default_rng(seed)
    categories = ["sport", "news", "tech", "arts"]
    records: list[dict[str, object]] = []
    for i in range(n):
        assigned = [c for c in categories if rng.random() < 0.3]
        correct = [c for c in categories if (c in assigned) != (rng.random() < 0.15)]
        record: dict[str, object] = {"assigned": assigned, "correct": correct, "name": i}
        source = rng.choice(["web", "app", "none", "null"])
        if source in ("web", "app"):
            record["source"] = str(source)
        elif source == "null":
            record["source"] = None
        record["lang"] = bool(rng.random() < 0.5)
        records.append(record)
    return categories, records


@pytest.mark.parametrize("declared", [True, False])
def test_a_files_documents_by_slice_equal_read_jsonl_of_each_slices_lines(
    tmp_path, declared: bool
) -> None:
    """read_tally_slices: each slice's Tally equals read_jsonl of the file keeping only
    its documents (with the whole file's categories), and slice_tallies of the same
    documents as indicator matrices; no field or null is the slice "missing"."""
    import json

    from informed.io import read_jsonl
    from informed.io.sliced_tallies import read_tally_slices

    categories, records = _documents()
    header = [json.dumps({"categories": categories})] if declared else []
    path = tmp_path / "docs.jsonl"
    path.write_text("\n".join(header + [json.dumps(r) for r in records]) + "\n")
    found = read_tally_slices(path, by=["source", "lang"])
    keys = {(r.get("source"), r["lang"]) for r in records}
    assert {key for key, _ in found} == keys and found[-1][0][0] is None  # missing last
    for key, tally in found:
        mine = [
            {k: v for k, v in r.items() if k not in ("source", "lang")}
            for r in records
            if (r.get("source"), r["lang"]) == key
        ]
        expected = read_jsonl([json.dumps(r) for r in mine], categories=sorted(categories))
        assert tally == expected, key
    matrices = [
        np.array([[c in r[side] for c in sorted(categories)] for r in records], dtype=int)
        for side in ("assigned", "correct")
    ]
    by = [[r.get("source") for r in records], [r["lang"] for r in records]]
    assert list(slice_tallies(by, *matrices, categories=sorted(categories)).items()) == found


def test_sliced_documents_refuse_what_cannot_be_sliced() -> None:
    """A key that is a list, and a set_entries line, are errors naming the line."""
    from informed.io.sliced_tallies import read_tally_slices

    with pytest.raises(InputError, match=r"line 2: the field 'source' holds \[1, 2\]"):
        read_tally_slices(
            [
                '{"assigned": ["x"], "correct": ["x"]}',
                '{"assigned": [], "correct": ["x"], "source": [1, 2]}',
            ],
            by="source",
        )
    with pytest.raises(InputError, match="line 2: a set_entries line"):
        read_tally_slices(
            ['{"assigned": ["x"], "correct": ["x"]}', '{"set_entries": [1, 0, 0, 1]}'],
            by="source",
        )


def test_informed_tally_by_prints_each_slice_and_json_holds_every_measure(tmp_path, capsys) -> None:
    """`informed tally FILE --by source`: a row per slice with its documents and micro
    measures; --format json: every slice's tally report."""
    import json

    from informed.cli.main import main

    _, records = _documents(n=120)
    path = tmp_path / "docs.jsonl"
    for record in records:
        del record["lang"]  # a field not sliced by is refused, as in every document line
    path.write_text("\n".join(json.dumps(r) for r in records) + "\n")
    assert main(["tally", str(path), "--by", "source"]) == 0
    text = capsys.readouterr().out
    assert "3 slices, 120 documents, 4 categories" in text
    assert [line.split()[0] for line in text.splitlines()[3:]] == ["app", "web", "missing"]
    assert main(["tally", str(path), "--by", "source", "--format", "json"]) == 0
    document = json.loads(capsys.readouterr().out)
    assert [e["key"] for e in document["slices"]] == [["app"], ["web"], [None]]
    missing = sum(1 for r in records if r.get("source") is None)
    assert document["slices"][-1]["documents"] == missing
    assert "micro" in document["slices"][0]["tally"]
