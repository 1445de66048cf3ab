"""Imports run downward only (DESIGN.md, "Layers and one shape per system"), read from the
source without importing it.

:func:`import_graph` reads every module of a package with :mod:`ast` and lists what it
imports: top-level imports and those inside functions, classes, ``if`` blocks (``if
TYPE_CHECKING:`` too) and ``try``, relative imports, ``from package import module``
(an edge to the module), and ``importlib.import_module("name")`` / ``__import__("name")``
with a literal name. :func:`find_cycle` finds a cycle in such a graph.

The site package is split by when its code runs (:data:`CALCULATOR_LAYERS`): the browser
half (shipped in the Python bundle), the shared base of the build, the fences (run inside
the generator) and the post-build step (which runs on any generator's output, so never
needs the fences).
"""

from __future__ import annotations

import ast
import sys
from functools import cache
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent

Graph = dict[str, set[str]]


def _module_file(name: str) -> Path | None:
    """The source file of module ``name`` in this project (a package's ``__init__.py``),
    or None if the project has no such module."""
    base = ROOT.joinpath(*name.split("."))
    for path in (base.with_suffix(".py"), base / "__init__.py"):
        if path.is_file():
            return path
    return None


def _is_local_module(name: str) -> bool:
    return _module_file(name) is not None


def _modules(package: str) -> dict[str, Path]:
    """{module name: source file} of every module of ``package``, subpackages included."""
    init = _module_file(package)
    if init is None or init.name != "__init__.py":
        raise ValueError(f"{package} is not a package of this project")
    out = {}
    for path in sorted(init.parent.rglob("*.py")):
        parts = path.relative_to(ROOT).with_suffix("").parts
        if parts[-1] == "__init__":
            parts = parts[:-1]
        out[".".join(parts)] = path
    return out


def _imported(module: str, is_package: bool, tree: ast.AST) -> set[str]:
    """The absolute names of the modules ``module``'s source imports."""
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                # relative: from the module's own package (a package's __init__ is its own)
                anchor = module.split(".")
                if not is_package:
                    anchor = anchor[:-1]
                anchor = anchor[: len(anchor) - (node.level - 1)]
                base = ".".join(anchor + ([node.module] if node.module else []))
            else:
                base = node.module or ""
            for alias in node.names:
                sub = f"{base}.{alias.name}" if base else alias.name
                # ``from package import module`` imports the module; anything else, the package
                names.add(sub if alias.name != "*" and _is_local_module(sub) else base)
        elif isinstance(node, ast.Call):
            func = node.func
            called = func.attr if isinstance(func, ast.Attribute) else func.id if isinstance(func, ast.Name) else ""
            if called in ("import_module", "__import__") and node.args and \
                    isinstance(node.args[0], ast.Constant) and isinstance(node.args[0].value, str):
                names.add(node.args[0].value)
    names.discard("")
    return names


@cache
def import_graph(package: str) -> Graph:
    """{module: the modules it imports} for every module of ``package`` (a package of
    this project: ``"calculators"``, ``"rules_core"``), read from the source, nothing
    imported. Imported names are absolute and include other packages and the standard
    library; an import of ``a.b.c`` is an edge to ``a.b.c`` only (not to the packages
    ``a`` and ``a.b`` Python runs on the way)."""
    graph: Graph = {}
    for module, path in _modules(package).items():
        tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
        graph[module] = _imported(module, path.name == "__init__.py", tree)
    return graph


def find_cycle(graph: Graph) -> list[str] | None:
    """A cycle among the modules of ``graph`` (its keys; edges leaving them are ignored)
    as ``[a, b, ..., a]``, or None. A module naming itself (the ``python -m`` idiom
    ``if __name__ == "__main__": from package.module import main``) is not a cycle."""
    done: set[str] = set()
    path: list[str] = []
    on_path: set[str] = set()

    def visit(module: str) -> list[str] | None:
        path.append(module)
        on_path.add(module)
        for target in sorted(graph[module]):
            if target == module or target not in graph or target in done:
                continue
            if target in on_path:
                return path[path.index(target):] + [target]
            found = visit(target)
            if found:
                return found
        path.pop()
        on_path.discard(module)
        done.add(module)
        return None

    for module in sorted(graph):
        if module not in done:
            found = visit(module)
            if found:
                return found
    return None


def _within(graph: Graph, prefix: str) -> Graph:
    """``graph`` with only the edges to ``prefix`` (a package) and its modules."""
    return {m: {t for t in targets if t == prefix or t.startswith(prefix + ".")} for m, targets in graph.items()}


# --- the site package ---------------------------------------------------------------------

