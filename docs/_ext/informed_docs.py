"""What informed's documentation site generates at build time, so it cannot drift from the code.

- The gallery (docs/gallery.md): the figures of docs/gallery.py, each drawn by the call shown
  above it, are appended to the page's Markdown as it is read.
- ``.. public-names::`` (API reference): every name of ``informed.__all__``, linked to the
  module page that documents it, with the first line of its docstring.
- ``.. argument-spellings::`` (API reference): the one spelling of each argument and the
  aliases accepted for it, read from ``informed.coding.arguments.ALIASES``.
- A dataclass's signature shows what its fields' default factories make (``reasons={}``),
  not ``<factory>`` (see `factory_defaults`).
- Docstrings write counts in the papers' notation, |+P+R| for the size of a set: a bar
  in a docstring is a bar, never a reStructuredText substitution (see `bars_as_text`).
"""

from __future__ import annotations

import base64
import contextlib
import dataclasses
import importlib
import inspect
import io
import os
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from docutils import nodes
from docutils.statemachine import StringList
from sphinx import addnodes
from sphinx.application import Sphinx
from sphinx.errors import ExtensionError
from sphinx.util.docutils import SphinxDirective

DOCS = Path(__file__).resolve().parents[1]
ROOT = DOCS.parent
GALLERY_PAGE = "gallery"


@contextlib.contextmanager
def _in(folder: Path) -> Iterator[None]:
    before = Path.cwd()
    os.chdir(folder)
    try:
        yield
    finally:
        os.chdir(before)


def figure_markup(value: Any, name: str) -> str:
    """The HTML of a plot: markup holding <svg> elements as it is; an Axes or Figure as SVG."""
    if isinstance(value, str) and value.lstrip().startswith("<") and "<svg" in value:
        # an HTML block ends at a blank line: an SVG has none that matter
        return "\n".join(line for line in value.splitlines() if line.strip())
    figure = getattr(value, "figure", value)
    if not hasattr(figure, "savefig"):
        msg = f"gallery plot {name!r} gave {type(value).__name__}, not an <svg>, Axes or Figure"
        raise ExtensionError(msg)
    buffer = io.BytesIO()
    figure.savefig(buffer, format="svg", bbox_inches="tight", metadata={"Date": None})
    import matplotlib.pyplot as plt

    plt.close(figure)
    data = base64.b64encode(buffer.getvalue()).decode("ascii")
    return f'<img src="data:image/svg+xml;base64,{data}" alt="{name}">'


def gallery_markdown() -> str:
    """The gallery's generated part: the data, then each plot's title, text, call and figure."""
    import matplotlib

    matplotlib.use("Agg")
    import gallery  # docs/gallery.py, on the path set by conf.py

    namespace: dict[str, Any] = {"__name__": "__gallery__"}
    parts = ["## The data\n", "```python", gallery.DATA.rstrip(), "```\n"]
    with _in(ROOT):
        exec(compile(gallery.DATA, "docs/gallery.py:DATA", "exec"), namespace)
        for plot in gallery.PLOTS:
            try:
                value = eval(compile(plot.call, f"gallery: {plot.title}", "eval"), namespace)
            except Exception as error:
                msg = f"gallery plot {plot.title!r} failed: {error!r}"
                raise ExtensionError(msg) from error
            parts += [
                f"## {plot.title}\n",
                plot.about + "\n",
                "```python",
                plot.call,
                "```\n",
                '<figure class="gallery-plot">',
                figure_markup(value, plot.title),
                "</figure>\n",
            ]
    return "\n".join(parts)


def _append_gallery(app: Sphinx, docname: str, source: list[str]) -> None:
    if docname == GALLERY_PAGE:
        source[0] += "\n\n" + gallery_markdown()


_LITERAL = re.compile(r"(``.+?``|`[^`]+`_?)")


def _escaped(text: str, characters: str = "|") -> str:
    """`text` with each of `characters` backslash-escaped outside inline literals and roles."""
    parts = _LITERAL.split(text)
    for i in range(0, len(parts), 2):  # the even parts lie outside ``literals`` and `roles`
        for character in characters:
            parts[i] = parts[i].replace(character, "\\" + character)
    return "".join(parts)


def bars_as_text(lines: list[str]) -> None:
    """Escape the bars of docstring text in place, leaving doctests and literal blocks.

    ``|+P|`` and ``|b - c|`` (the papers' notation for the size of a set and an absolute
    value) would otherwise be read as reStructuredText substitutions, which the docstrings
    never use.
    """
    literal_indent: int | None = None  # inside a literal block: the indent of its `::` line
    opener: int | None = None  # the indent of a line ending in `::`, before its block
    doctest = False
    for i, line in enumerate(lines):
        stripped = line.strip()
        indent = len(line) - len(line.lstrip())
        if not stripped:
            doctest = False
            if opener is not None:
                literal_indent, opener = opener, None
            continue
        if literal_indent is not None:
            if indent > literal_indent:
                continue
            literal_indent = None
        opener = None
        if stripped.startswith(">>>") or doctest:
            doctest = True
            continue
        if stripped.endswith("::"):
            opener = indent
        lines[i] = _escaped(line)


