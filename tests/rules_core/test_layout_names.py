"""The same file names for the same roles in every system (issue 28, item 2): a calculator
lives in the module named after the page it sits on, ``rules_core/<system>/calc_<page>.py``
(``<page>`` is the last part of the page's path, "-" written "_"), or, when the page's
calculators would make one file too long, in ``calc_<page>_<topic>.py``; each system's
``calculators.py`` is its registry only.

The systems, their calculators and their pages are read from the catalog, never retyped.
"""

from __future__ import annotations

import ast
import importlib
import inspect
from pathlib import Path

import pytest

from rules_core import catalog
from rules_core.calculator import Calculator

#: the rules_core package directory
ROOT = Path(catalog.__file__).resolve().parent
SYSTEMS = catalog.SYSTEMS
#: what a registry may assign at its top level
REGISTRY_NAMES = {"CALCULATORS", "APPS", "TABLES", "__all__"}


def page_slug(calc: Calculator) -> str:
    """``calc_<slug>`` is the module of ``calc``'s page: the page path's last part, "-" as "_"."""
    return calc.page.strip("/").rsplit("/", 1)[-1].replace("-", "_")


def named_after(module: str, system: str, slug: str) -> bool:
    """Whether ``module`` is ``rules_core.<system>.calc_<slug>`` or ``..._<slug>_<topic>``."""
    home = f"rules_core.{system}.calc_{slug}"
    return module == home or (module.startswith(home + "_") and len(module) > len(home) + 1)


def calc_modules(system: str) -> list[str]:
    """Every ``calc_*.py`` module of ``system``, by its import name."""
    return [f"rules_core.{system}.{path.stem}" for path in sorted((ROOT / system).glob("calc_*.py"))]


def declared_in(module_name: str) -> list[Calculator]:
    """The calculators ``module_name`` declares: the ones whose compute function it defines
    (a calculator imported from another module is not declared there)."""
    module = importlib.import_module(module_name)
    return [value for value in vars(module).values()
            if isinstance(value, Calculator) and value.compute.__module__ == module_name]


def test_the_systems_are_those_of_the_catalog() -> None:
    named = {name.partition(".")[0] for name in catalog.calculators()}
    assert named == set(SYSTEMS)
    for calc in catalog.calculators().values():
        assert calc.page.strip("/").split("/")[0] == calc.name.partition(".")[0], \
            f"{calc.name} sits on {calc.page!r}, a page of another system"


def test_every_calculator_lives_in_the_module_named_after_its_page() -> None:
    wrong = []
    for name, calc in catalog.calculators().items():
        system, slug = name.partition(".")[0], page_slug(calc)
        module = calc.compute.__module__
        if not named_after(module, system, slug):
            home = f"rules_core.{system}.calc_{slug}"
            wrong.append(f"{name} (page {calc.page}) is declared in {module}, not in "
                         f"{home} or {home}_<topic>")
    assert not wrong, "calculators outside their page's module:\n  " + "\n  ".join(wrong)


def test_calc_modules_sit_in_a_system_package_only() -> None:
    stray = [str(path.relative_to(ROOT.parent)) for path in sorted(ROOT.rglob("calc_*.py"))
             if path.parent.parent != ROOT or path.parent.name not in SYSTEMS]
    assert not stray, f"calc_ modules outside a system's package: {stray}"


@pytest.mark.parametrize("system", SYSTEMS)
def test_every_calc_module_holds_registered_calculators_of_its_page_only(system: str) -> None:
    registered = {id(calc) for calc in catalog.system_calculators(system).values()}
    modules = calc_modules(system)
    assert modules, f"rules_core/{system} has no calc_<page>.py module"
    wrong = []
    for module in modules:
        calcs = declared_in(module)
        if not calcs:
            wrong.append(f"{module} declares no calculator (a helper shared by several "
                         f"calc modules belongs in a module named for its role)")
        for calc in calcs:
            if not named_after(module, system, page_slug(calc)):
                wrong.append(f"{module} declares {calc.name} of page {calc.page}")
            if id(calc) not in registered:
                wrong.append(f"{module} declares {calc.name}, which {system}'s registry does "
                             f"not list")
        if len({calc.page for calc in calcs}) > 1:
            wrong.append(f"{module} mixes pages: {sorted({calc.page for calc in calcs})}")
    assert not wrong, "\n  ".join(["calc modules against the naming:"] + wrong)


@pytest.mark.parametrize("system", SYSTEMS)
def test_each_registry_only_lists(system: str) -> None:
    """``calculators.py`` imports and lists: no calculator, table or app is defined there."""
    name = f"rules_core.{system}.calculators"
    registry = importlib.import_module(name)
    source = inspect.getsource(registry)
    assert "Calculator(" not in source, f"{name} declares a calculator"
    defined_here = [calc.name for calc in registry.CALCULATORS if calc.compute.__module__ == name]
    assert not defined_here, f"{name} defines the compute functions of {defined_here}"
    for what in ("TABLES", "APPS"):
        for key, fn in getattr(registry, what, {}).items():
            assert fn.__module__ != name, f"{name} defines {what} entry {key!r} itself"
    for node in ast.parse(source).body:
        if isinstance(node, ast.Import | ast.ImportFrom):
            continue
        if isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant):
            continue  # the docstring
        targets = (node.targets if isinstance(node, ast.Assign)
                   else [node.target] if isinstance(node, ast.AnnAssign) else [])
        assert targets and all(isinstance(t, ast.Name) and t.id in REGISTRY_NAMES
                               for t in targets), \
            f"{name} line {node.lineno}: a registry holds imports and {sorted(REGISTRY_NAMES)} only"


def test_the_rule_refuses_the_old_homes() -> None:
    """The cortex initiative (page firefights) in ``calc_dice`` and the whole firefight in
    ``calc_fight`` (their homes before issue 28) are refused; the page's module, with or
    without a topic, is accepted."""
    calc = catalog.find("cortex.initiative")
    assert calc is not None and page_slug(calc) == "firefights"
    for stem, ok in (("calc_dice", False), ("calc_fight", False), ("calc_firefights", True),
                     ("calc_firefights_fight", True), ("calc_firefightsfight", False),
                     ("calc_firefights_", False)):
        assert named_after(f"rules_core.cortex.{stem}", "cortex", "firefights") is ok, stem
    assert not named_after("rules_core.gunplay.calc_firefights", "cortex", "firefights")
    assert page_slug(catalog.calculators()["gunplay.range_band"]) == "size_and_range"


def test_each_systems_whole_fight_is_in_its_pages_fight_module() -> None:
    """The same role under the same name: every system's whole fight (``<system>.engagement``,
    the calculator on the system's ``fight.py``) is ``calc_<page>_fight.py``, and that module
    holds nothing else."""
    for system in SYSTEMS:
        calc = catalog.calculators()[f"{system}.engagement"]
        home = f"rules_core.{system}.calc_{page_slug(calc)}_fight"
        assert calc.compute.__module__ == home, f"{calc.name} is in {calc.compute.__module__}"
        assert [c.name for c in declared_in(home)] == [calc.name]