#: every module of ``calculators``, by when it runs; a new module must be placed here
CALCULATOR_LAYERS: dict[str, set[str]] = {
    # shipped in the Python bundle, run in the browser (and by the fences for first paint)
    "browser": {"calculators", "calculators.lean", "calculators.render", "calculators.runtime"},
    # where things go and the bundle itself: for the fences and the post-build step alike
    "shared": {"calculators.layout", "calculators.bundle"},
    # run inside the generator (Python-Markdown extensions named in mkdocs.yml)
    "generator": {"calculators.fence", "calculators.glossary"},
    # run on the generator's output, whichever generator wrote it; and the server
    "post-build": {"calculators.build", "calculators.pages", "calculators.verify", "calculators.hashed",
                   "calculators.installable", "calculators.service_worker", "calculators.generate", "calculators.serve"},
}
#: the layers of ``calculators`` each layer may import
MAY_IMPORT: dict[str, set[str]] = {
    "browser": {"browser"},
    "shared": {"shared"},
    "generator": {"generator", "shared", "browser"},
    "post-build": {"post-build", "shared"},
}


def _layer_of(module: str) -> str:
    return next(layer for layer, modules in CALCULATOR_LAYERS.items() if module in modules)


def _bundled_packages() -> set[str]:
    """``calculators.bundle.BUNDLED_PACKAGES``, read from its source."""
    tree = ast.parse((ROOT / "calculators" / "bundle.py").read_text(encoding="utf-8"))
    for node in ast.walk(tree):
        if isinstance(node, ast.AnnAssign | ast.Assign):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            if any(isinstance(t, ast.Name) and t.id == "BUNDLED_PACKAGES" for t in targets):
                assert node.value is not None
                return set(ast.literal_eval(node.value))
    raise AssertionError("calculators/bundle.py defines no BUNDLED_PACKAGES")


def test_the_graph_reads_every_kind_of_import() -> None:
    graph = import_graph("calculators")
    assert "calculators.runtime" in graph and "calculators" in graph
    assert "calculators.render" in graph["calculators.runtime"]  # from calculators.render import ...
    assert "rules_core.api" in graph["calculators.runtime"]  # from rules_core import api (a module)
    assert "rules_core.catalog" in graph["calculators.fence"]  # from rules_core.catalog import a function
    tree = ast.parse("from . import render\nfrom .render import x\nif TYPE_CHECKING:\n    import rules_core.api\n"
                     "def f():\n    import json\n    importlib.import_module('calculators.fence')\n")
    assert _imported("calculators.runtime", False, tree) == {
        "calculators.render", "rules_core.api", "json", "calculators.fence"}
    assert _imported("rules_core.dice", True, ast.parse("from . import distribution\nfrom .. import api\n")) == {
        "rules_core.dice.distribution", "rules_core.api"}


def test_find_cycle_names_the_cycle() -> None:
    assert find_cycle({"a": {"b"}, "b": {"c", "json"}, "c": set()}) is None
    assert find_cycle({"a": {"a"}}) is None
    assert find_cycle({"a": {"b"}, "b": {"c"}, "c": {"b"}}) == ["b", "c", "b"]


def test_the_site_package_has_no_import_cycle() -> None:
    graph = _within(import_graph("calculators"), "calculators")
    cycle = find_cycle(graph)
    assert cycle is None, "calculators modules import each other in a cycle: " + " -> ".join(cycle or [])


def test_every_site_module_has_a_layer() -> None:
    placed = [m for modules in CALCULATOR_LAYERS.values() for m in modules]
    assert len(placed) == len(set(placed)), "a module is in two layers"
    assert set(import_graph("calculators")) == set(placed), \
        "every calculators module belongs to exactly one layer of CALCULATOR_LAYERS"


def test_the_site_package_imports_downward_only() -> None:
    """The fences never import the post-build step and the post-build step never imports
    the fences (it runs on any generator's output); the browser half imports nothing of
    the build."""
    wrong = []
    for module, targets in sorted(_within(import_graph("calculators"), "calculators").items()):
        layer = _layer_of(module)
        for target in sorted(targets - {module}):
            if _layer_of(target) not in MAY_IMPORT[layer]:
                wrong.append(f"{module} ({layer}) imports {target} ({_layer_of(target)})")
    assert not wrong, "imports against the layers:\n  " + "\n  ".join(wrong)


def test_the_browser_half_imports_only_what_the_bundle_ships() -> None:
    """What runs in Pyodide can import only the standard library, the browser half of
    ``calculators`` and the bundled packages (``rules_core``, its dice engine, the Markdown
    parser), and Pyodide's own ``js`` (the worker's global scope: calculators.lean asks
    the worker for the zips a start from a snapshot did not download)."""
    shipped = _bundled_packages() | {"calculators", "js"}
    graph = import_graph("calculators")
    wrong = [f"{module} imports {target}"
             for module in sorted(CALCULATOR_LAYERS["browser"]) for target in sorted(graph[module])
             if target.split(".")[0] not in shipped and target.split(".")[0] not in sys.stdlib_module_names]
    assert not wrong, "the browser half imports what the bundle does not ship:\n  " + "\n  ".join(wrong)


