"""The package's shape, checked from its source (docs/architecture.md says why):

* no module in ``canary/commands/`` imports another command module (shared helpers are the
  underscored ``_common``, ``_kernel`` and ``_options``);
* no import cycle among canary's modules, counting imports inside functions too (only the ones
  under ``if TYPE_CHECKING:`` never run);
* no import cycle among canary's packages either (a top-level module counts as a package of its
  own), and every import runs down the floors of docs/architecture.md, or sideways within one
  (``FLOORS``); an import back up needs a written reason in ``UPWARD``;
* the options several commands share are declared once, in ``commands/_options.py``;
* a handful of modules at the package's top level, and none over 400 lines;
* no function over 60 lines (its docstring included): a command's long help is a module constant;
* no test hook in the package: the regression zoo lives in tests/zoo and patches the workload
  from outside, so nothing under ``canary/`` reads ``CANARY_ZOO`` or names the zoo.
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
MAX_FUNCTION_LINES = 60


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


# The floors of the house, from the ground up (docs/architecture.md draws them). A package imports
# only from its own floor's neighbours that it does not cycle with, or from a lower floor.
FLOORS = {
    0: {
        "errors",
        "textio",
        "host",
        "shutdown",
        "extras",
        "git",
        "record",
        "text",
        "deadline",
    },  # shared basics, text made safe
    1: {"config"},  # the reviewed files' models
    2: {"formats"},  # what a run leaves on disk, and the harness-workload contract
    3: {"signature", "golden", "launchers", "workload"},  # pure judgement of text, golden data, I/O edges
    4: {"judge", "history", "bisect", "ferries"},  # ferries: what each kind of ferry launches, lowers, bisects
    5: {"notify"},
    6: {"report", "render"},
    7: {"run", "doctor"},  # one run, orchestrated; what a lane's run needs, checked
    8: {"commands", "cli", "__main__"},  # the command line: parse, call, render
}
# (importer, imported): why an import runs back up a floor. Empty: none does.
UPWARD: dict[tuple[str, str], str] = {}


def package_of(module: str) -> str:
    """A module's package below ``canary`` (a top-level module is a package of its own)."""
    parts = module.split(".")
    return parts[1] if len(parts) > 1 else parts[0]


PACKAGE_GRAPH: dict[str, set[str]] = {}
for _name, _deps in GRAPH.items():
    PACKAGE_GRAPH.setdefault(package_of(_name), set()).update(
        package_of(d) for d in _deps if package_of(d) != package_of(_name)
    )
FLOOR_OF = {pkg: floor for floor, pkgs in FLOORS.items() for pkg in pkgs}


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
    assert "canary.history" not in GRAPH["canary.formats.directory"]  # only under TYPE_CHECKING
    assert cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]


def test_no_command_module_imports_another():
    commands = [name for name in MODULES if is_command(name)]
    assert len(commands) > 10
    offenders = {name: sorted(m for m in GRAPH[name] if is_command(m)) for name in commands}
    assert not {k: v for k, v in offenders.items() if v}, "a command imports another command: move it to the library"


def test_no_import_cycles():
    assert cycles(GRAPH) == []


def test_no_import_cycles_between_packages():
    assert cycles(PACKAGE_GRAPH) == []


def test_every_package_stands_on_a_floor_and_imports_run_down():
    assert set(PACKAGE_GRAPH) - {"canary"} <= set(FLOOR_OF), "give the new package a floor in FLOORS"
    up = {
        (a, b): f"floor {FLOOR_OF[a]} imports floor {FLOOR_OF[b]}"
        for a, deps in PACKAGE_GRAPH.items()
        for b in deps
        if a in FLOOR_OF and b in FLOOR_OF and FLOOR_OF[b] > FLOOR_OF[a] and (a, b) not in UPWARD
    }
    assert up == {}, "an import runs back up: move the code down, or say why in UPWARD"
    assert len(UPWARD) <= 2


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


def test_no_function_a_reader_cannot_hold():
    long = {
        f"{name}.{node.name}": node.end_lineno - node.lineno + 1
        for name, path in MODULES.items()
        for node in ast.walk(ast.parse(path.read_text()))
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef))
        and node.end_lineno - node.lineno + 1 > MAX_FUNCTION_LINES
    }
    assert long == {}, f"split these along their steps (at most {MAX_FUNCTION_LINES} lines a function)"


def test_no_test_hook_ships_in_the_package():
    hooks = re.compile(r"CANARY_ZOO|\bzoo\b", re.IGNORECASE)
    found = {name: hooks.findall(path.read_text()) for name, path in MODULES.items()}
    assert {name: hits for name, hits in found.items() if hits} == {}, "test hooks belong in tests/"
