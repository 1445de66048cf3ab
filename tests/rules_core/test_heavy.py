"""The tests marked heavy (run in CPython only, see conftest.py) are real tests, and no
module loses all its tests in the Pyodide run."""

from __future__ import annotations

import ast
from pathlib import Path

from tests.rules_core.conftest import HEAVY

HERE = Path(__file__).resolve().parent


def functions_in(module: str) -> set[str]:
    tree = ast.parse((HERE / module).read_text(encoding="utf-8"))
    return {node.name for node in tree.body
            if isinstance(node, ast.FunctionDef) and node.name.startswith("test_")}


def test_every_heavy_test_exists() -> None:
    missing = [name for name in HEAVY
               if name.split("::")[1] not in functions_in(name.split("::")[0])]
    assert missing == []


def test_every_module_keeps_tests_inside_pyodide() -> None:
    for module in {name.split("::")[0] for name in HEAVY}:
        heavy = {name.split("::")[1] for name in HEAVY if name.startswith(module + "::")}
        assert functions_in(module) - heavy, f"{module}: every test is heavy"