_SHARED_FIELD = re.compile(r"^(\s*):(ivar|vartype) ([^:]*,[^:]*):(.*)$")


def one_name_per_field(lines: list[str]) -> None:
    """Split napoleon's ``:ivar a, b: ...`` (numpydoc's "a, b : float") into one field per
    name, in place: Sphinx would read the first name as a type."""
    out: list[str] = []
    shared: list[str] | None = None  # the names of the field being continued
    for line in lines:
        found = _SHARED_FIELD.match(line)
        if found:
            indent, kind, names, text = found.groups()
            shared = [n.strip() for n in names.split(",")]
            out += [f"{indent}:{kind} {n}:{text}" for n in shared]
            continue
        if shared is not None and line.startswith("   ") and not line.lstrip().startswith(":"):
            # a continuation line of a shared field's text, given to each name
            out[-len(shared) :] = [f"{entry} {line.strip()}" for entry in out[-len(shared) :]]
            continue
        shared = None
        out.append(line)
    lines[:] = out


def _process_docstring(
    app: Sphinx, what: str, name: str, obj: Any, options: Any, lines: list[str]
) -> None:
    one_name_per_field(lines)
    bars_as_text(lines)


# what a public constant is (a constant's own docstring would be that of its type); each
# is described by a ``py:data`` entry on its subpackage's page
CONSTANTS = {
    "MEASURES": "The registry of contingency measures: each once, with its formula, "
    "aliases, range, value under chance, dual and source.",
}


def _summary(value: Any, name: str) -> str:
    """The first paragraph of a class's or function's docstring, or a constant's entry."""
    if inspect.isclass(value) or inspect.isroutine(value):
        doc = inspect.getdoc(value) or ""
    elif name in CONSTANTS:
        doc = CONSTANTS[name]
    else:
        msg = f"informed.{name} is a constant: describe it in CONSTANTS and on its API page"
        raise ExtensionError(msg)
    first = doc.strip().split("\n\n")[0].replace("\n", " ")
    return _escaped(first, "|*")


class PublicNames(SphinxDirective):
    """A table of ``informed.__all__``: each name, where it is documented, what it is."""

    def run(self) -> list[nodes.Node]:
        informed = importlib.import_module("informed")
        sources: dict[str, str] = informed._SOURCES
        lines = [".. list-table::", "   :header-rows: 1", "   :widths: 30 70", ""]
        lines += ["   * - name", "     - what it is"]
        for name in informed.__all__:
            module = sources[name]
            target = f"{module}.{name}"
            lines += [
                f"   * - :py:obj:`informed.{name} <{target}>`",
                f"     - {_summary(getattr(informed, name), name)}",
            ]
        return self._parse(lines)

    def _parse(self, lines: list[str]) -> list[nodes.Node]:
        container = nodes.container()
        self.state.nested_parse(StringList(lines), self.content_offset, container)
        for reference in container.findall(addnodes.pending_xref):
            reference["refwarn"] = True  # a name documented nowhere is a warning, so an error
        return list(container.children)


class ArgumentSpellings(PublicNames):
    """A table of the one spelling of each argument and the aliases accepted for it."""

    def run(self) -> list[nodes.Node]:
        from informed.coding.arguments import ALIASES

        spellings: dict[str, list[str]] = {}
        for alias, name in ALIASES.items():
            spellings.setdefault(name, []).append(alias)
        lines = [".. list-table::", "   :header-rows: 1", ""]
        lines += ["   * - informed's spelling", "     - also accepted"]
        for name in ("actual", "predicted", "scores", "weights"):
            accepted = ", ".join(f"``{a}=``" for a in spellings.pop(name, []))
            lines += [f"   * - ``{name}=``", f"     - {accepted or 'nothing else'}"]
        if spellings:
            msg = f"ALIASES renames to spellings the table does not list: {sorted(spellings)}"
            raise ExtensionError(msg)
        return self._parse(lines)


def factory_defaults(
    app: Sphinx,
    what: str,
    name: str,
    obj: Any,
    options: Any,
    signature: str | None,
    return_annotation: str | None,
) -> tuple[str | None, str | None] | None:
    """A dataclass's signature shows the value a field's default factory makes
    (``reasons={}``), where Python's signature of the class shows ``reasons=<factory>``."""
    if not signature or "=<factory>" not in signature or not dataclasses.is_dataclass(obj):
        return None
    for field in dataclasses.fields(obj):
        if field.default_factory is not dataclasses.MISSING:
            shown = repr(field.default_factory())
            signature = signature.replace(f"{field.name}=<factory>", f"{field.name}={shown}")
    return signature, return_annotation


def setup(app: Sphinx) -> dict[str, Any]:
    app.connect("source-read", _append_gallery)
    # after napoleon (registered first), on the reStructuredText it makes of the sections
    app.connect("autodoc-process-docstring", _process_docstring)
    app.connect("autodoc-process-signature", factory_defaults)
    app.add_directive("public-names", PublicNames)
    app.add_directive("argument-spellings", ArgumentSpellings)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
