"""A small DOM for the report tests, built with the standard library's html.parser.

Tests read the page as a reader would: the text of a cell in a table row, the figures,
the attributes that could fetch something. No snapshot of the whole page is kept.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from html.parser import HTMLParser

VOID = {
    "area",
    "base",
    "br",
    "col",
    "embed",
    "hr",
    "img",
    "input",
    "link",
    "meta",
    "source",
    "track",
    "wbr",
}
# attributes through which an element can load something
FETCHING = {
    "src",
    "href",
    "xlink:href",
    "srcset",
    "action",
    "formaction",
    "data",
    "poster",
    "background",
    "ping",
    "manifest",
}


@dataclass
class Node:
    tag: str
    attrs: dict[str, str]
    children: list[Node | str] = field(default_factory=list)

    def text(self) -> str:
        """The text inside, whitespace collapsed."""
        parts: list[str] = []

        def walk(node: Node) -> None:
            for child in node.children:
                if isinstance(child, str):
                    parts.append(child)
                else:
                    walk(child)

        walk(self)
        return " ".join("".join(parts).split())

    def iter(self) -> Iterator[Node]:
        """This node and every element below it, in document order."""
        yield self
        for child in self.children:
            if isinstance(child, Node):
                yield from child.iter()

    def find_all(self, tag: str | None = None, **attrs: str) -> list[Node]:
        """Elements with this tag (any if None) and these attribute values (`class_` for class)."""
        wanted = {k.rstrip("_").replace("_", "-"): v for k, v in attrs.items()}
        return [
            node
            for node in self.iter()
            if (tag is None or node.tag == tag)
            and all(node.attrs.get(k) == v for k, v in wanted.items())
        ]

    def find(self, tag: str | None = None, **attrs: str) -> Node:
        found = self.find_all(tag, **attrs)
        assert found, f"no <{tag}> with {attrs}"
        return found[0]

    def by_id(self, element_id: str) -> Node:
        return self.find(None, id=element_id)

    def cells(self) -> list[str]:
        """The texts of this row's th and td cells."""
        return [c.text() for c in self.children if isinstance(c, Node) and c.tag in ("th", "td")]


class _Builder(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.root = Node("#document", {})
        self.stack = [self.root]

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        node = Node(tag, {k: v or "" for k, v in attrs})
        self.stack[-1].children.append(node)
        if tag not in VOID:
            self.stack.append(node)

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.stack[-1].children.append(Node(tag, {k: v or "" for k, v in attrs}))

    def handle_endtag(self, tag: str) -> None:
        for depth in range(len(self.stack) - 1, 0, -1):
            if self.stack[depth].tag == tag:
                del self.stack[depth:]
                return

    def handle_data(self, data: str) -> None:
        self.stack[-1].children.append(data)


def parse(page: str) -> Node:
    builder = _Builder()
    builder.feed(page)
    builder.close()
    return builder.root


def table_rows(root: Node, table_id: str) -> list[list[str]]:
    """The cell texts of every row (header row first) of the table with this id."""
    return [row.cells() for row in root.by_id(table_id).find_all("tr")]


def row_by(root: Node, table_id: str, attribute: str, value: str) -> list[str]:
    """The cell texts of the row of a table whose `attribute` equals `value`."""
    rows = [r for r in root.by_id(table_id).find_all("tr") if r.attrs.get(attribute) == value]
    assert len(rows) == 1, f"{table_id}: {len(rows)} rows with {attribute}={value!r}"
    return rows[0].cells()


def external_references(root: Node) -> list[tuple[str, str, str]]:
    """(tag, attribute, value) of every attribute that could fetch something outside the page.

    Only same-document references (``#id``) are allowed; ``url(...)`` in a style
    attribute must point into the page too.
    """
    found = []
    for node in root.iter():
        for name, value in node.attrs.items():
            stripped = value.strip()
            if name in FETCHING and stripped and not stripped.startswith("#"):
                found.append((node.tag, name, value))
            if name == "style" and "url(" in stripped.replace(" ", ""):
                for piece in stripped.split("url(")[1:]:
                    if not piece.lstrip("'\" ").startswith("#"):
                        found.append((node.tag, name, value))
    return found
