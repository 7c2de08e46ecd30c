"""The reference packs are layered: every module imports only modules below it.

Each pack's ``__init__`` docstring states its layer order, once: the first
paragraph that says "Layers" names every module of the pack in double
backquotes, bottom first.  These tests read that order and the imports of
every module (with `ast`, so nothing is executed) and fail on

- a module the order leaves out, or one it names that does not exist;
- an import of a module named later in the order (or of the package itself);
- an import circle, whatever the order says;
- an import of the pack made inside a function (how a circle is usually hidden);
- an import of another pack, or of ``reference_engine`` above the shared helpers.

Imports under ``if TYPE_CHECKING:`` count like any other: a type-only import
up the order is still a module that knows the layer above it.
"""

from __future__ import annotations

import ast
import dataclasses
import graphlib
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PACKS = ("mtg", "vision", "zatch")
#: The modules of ``reference_engine`` every pack may import: they sit below all packs.
SHARED = ("reference_engine._bookkeeping", "reference_engine._mutant")
INIT = "__init__"


@dataclasses.dataclass(frozen=True)
class Import:
    module: str        # the importing module of the pack (file stem)
    target: str        # the dotted name of the module imported
    line: int
    nested: bool       # inside a function body


def modules_of(directory: Path) -> list[str]:
    return sorted(p.stem for p in directory.glob("*.py"))


def layer_order(directory: Path) -> list[str]:
    """The modules named in the "Layers" paragraph of the package docstring, in order."""
    doc = ast.get_docstring(ast.parse((directory / "__init__.py").read_text("utf-8"))) or ""
    paragraph = next((p for p in doc.split("\n\n") if "Layers" in p), "")
    known = set(modules_of(directory))
    order: list[str] = []
    for name in re.findall(r"``(\w+)``", paragraph):
        if name in known and name not in order:
            order.append(name)
    return order


def imports_of(path: Path, package: str) -> list[Import]:
    """Every import statement of ``path``, module level or not, resolved to module names."""
    found: list[Import] = []
    directory = path.parent

    def resolve(node: ast.ImportFrom) -> str:
        if not node.level:
            return node.module or ""
        parts = package.split(".")
        base = ".".join(parts[:len(parts) - node.level + 1])
        return f"{base}.{node.module}" if node.module else base

    def visit(node: ast.AST, nested: bool) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.Import):
                found.extend(Import(path.stem, a.name, child.lineno, nested)
                             for a in child.names)
            elif isinstance(child, ast.ImportFrom):
                base = resolve(child)
                for alias in child.names:
                    submodule = base == package and (directory / f"{alias.name}.py").exists()
                    target = f"{base}.{alias.name}" if submodule else base
                    found.append(Import(path.stem, target, child.lineno, nested))
            visit(child, nested or isinstance(
                child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)))

    visit(ast.parse(path.read_text("utf-8")), False)
    return found


def local(target: str, package: str) -> str | None:
    """The pack module ``target`` names (``__init__`` for the package), or None."""
    if target == package:
        return INIT
    if target.startswith(package + "."):
        return target[len(package) + 1:].split(".")[0]
    return None


def all_imports(directory: Path, package: str) -> list[Import]:
    return [i for p in sorted(directory.glob("*.py")) for i in imports_of(p, package)]


# -- the checks, each a list of problems (empty: none) ---------------------------------


def unordered(directory: Path) -> list[str]:
    order = layer_order(directory)
    modules = [m for m in modules_of(directory) if m != INIT]
    missing = sorted(set(modules) - set(order))
    return [f"{m}.py is not named in the 'Layers' paragraph of {directory.name}/__init__.py"
            for m in missing]


def upward(directory: Path, package: str) -> list[str]:
    order = layer_order(directory)
    found = []
    for imp in all_imports(directory, package):
        target = local(imp.target, package)
        if target is None or imp.module == INIT or imp.module not in order:
            continue
        if target not in order or order.index(target) >= order.index(imp.module):
            found.append(f"{imp.module}.py:{imp.line} imports {target}, which is not below "
                         f"it (layers: {' → '.join(order)})")
    return found


def circles(directory: Path, package: str) -> list[str]:
    graph: dict[str, set[str]] = {m: set() for m in modules_of(directory)}
    for imp in all_imports(directory, package):
        target = local(imp.target, package)
        if target is not None:
            graph[imp.module].add(target)
    try:
        graphlib.TopologicalSorter(graph).prepare()
    except graphlib.CycleError as circle:
        # graphlib lists each module before one that imports it: reverse to read "imports"
        return [f"import circle: {' imports '.join(reversed(circle.args[1]))}"]
    return []


def nested(directory: Path, package: str) -> list[str]:
    return [f"{i.module}.py:{i.line} imports {i.target} inside a function"
            for i in all_imports(directory, package)
            if i.nested and local(i.target, package) is not None]


def foreign(directory: Path, package: str) -> list[str]:
    return [f"{i.module}.py:{i.line} imports {i.target}: a pack imports only itself and "
            f"{', '.join(SHARED)}"
            for i in all_imports(directory, package)
            if (i.target == "reference_engine" or i.target.startswith("reference_engine."))
            and local(i.target, package) is None and i.target not in SHARED]


# -- the packs -------------------------------------------------------------------------


def pack(name: str) -> tuple[Path, str]:
    return ROOT / "reference_engine" / name, f"reference_engine.{name}"


@pytest.mark.parametrize("name", PACKS)
def test_the_docstring_orders_every_module(name):
    directory, _ = pack(name)
    assert layer_order(directory), f"{name}/__init__.py has no 'Layers' paragraph"
    assert unordered(directory) == []


@pytest.mark.parametrize("name", PACKS)
def test_no_module_imports_a_layer_above_it(name):
    assert upward(*pack(name)) == []


@pytest.mark.parametrize("name", PACKS)
def test_no_import_circle(name):
    assert circles(*pack(name)) == []


@pytest.mark.parametrize("name", PACKS)
def test_imports_of_the_pack_are_at_module_level(name):
    assert nested(*pack(name)) == []


@pytest.mark.parametrize("name", PACKS)
def test_a_pack_imports_no_other_pack(name):
    assert foreign(*pack(name)) == []


def test_every_pack_is_checked():
    assert {p.parent.name for p in (ROOT / "reference_engine").glob("*/__init__.py")} \
        == set(PACKS)


def test_the_checks_catch_what_they_are_for(tmp_path):
    """A small broken pack: each check reports its own fault, by file and line."""
    directory = tmp_path / "fake"
    directory.mkdir()
    (directory / "__init__.py").write_text('"""Layers: ``low`` → ``high``."""\n')
    (directory / "low.py").write_text(
        "from typing import TYPE_CHECKING\n"
        "if TYPE_CHECKING:\n"
        "    from fake.high import thing\n"
        "import reference_engine.mtg.model\n")
    (directory / "high.py").write_text(
        "from fake import low\n"
        "def f():\n"
        "    from . import low\n")
    (directory / "stray.py").write_text("from reference_engine._mutant import patched\n")
    assert unordered(directory) == [
        "stray.py is not named in the 'Layers' paragraph of fake/__init__.py"]
    assert upward(directory, "fake") == [
        "low.py:3 imports high, which is not below it (layers: low → high)"]
    assert circles(directory, "fake")[0].startswith("import circle: ")
    assert nested(directory, "fake") == ["high.py:3 imports fake.low inside a function"]
    assert foreign(directory, "fake") == [
        "low.py:4 imports reference_engine.mtg.model: a pack imports only itself and "
        "reference_engine._bookkeeping, reference_engine._mutant"]
