"""Every calculator of every system, by name.

Each system package has a registry, its ``calculators`` module, whose ``CALCULATORS``
tuple lists the calculators its ``calc_<page>`` modules declare (one module per page, named
after it); listing a calculator there is all it takes for the API, the command line and
the site to see it.
The same module may have ``TABLES``: name -> function returning a rules table
(``{"caption", "header", "rows"}``) that the site renders with the ``rules-table`` fence,
and ``APPS``: name -> function returning the data an app (the army builder, the
tracker) needs from the core.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from functools import cache
from typing import Any

from rules_core.calculator import Calculator

SYSTEMS = ("gunplay", "cortex", "heroic", "sucs", "phases")


@cache
def system_calculators(system: str) -> dict[str, Calculator]:
    """One system's calculators keyed by name, importing only that system (a page with
    one system's calculators starts without the other four)."""
    module = importlib.import_module(f"rules_core.{system}.calculators")
    found: dict[str, Calculator] = {}
    for calc in module.CALCULATORS:
        if not calc.name.startswith(system + "."):
            raise ValueError(f"calculator {calc.name!r} must be named {system}.<name>")
        if calc.name in found:
            raise ValueError(f"calculator {calc.name!r} is declared twice")
        found[calc.name] = calc
    return found


@cache
def calculators() -> dict[str, Calculator]:
    """All calculators keyed by name ("system.calculator"), in system order."""
    return {name: calc for system in SYSTEMS for name, calc in system_calculators(system).items()}


def find(name: object) -> Calculator | None:
    """The calculator called ``name`` (imports its system only), or None."""
    if not isinstance(name, str):
        return None
    system = name.partition(".")[0]
    return system_calculators(system).get(name) if system in SYSTEMS else None


def _registered(what: str) -> dict[str, Callable[[], dict[str, Any]]]:
    """Every system registry's ``what`` (``TABLES``, ``APPS``), keyed by "system.name"."""
    found: dict[str, Callable[[], dict[str, Any]]] = {}
    for system in SYSTEMS:
        module = importlib.import_module(f"rules_core.{system}.calculators")
        for name, fn in getattr(module, what, {}).items():
            if not name.startswith(system + "."):
                raise ValueError(f"{what} entry {name!r} must be named {system}.<name>")
            found[name] = fn
    return found


@cache
def rules_tables() -> dict[str, Callable[[], dict[str, Any]]]:
    """Every rules table the docs can render, keyed by name ("system.table")."""
    return _registered("TABLES")


@cache
def apps() -> dict[str, Callable[[], dict[str, Any]]]:
    """Every app's data from the core, keyed by the app's name ("system.app")."""
    return _registered("APPS")
