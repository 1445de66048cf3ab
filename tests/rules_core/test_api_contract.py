"""The JSON contract of every calculator: success shape, and bad input -> an error that
names the field, never an exception. Runs over every name, so new calculators are
covered automatically."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from rules_core import api
from rules_core.catalog import SYSTEMS
from rules_core.fields import ChoiceField, IntField, NumberField

NAMES = api.names()


def test_there_are_calculators() -> None:
    assert "gunplay.difficulty" in NAMES


@pytest.mark.parametrize("name", NAMES)
def test_initial_inputs_compute(name: str) -> None:
    spec = api.spec(name)
    response = api.run(name, spec["initial"])
    assert response["ok"], response
    assert set(response) >= {"ok", "result", "explanation", "display"}
    json.dumps(response)  # JSON-safe
    assert isinstance(response["explanation"], str)
    for label, value in response["display"]["headline"]:
        assert isinstance(label, str) and isinstance(value, str)


@pytest.mark.parametrize("name", NAMES)
def test_unknown_field_is_an_error(name: str) -> None:
    response = api.run(name, {**api.spec(name)["initial"], "no_such_input": 1})
    error = {"field": "no_such_input", "message": response["error"]["message"]}
    assert response == {"ok": False, "error": error, "errors": [error]}
    assert "not an input" in response["error"]["message"]


@pytest.mark.parametrize("name", NAMES)
@pytest.mark.parametrize("bad", [None, [], "text", 3, {"a": {"b": [1, 2]}}])
def test_non_object_or_garbage_inputs_never_raise(name: str, bad: object) -> None:
    response = api.run(name, bad)
    assert response["ok"] in (True, False)
    if not response["ok"]:
        assert response["error"]["field"] and response["error"]["message"]


def _fields(name: str):
    from rules_core.catalog import calculators

    return calculators()[name].fields


@pytest.mark.parametrize("name", NAMES)
def test_wrong_type_and_out_of_range_name_the_field(name: str) -> None:
    initial = api.spec(name)["initial"]
    for field in _fields(name):
        if field.name not in initial:
            continue
        bads: list[object] = []
        if isinstance(field, (IntField, NumberField)):
            bads = ["many", True, field.maximum + 1, field.minimum - 1, float("inf")]
        elif isinstance(field, ChoiceField):
            bads = ["<script>", 12345]
        for bad in bads:
            response = api.run(name, {**initial, field.name: bad})
            assert not response["ok"], (name, field.name, bad)
            assert response["error"]["field"].split(".")[0] == field.name, (name, field.name, bad)


@pytest.mark.parametrize("name", NAMES)
def test_missing_required_fields_name_the_field(name: str) -> None:
    from rules_core.fields import REQUIRED

    initial = api.spec(name)["initial"]
    for field in _fields(name):
        if field.default is REQUIRED and not field.optional and field.shown_if is None:
            inputs = {k: v for k, v in initial.items() if k != field.name}
            response = api.run(name, inputs)
            assert not response["ok"]
            assert response["error"]["field"] == field.name


def test_unknown_calculator() -> None:
    response = api.run("nope.nothing", {})
    assert not response["ok"] and response["error"]["field"] == "name"


def _cli(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "rules_core", *args],
                          capture_output=True, text=True)


def test_command_line_list_run_and_errors() -> None:
    listed = _cli("list")
    assert listed.returncode == 0 and "gunplay.difficulty" in listed.stdout
    ok = _cli("run", "gunplay.hit_odds", '{"dc": 16, "bonus": 10, "rounds": 3, "recoil": 2, "roll_total": 19}')
    assert ok.returncode == 0 and json.loads(ok.stdout)["result"]["hits"] == 2
    bad = _cli("run", "gunplay.difficulty", '{"size": "enormous"}')
    assert bad.returncode == 2 and json.loads(bad.stdout)["error"]["field"] == "size"
    malformed = _cli("run", "gunplay.difficulty", "{not json")
    assert malformed.returncode == 2 and json.loads(malformed.stdout)["error"]["field"] == "inputs"
    spec = _cli("spec", "gunplay.difficulty")
    assert spec.returncode == 0 and json.loads(spec.stdout)["name"] == "gunplay.difficulty"
    assert _cli("spec", "nope").returncode == 2
    assert _cli("frobnicate").returncode == 2


def test_rules_core_imports_nothing_from_the_web_or_the_build() -> None:
    """rules_core must run unchanged in Pyodide and CPython: no js, pyodide, mkdocs, jinja2."""
    import ast
    from pathlib import Path

    forbidden = {"js", "pyodide", "mkdocs", "jinja2", "markdown", "markdown_it"}
    root = Path(api.__file__).parent
    for path in root.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Import):
                roots = {alias.name.split(".")[0] for alias in node.names}
            elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
                roots = {node.module.split(".")[0]}
            else:
                continue
            assert not roots & forbidden, f"{path}: imports {roots & forbidden}"


def test_a_calculator_imports_its_own_system_only() -> None:
    """The runtime's start imports no system; a request imports its calculator's system
    alone (the other four wait until they are asked for or the snapshot is made); an
    unknown name lists every calculator."""
    script = (
        "import sys\n"
        "from rules_core import api\n"
        "from rules_core.catalog import SYSTEMS\n"
        "loaded = lambda: sorted(s for s in SYSTEMS\n"
        "                        if f'rules_core.{s}.calculators' in sys.modules)\n"
        "print(loaded())\n"
        "assert api.run('gunplay.difficulty', api.spec('gunplay.difficulty')['initial'])['ok']\n"
        "print(loaded())\n"
        "print(api.run('cortex.nothing', {})['error']['message'])\n"
        "print(loaded())\n")
    out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                         check=True).stdout.splitlines()
    assert out[0] == "[]"
    assert out[1] == "['gunplay']"
    assert "no calculator is called" in out[2] and "phases.engagement" in out[2]
    assert out[3] == str(sorted(SYSTEMS))