def test_the_rules_core_never_imports_the_site() -> None:
    graph = _within(import_graph("rules_core"), "calculators")
    wrong = [f"{module} imports {', '.join(sorted(targets))}" for module, targets in sorted(graph.items()) if targets]
    assert not wrong, "rules_core imports the site package:\n  " + "\n  ".join(wrong)


# --- the rules core -----------------------------------------------------------------------

SYSTEMS = tuple(sorted(p.name for p in (ROOT / "rules_core").iterdir()
                       if (p / "calculators.py").is_file()))
#: what sits above the rules: input fields, calculator declarations, explanations and the
#: fight's presentation, the registry and the JSON entry point
PRESENTATION = {"rules_core.fields", "rules_core.fields.base", "rules_core.fields.nested",
                "rules_core.calculator", "rules_core.explain", "rules_core.fight_result",
                "rules_core.catalog", "rules_core.api", "rules_core.__main__",
                # the fair-fight finder: a search of whole-fight calculators
                "rules_core.balance", "rules_core.balance.search", "rules_core.balance.calculator"}


#: rule modules that read stored data or typed text into a rule value with the field
#: declarations (a roster file, a tracker log, a die size), each with the field helpers it uses
RULES_THAT_PARSE_FIELDS = {
    ("rules_core.cortex.dice", "rules_core.fields"),  # the die-size choice every pool takes
    ("rules_core.phases.tracker_json", "rules_core.fields"),  # a saved tracker log
    ("rules_core.sucs.roster", "rules_core.fields"),  # a roster file
    ("rules_core.sucs.unitfields", "rules_core.fields"),  # a unit's stats, in a form or a file
}


def _is_presentation(module: str) -> bool:
    """A module above the rules: the shared presentation modules, and in a system its
    calculators (``calc_<page>``, the ``calculators`` registry), its shared fields
    (``inputs``) and the docs' tables (``reference``)."""
    last = module.rsplit(".", 1)[-1]
    return (module in PRESENTATION or last.startswith("calc_")
            or (module.count(".") == 2 and last in {"calculators", "inputs", "reference"}))


def test_the_systems_are_found() -> None:
    """The packages with a calculators module are the catalog's systems, no more, no
    fewer (the one list of systems is rules_core.catalog.SYSTEMS)."""
    tree = ast.parse((ROOT / "rules_core" / "catalog.py").read_text(encoding="utf-8"))
    listed = next(ast.literal_eval(node.value) for node in tree.body if isinstance(node, ast.Assign)
                  and any(isinstance(t, ast.Name) and t.id == "SYSTEMS" for t in node.targets))
    assert len(SYSTEMS) >= 5 and SYSTEMS == tuple(sorted(listed))


def test_the_rules_core_has_no_import_cycle() -> None:
    cycle = find_cycle(_within(import_graph("rules_core"), "rules_core"))
    assert cycle is None, "rules_core modules import each other in a cycle: " + " -> ".join(cycle or [])


def test_the_fight_solver_imports_only_the_standard_library() -> None:
    imported = import_graph("rules_core")["rules_core.solver"]
    wrong = sorted(t for t in imported if t.split(".")[0] not in sys.stdlib_module_names)
    assert not wrong, f"rules_core.solver imports {wrong}"


@pytest.mark.parametrize("system", SYSTEMS)
def test_each_system_fights_through_one_fight_module_below_the_presentation(system: str) -> None:
    """Every system has ``fight.py`` (its implementation of the one fight interface,
    ``rules_core.solver.Fight``), and neither it nor any rule module it reaches imports
    a form field, a calculator, an explanation helper or the fight's presentation."""
    graph = _within(import_graph("rules_core"), "rules_core")
    start = f"rules_core.{system}.fight"
    assert start in graph, f"rules_core/{system}/fight.py is missing"
    wrong, seen, todo = [], {start}, [start]
    while todo:
        module = todo.pop()
        for target in sorted(graph[module]):
            if _is_presentation(target) and (module, target) not in RULES_THAT_PARSE_FIELDS:
                wrong.append(f"{module} imports {target}")
            elif target not in seen and not _is_presentation(target):
                seen.add(target)
                todo.append(target)
    assert not wrong, "the fight's rules reach the presentation:\n  " + "\n  ".join(wrong)
    assert "rules_core.solver" in graph[start] or any(
        "rules_core.solver" in graph[m] for m in seen), f"{start} does not use rules_core.solver"


def test_only_the_presentation_imports_the_presentation() -> None:
    """The rules (tables, resolution, fights, dice) never import what sits above them,
    with the input parsers that build a rule value from text as the one exception: they
    live beside their rule and import the field helpers they need."""
    graph = _within(import_graph("rules_core"), "rules_core")
    wrong = [f"{module} imports {target}"
             for module, targets in sorted(graph.items()) if not _is_presentation(module)
             for target in sorted(targets)
             if _is_presentation(target) and (module, target) not in RULES_THAT_PARSE_FIELDS]
    assert not wrong, "rule modules import the presentation:\n  " + "\n  ".join(wrong)
