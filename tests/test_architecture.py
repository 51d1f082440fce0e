"""The layout is the architecture: imports run one way, with no cycle, in small modules.

The layers, lowest first, are written once here and in docs/architecture.md (a test
checks that the two agree). A module may import from its own unit (a subpackage, or a
top-level module) and from any unit of a lower layer; never upward, never sideways into
another unit of its own layer. `informed/__init__.py` is the public facade and may import
any unit but the command line; `informed/__main__.py` only starts the command line.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Iterator
from pathlib import Path

import pytest

SOURCE = Path(__file__).resolve().parents[1] / "src" / "informed"
ARCHITECTURE = Path(__file__).resolve().parents[1] / "docs" / "architecture.md"
MAX_LINES = 500

# lowest first; units within one layer do not import each other
LAYERS: tuple[tuple[str, ...], ...] = (
    ("errors", "_lazy", "_routes"),
    ("_common",),
    ("coding",),
    ("measures", "_markup", "_terminal"),
    ("table",),
    ("ranking", "tally"),
    ("slices",),
    ("io", "inference"),
    ("plots",),
    ("comparison", "disparity"),
    ("report",),
    ("engines", "integrations"),
    ("dask", "sklearn", "torch", "dvc", "model_card", "mlflow"),
    ("cli",),
)
FACADES = {"informed", "informed.__main__"}


def _modules() -> dict[str, Path]:
    """Every module of the package by dotted name (a package by its __init__)."""
    found: dict[str, Path] = {}
    for path in sorted(SOURCE.rglob("*.py")):
        parts = path.relative_to(SOURCE.parent).with_suffix("").parts
        if parts[-1] == "__init__":
            parts = parts[:-1]
        found[".".join(parts)] = path
    return found


MODULES = _modules()


def _unit(module: str) -> str:
    """The unit a module belongs to: its subpackage or top-level module under informed."""
    parts = module.split(".")
    return parts[1] if len(parts) > 1 else ""


def _layer(unit: str) -> int:
    for index, units in enumerate(LAYERS):
        if unit in units:
            return index
    msg = f"informed.{unit} is in no layer: add it to LAYERS and to docs/architecture.md."
    raise AssertionError(msg)


def _resolve(module: str, node: ast.ImportFrom) -> str:
    """The absolute module named by a (possibly relative) `from ... import`."""
    if not node.level:
        return node.module or ""
    package = module if MODULES[module].name == "__init__.py" else module.rsplit(".", 1)[0]
    base = package.split(".")
    base = base[: len(base) - node.level + 1]
    return ".".join([*base, *([node.module] if node.module else [])])


def _imports(module: str) -> Iterator[tuple[int, str]]:
    """(line, imported module) for every import of `informed` in a module, lazy ones too.

    `from informed.x import y` names the module `informed.x.y` when that is a module,
    else `informed.x`.
    """
    tree = ast.parse(MODULES[module].read_text(encoding="utf-8"))
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name.split(".")[0] == "informed":
                    yield node.lineno, alias.name
        elif isinstance(node, ast.ImportFrom):
            target = _resolve(module, node)
            if target.split(".")[0] != "informed":
                continue
            for alias in node.names:
                child = f"{target}.{alias.name}"
                yield node.lineno, child if child in MODULES else target


def _edges() -> dict[str, set[str]]:
    return {m: {target for _, target in _imports(m) if target != m} for m in MODULES}


def test_every_import_names_a_module_of_the_package() -> None:
    """An import of informed.something names a module that exists."""
    missing = [
        f"{m}:{line} imports {target}"
        for m in MODULES
        for line, target in _imports(m)
        if target not in MODULES
    ]
    assert not missing, missing


def test_imports_run_down_the_layers() -> None:
    """No module imports a higher layer, or another unit of its own layer."""
    wrong = []
    for module in MODULES:
        if module in FACADES:
            continue
        unit = _unit(module)
        for line, target in _imports(module):
            other = _unit(target)
            if other == unit or other == "":
                continue
            if _layer(other) >= _layer(unit):
                wrong.append(
                    f"{module}:{line} imports {target} "
                    f"(layer {_layer(unit)} {unit!r} -> layer {_layer(other)} {other!r})"
                )
    assert not wrong, "\n".join(wrong)


def test_nothing_imports_the_command_line() -> None:
    """Only the command line itself and `python -m informed` import informed.cli."""
    importers = [
        f"{m}:{line}"
        for m in MODULES
        if _unit(m) != "cli" and m != "informed.__main__"
        for line, target in _imports(m)
        if _unit(target) == "cli"
    ]
    assert not importers, importers


def test_no_import_cycle() -> None:
    """The graph of imports between modules has no cycle (lazy imports included)."""
    edges = _edges()
    state: dict[str, int] = {}
    stack: list[str] = []
    cycles: list[list[str]] = []

    def visit(node: str) -> None:
        state[node] = 1
        stack.append(node)
        for nxt in sorted(edges.get(node, ())):
            if state.get(nxt) == 1:
                cycles.append([*stack[stack.index(nxt) :], nxt])
            elif nxt not in state:
                visit(nxt)
        stack.pop()
        state[node] = 2

    for module in sorted(edges):
        if module not in state:
            visit(module)
    assert not cycles, "\n".join(" -> ".join(c) for c in cycles)


def test_a_submodule_never_imports_its_own_package() -> None:
    """Inside a subpackage, siblings are imported by their full path, not via __init__."""
    wrong = [
        f"{m}:{line} imports {target}"
        for m, path in MODULES.items()
        if path.name != "__init__.py" and m.count(".") >= 2
        for line, target in _imports(m)
        if target == m.rsplit(".", 1)[0]
    ]
    assert not wrong, wrong


@pytest.mark.parametrize("module", sorted(MODULES))
def test_module_is_small(module: str) -> None:
    """No module runs past 500 lines: one concept each."""
    lines = MODULES[module].read_text(encoding="utf-8").count("\n")
    assert lines <= MAX_LINES, f"{MODULES[module]} has {lines} lines"


def test_architecture_doc_lists_every_unit_in_its_layer() -> None:
    """docs/architecture.md names each unit of the tree, in the layer order tested here."""
    text = ARCHITECTURE.read_text(encoding="utf-8")
    units = {_unit(m) for m in MODULES} - {"", "__main__"}
    for unit in units:
        assert re.search(rf"^  {re.escape(unit)}(/|\.py) ", text, re.M), f"{unit} not in the tree"
    table = re.search(r"<!-- layers -->\n(.*?)<!-- /layers -->", text, re.S)
    assert table, "docs/architecture.md has no <!-- layers --> block"
    documented = tuple(
        tuple(re.findall(r"`([a-z_]+)`", line)) for line in table.group(1).strip().splitlines()
    )
    assert documented == LAYERS


def test_architecture_doc_has_a_line_for_every_module() -> None:
    """The module map of docs/architecture.md lists every module, so a newcomer finds it."""
    text = ARCHITECTURE.read_text(encoding="utf-8")
    listed = set(re.findall(r"^\| `([\w/.]+\.py)` \|", text, re.M))
    missing = []
    for path in MODULES.values():
        if path.name in ("__init__.py", "__main__.py"):
            continue
        relative = path.relative_to(SOURCE).as_posix()
        shown = relative if "/" in relative else f"informed/{relative}"
        if shown not in listed:
            missing.append(shown)
    assert not missing, f"not in docs/architecture.md: {missing}"


def _lazy_tables() -> dict[str, dict[str, str]]:
    """The `_SOURCES` table of each package whose names load on first use: public name ->
    the module it loads from (a string, which the import checks above cannot see)."""
    tables = {}
    for module, path in MODULES.items():
        if path.name != "__init__.py":
            continue
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in tree.body:
            if (
                isinstance(node, ast.Assign)
                and any(isinstance(t, ast.Name) and t.id == "_SOURCES" for t in node.targets)
                and isinstance(node.value, ast.Dict)
            ):
                table: dict[str, str] = {}
                for key, value in zip(node.value.keys, node.value.values, strict=True):
                    if key is None:  # **COMPATIBLE
                        table.update(_compatible(tree))
                    else:
                        table[ast.literal_eval(key)] = ast.literal_eval(value)
                tables[module] = table
    return tables


def _compatible(tree: ast.Module) -> dict[str, str]:
    for node in tree.body:
        if (
            isinstance(node, ast.Assign)
            and any(isinstance(t, ast.Name) and t.id == "COMPATIBLE" for t in node.targets)
            and isinstance(node.value, ast.Dict)
        ):
            return {
                ast.literal_eval(k): ast.literal_eval(v)  # type: ignore[arg-type]
                for k, v in zip(node.value.keys, node.value.values, strict=True)
            }
    return {}


def test_names_loaded_on_first_use_follow_the_layers() -> None:
    """A package's lazily loaded names (`_SOURCES`) come from its own unit or a lower
    layer, like its imports; the one exception is `informed.inference.COMPATIBLE`, the
    names that moved up to `informed.comparison` and still load from their old home."""
    tables = _lazy_tables()
    assert "informed.inference" in tables and "informed.comparison" in tables
    compatible = _compatible(ast.parse(MODULES["informed.inference"].read_text("utf-8")))
    assert set(compatible) == {
        "RANKING_COMPARED",
        "TABLE_COMPARED",
        "compare",
        "Comparison",
        "ModelResult",
        "JointOutcomes",
        "joint_outcomes",
        "paired_permutation",
    }
    wrong = []
    for package, table in tables.items():
        if package in FACADES:
            continue
        unit = _unit(package)
        for name, source in table.items():
            assert source in MODULES, f"{package}.{name} loads from a missing {source}"
            other = _unit(source)
            upward = other != unit and _layer(other) >= _layer(unit)
            allowed = package == "informed.inference" and compatible.get(name) == source
            if upward and not allowed:
                wrong.append(f"{package}.{name} loads from {source}")
    assert not wrong, wrong


def test_the_compatible_names_are_the_comparisons_own() -> None:
    """`informed.inference.compare` and the other moved names are the very objects of
    `informed.comparison`, and no module of informed.inference uses them."""
    import informed.comparison
    import informed.inference

    for name in informed.inference.COMPATIBLE:
        assert getattr(informed.inference, name) is getattr(informed.comparison, name), name
    users = [
        f"{m}:{line}"
        for m in MODULES
        if _unit(m) == "inference"
        for line, target in _imports(m)
        if _unit(target) == "comparison"
    ]
    assert users == []
