"""The documentation site: built in CI with warnings as errors, every page reachable from its
navigation, every plot in the gallery, the build's docstring rules doing what they say.

The build itself is `make docs`, which `.ci/run` runs before the tests; these tests check
that it is wired so, and what a build would not notice (a plot left out of the gallery).
"""

from __future__ import annotations

import importlib
import re
import runpy
import sys
import tomllib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
DOCS = ROOT / "docs"
TOCTREE = re.compile(
    r"^```\{toctree\}\n(.*?)^```|^\.\. toctree::\n((?:[ \t]+.*\n|\n)*)", re.M | re.S
)


def _pages() -> set[str]:
    """Every page of the site's sources, as Sphinx names it (path without suffix)."""
    found = set()
    for path in [*DOCS.rglob("*.md"), *DOCS.rglob("*.rst")]:
        relative = path.relative_to(DOCS)
        if relative.parts[0] in {"_build", "_ext"}:
            continue
        found.add(relative.with_suffix("").as_posix())
    return found


def _toctree_entries(page: str) -> list[str]:
    """The pages a page's toctrees list, as page names relative to docs/."""
    path = next(p for p in (DOCS / f"{page}.md", DOCS / f"{page}.rst") if p.exists())
    folder = Path(page).parent
    entries = []
    for match in TOCTREE.finditer(path.read_text(encoding="utf-8")):
        for line in (match.group(1) or match.group(2)).splitlines():
            entry = line.strip()
            if entry and not entry.startswith(":"):
                entries.append((folder / entry).as_posix())
    return entries


def test_every_page_is_in_the_navigation() -> None:
    """Every page of docs/ is reached from the home page's toctrees (a new page that no
    navigation links would be missed by readers)."""
    pages = _pages()
    reached, todo = {"index"}, ["index"]
    while todo:
        for entry in _toctree_entries(todo.pop()):
            assert entry in pages, f"a toctree lists {entry!r}, which is no page"
            if entry not in reached:
                reached.add(entry)
                todo.append(entry)
    assert pages - reached == set()
    # the user guide is all of docs/*.md: the pages tests/test_docs.py runs
    assert {p.stem for p in DOCS.glob("*.md")} <= reached


def test_ci_builds_the_site_with_warnings_as_errors() -> None:
    """`.ci/run` runs `make docs`, whose sphinx-build fails on any warning, from scratch."""
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    commands = [line.strip() for line in ci.splitlines() if not line.lstrip().startswith("#")]
    assert "make docs" in commands
    assert commands.index("make docs") < commands.index("make test")
    makefile = (ROOT / "Makefile").read_text(encoding="utf-8")
    recipe = makefile.split("\ndocs:", 1)[1].split("\n\n", 1)[0]
    build = next(line for line in recipe.splitlines() if "sphinx-build" in line).split()
    assert {"-W", "-E", "--keep-going"} <= set(build)
    assert build[-2:] == ["docs", "build/docs/html"]


def test_every_docs_tool_is_declared() -> None:
    """The `docs` extra holds every package the build imports (a fresh clone installs it)."""
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    declared = {re.split(r"[<>=\[ ]", r)[0] for r in project["optional-dependencies"]["docs"]}
    assert {"sphinx", "myst-parser", "furo", "matplotlib"} <= declared
    # every package the gallery imports (docs/gallery.py runs at build time): `make docs`
    # installs the docs extra alone
    gallery = (DOCS / "gallery.py").read_text(encoding="utf-8")
    imported = set(re.findall(r"^\s*(?:from|import) ([a-z_]\w*)", gallery, re.M))
    needed = {"sklearn": "scikit-learn", "pandas": "pandas", "pyarrow": "pyarrow"}
    assert {needed[m] for m in imported if m in needed} <= declared
    path = list(sys.path)
    try:
        conf = runpy.run_path(str(DOCS / "conf.py"))
    finally:
        sys.path[:] = path
    # intersphinx fetches inventories; math pages would load MathJax from a CDN
    assert {"sphinx.ext.intersphinx", "sphinx.ext.mathjax"} & set(conf["extensions"]) == set()
    assert conf["myst_enable_extensions"] == ["colon_fence"]  # no dollarmath, no amsmath


def test_the_gallery_draws_every_plot() -> None:
    """Every plot function of `informed.plots`, `informed.comparison` and
    `informed.disparity` is called by a gallery entry."""
    sys.path.insert(0, str(DOCS))
    try:
        gallery = importlib.import_module("gallery")
    finally:
        sys.path.remove(str(DOCS))
    functions = {
        name
        for module in ["informed.plots", "informed.comparison", "informed.disparity"]
        for name in importlib.import_module(module).__all__
        if name.startswith("plot_")
    }
    assert len(functions) >= 12
    calls = " ".join(plot.call for plot in gallery.PLOTS)
    assert {f for f in functions if f"{f}(" not in calls} == set()
    assert len({plot.title for plot in gallery.PLOTS}) == len(gallery.PLOTS)


@pytest.fixture(scope="module")
def extension() -> object:
    pytest.importorskip("sphinx", reason="the docs extra (make docs) installs Sphinx")
    sys.path.insert(0, str(DOCS / "_ext"))
    try:
        return importlib.import_module("informed_docs")
    finally:
        sys.path.remove(str(DOCS / "_ext"))


def test_a_bar_in_a_docstring_is_a_bar(extension: object) -> None:
    """|+P| (the size of a set) is escaped in text, left alone in literals and doctests."""
    lines = [
        "precision = |+P+R| / |+P|, not ``|x|`` nor `a|b`",
        "",
        "A block::",
        "",
        "    |inside|",
        "",
        ">>> print('|y|')",
        "|y|",
        "",
        "after |w|",
    ]
    extension.bars_as_text(lines)  # type: ignore[attr-defined]
    assert lines[0] == r"precision = \|+P+R\| / \|+P\|, not ``|x|`` nor `a|b`"
    assert lines[4:8] == ["    |inside|", "", ">>> print('|y|')", "|y|"]
    assert lines[9] == r"after \|w\|"


def test_names_sharing_a_field_get_one_field_each(extension: object) -> None:
    """numpydoc's "n, n_positive : float" becomes one :ivar: per name, the text continued."""
    lines = [
        ":ivar n, n_positive: The size",
        "    and the positives.",
        ":vartype n, n_positive: float",
        ":ivar values: Each value.",
    ]
    extension.one_name_per_field(lines)  # type: ignore[attr-defined]
    assert lines == [
        ":ivar n: The size and the positives.",
        ":ivar n_positive: The size and the positives.",
        ":vartype n: float",
        ":vartype n_positive: float",
        ":ivar values: Each value.",
    ]
