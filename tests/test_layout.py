"""The package's shape, checked from its source (docs/architecture.md says why):

* no module in ``canary/commands/`` imports another command module (shared helpers are the
  underscored ``_common``, ``_kernel`` and ``_options``);
* no import cycle among canary's modules, counting imports inside functions too (only the ones
  under ``if TYPE_CHECKING:`` never run);
* the options several commands share are declared once, in ``commands/_options.py``;
* a handful of modules at the package's top level, and none over 400 lines.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

from conftest import ROOT

PACKAGE = ROOT / "canary"
SHARED_OPTIONS = ("--history", "--ferry", "--gates", "--lane")
MAX_TOP_LEVEL = 12
MAX_LINES = 400


def module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


MODULES = {module_name(p): p for p in sorted(PACKAGE.rglob("*.py"))}


def _is_type_checking(test: ast.expr) -> bool:
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )


def _runtime_nodes(tree: ast.AST):
    """Every node that can run, skipping the bodies of ``if TYPE_CHECKING:``."""
    stack = [tree]
    while stack:
        node = stack.pop()
        yield node
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.If) and _is_type_checking(child.test):
                stack.extend(child.orelse)
                continue
            stack.append(child)


def imports_of(name: str) -> set[str]:
    """The canary modules ``name`` imports, anywhere in it: ``from a import b`` is ``a.b`` when
    that is a module, else ``a``."""
    path = MODULES[name]
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found: set[str] = set()
    for node in _runtime_nodes(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            found.update(a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                up = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join(up + ([base] if base else []))
            for alias in node.names:
                sub = f"{base}.{alias.name}"
                found.add(sub if sub in MODULES else base)
    return {m for m in found if m in MODULES and m != name}


GRAPH = {name: imports_of(name) for name in MODULES}


def is_command(name: str) -> bool:
    parent, _, leaf = name.rpartition(".")
    return parent == "canary.commands" and not leaf.startswith("_")


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components with more than one module (Tarjan), each sorted."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    on_stack: set[str] = set()
    stack: list[str] = []
    found: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in sorted(graph[v]):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return found


def test_the_walk_sees_imports_inside_functions_and_skips_type_checking_only_ones():
    assert "canary.run.runner" in GRAPH["canary.run.consistency"]  # imported inside run_both
    assert "canary.history" not in GRAPH["canary.run.directory"]  # only under TYPE_CHECKING
    assert cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]


def test_no_command_module_imports_another():
    commands = [name for name in MODULES if is_command(name)]
    assert len(commands) > 10
    offenders = {name: sorted(m for m in GRAPH[name] if is_command(m)) for name in commands}
    assert not {k: v for k, v in offenders.items() if v}, "a command imports another command: move it to the library"


def test_no_import_cycles():
    assert cycles(GRAPH) == []


def test_shared_options_are_declared_once():
    declared = re.compile(r"click\.option\(\s*\"(" + "|".join(map(re.escape, SHARED_OPTIONS)) + r")\"")
    where = {
        name: declared.findall(MODULES[name].read_text()) for name in MODULES if name.startswith("canary.commands")
    }
    assert {name: found for name, found in where.items() if found} == {
        "canary.commands._options": sorted(SHARED_OPTIONS, key=lambda o: where["canary.commands._options"].index(o))
    }


def test_a_handful_of_top_level_modules_and_none_too_long():
    top = sorted(p.name for p in PACKAGE.glob("*.py"))
    assert len(top) <= MAX_TOP_LEVEL, top
    long = {name: n for name, path in MODULES.items() if (n := len(path.read_text().splitlines())) > MAX_LINES}
    assert long == {}, f"split these along their concerns (at most {MAX_LINES} lines a module)"
