"""Every Python snippet in README.md and docs/*.md runs as written.

Each fenced ```python block is run on its own, in a fresh namespace and a scratch
directory, so a block defines the data it needs. Blocks that show a signature or output
rather than code are fenced as ```text.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
DOCUMENTS = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
FENCE = re.compile(r"^```python\n(.*?)^```", re.M | re.S)


def _snippets() -> list[tuple[str, str]]:
    found = []
    for document in DOCUMENTS:
        text = document.read_text(encoding="utf-8")
        for match in FENCE.finditer(text):
            line = text.count("\n", 0, match.start()) + 1
            found.append((f"{document.relative_to(ROOT)}:{line}", match.group(1)))
    return found


SNIPPETS = _snippets()


def test_the_docs_have_snippets() -> None:
    """The collection finds the README's example and the snippets of the pages its long
    sections moved to (a broken pattern would test nothing)."""

    def count(document: str) -> int:
        return sum(1 for where, _ in SNIPPETS if where.startswith(document + ":"))

    assert count("README.md") >= 1
    assert count("docs/tour.md") >= 5
    assert count("docs/inputs.md") >= 3


@pytest.mark.parametrize(("where", "code"), SNIPPETS, ids=[w for w, _ in SNIPPETS])
def test_snippet_runs(
    where: str, code: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The snippet runs without error in a fresh namespace."""
    monkeypatch.chdir(tmp_path)
    exec(compile(code, where, "exec"), {"__name__": "__snippet__"})


DOTTED = re.compile(r"`(informed(?:\.\w+)+)")


def test_every_dotted_name_in_the_docs_exists() -> None:
    """`informed.x.y` in README.md and docs/*.md names a module or an attribute that exists
    (`informed.tally.read_jsonl` did not: it is `informed.io.read_jsonl`)."""
    import importlib

    missing = []
    for document in DOCUMENTS:
        for dotted in set(DOTTED.findall(document.read_text(encoding="utf-8"))):
            parts = dotted.split(".")
            found: object = None
            for split in range(len(parts), 0, -1):
                try:
                    found = importlib.import_module(".".join(parts[:split]))
                except ImportError:
                    continue
                for attribute in parts[split:]:
                    found = getattr(found, attribute, None)
                break
            if found is None:
                missing.append(f"{document.name}: {dotted}")
    assert missing == []


def test_first_calls_show_every_input_and_every_spelling() -> None:
    """docs/first_calls.md runs the first calls on lists, numpy, pandas, polars and Arrow,
    and its table of arguments lists every alias `informed.coding.arguments` renames, next to the
    one spelling it is renamed to (issue 20: the docs name the one spelling of each)."""
    from informed.coding.arguments import ALIASES

    text = (ROOT / "docs" / "first_calls.md").read_text(encoding="utf-8")
    code = "\n".join(match.group(1) for match in FENCE.finditer(text))
    for call in (
        "evaluate(y_true, y_pred)",
        "pd.DataFrame(",
        "pl.DataFrame(",
        "pa.table(",
        "np.array(",
        "sample_weight=",
        'actual="y", predicted="p"',
    ):
        assert call in code, call
    rows = {
        line.split("|")[1].strip(" `"): line.split("|")[3]
        for line in text.splitlines()
        if line.startswith("| `")
    }
    for alias, spelling in ALIASES.items():
        assert f"`{alias}`" in rows[spelling], (alias, spelling)


IMPORTED = re.compile(r"^\s*(?:import|from)\s+([A-Za-z_]\w*)", re.M)
EXTRA_NAMED = re.compile(r"informed\[([\w,]+)\]|\.\[([\w,]+)\]")
# import name -> the name pip installs (the mlflow extra's client: mlflow-skinny)
DISTRIBUTION = {"sklearn": "scikit-learn", "mlflow": "mlflow-skinny"}


def test_every_package_a_snippet_imports_is_declared() -> None:
    """A reader who ran `make run` and `pip install '.[guides]'` can run the guides: every
    package a snippet imports is a core dependency, in the `guides` extra, or in an extra
    its page names (`informed[sql]` on the engines page)."""
    import sys
    import tomllib

    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    extras = project["optional-dependencies"]

    def names(requirements: list[str]) -> set[str]:
        return {re.split(r"[<>=\[ ;]", r)[0].lower() for r in requirements}

    undeclared = []
    for document in DOCUMENTS:
        text = document.read_text(encoding="utf-8")
        allowed = names(project["dependencies"]) | names(extras["guides"]) | {"informed"}
        for match in EXTRA_NAMED.finditer(text):
            for extra in (match.group(1) or match.group(2)).split(","):
                allowed |= names(extras.get(extra, []))
        for snippet in FENCE.finditer(text):
            for module in IMPORTED.findall(snippet.group(1)):
                package = DISTRIBUTION.get(module, module).lower()
                if module not in sys.stdlib_module_names and package not in allowed:
                    undeclared.append(f"{document.relative_to(ROOT)}: {module}")
    assert undeclared == []
