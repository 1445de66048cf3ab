"""Issue 20, item 7: ``api.run``, ``api.roll``, the worker's ``runtime.handle`` and
``python -m rules_core`` never raise and never print a traceback. Huge integers (past
Python's 4,300-digit int-to-text limit, and past float range in a number field), nesting
100,000 deep, lone surrogates (``\\ud800``) and a closed output pipe give the JSON error
(exit 2), or end quietly."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from calculators import runtime
from rules_core import api
from rules_core.catalog import calculators

NAMES = api.names()
ROLLERS = [n for n in NAMES if calculators()[n].roll]


def deep(levels: int, leaf: Any = 1, kind: str = "list") -> Any:
    """A value nested ``levels`` deep, built without recursion."""
    value = leaf
    for _ in range(levels):
        value = [value] if kind == "list" else {"k": value}
    return value


#: five times Python's recursion limit: a recursive check would fail on it; and a value
#: Pyodide's stack can free (make test-pyodide runs these tests there too)
DEEP_LEVELS = 5_000
HUGE_INTS = st.sampled_from([10**5000, -(10**5000), 10**401, -(10**401), 2**64, 10**4299])
SURROGATES = st.sampled_from(["\ud800", "d8 \udfff", "\ud800" * 50, "a\udbff\udc00b\ud800"])
DEEP = st.sampled_from([deep(DEEP_LEVELS), deep(3_000, kind="dict"), deep(33), deep(40, "d8")])
HOSTILE = st.one_of(HUGE_INTS, SURROGATES, DEEP,
                    st.lists(st.one_of(HUGE_INTS, SURROGATES), min_size=1, max_size=4),
                    st.floats(allow_nan=True, allow_infinity=True))


@st.composite
def hostile_inputs(draw: st.DrawFn, name: str) -> Any:
    if draw(st.integers(0, 9)) == 0:
        return draw(HOSTILE)  # not even an object
    inputs = dict(api.spec(name)["initial"])
    for field in calculators()[name].fields:
        if draw(st.booleans()):
            inputs[field.name] = draw(HOSTILE)
    if draw(st.integers(0, 4)) == 0:
        inputs[draw(SURROGATES)] = draw(HOSTILE)  # a key that is not valid Unicode
    return inputs


def _answers(reply: Any) -> None:
    """A reply, JSON-safe and printable; an error names its field in valid Unicode."""
    assert isinstance(reply, dict) and reply["ok"] in (True, False)
    json.dumps(reply, allow_nan=False)
    if not reply["ok"]:
        for error in reply["errors"]:
            assert error["field"] and error["message"]
            error["message"].encode("utf-8")  # no lone surrogate reaches the output


@pytest.mark.parametrize("name", NAMES)
def test_huge_integers_deep_nesting_and_invalid_unicode_never_raise(name: str) -> None:
    @settings(max_examples=25, deadline=None, derandomize=True,
              suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
    @given(hostile_inputs(name))
    def check(inputs: Any) -> None:
        _answers(api.run(name, inputs))
        if name in ROLLERS:
            _answers(api.roll(name, inputs))

    check()


def test_the_named_cases_are_refused_in_words() -> None:
    huge = api.run("gunplay.hit_odds", {"dc": 10**5000, "bonus": 3})["error"]
    assert huge == {"field": "dc", "message": "Difficulty (DC) must be a whole number from -60 "
                                              "to 80; received a 5,001-digit number."}
    floaty = api.run("heroic.ranged", {**api.spec("heroic.ranged")["initial"],
                                       "distance_yd": 10**400})["error"]
    assert floaty["field"] == "distance_yd" and "401-digit number" in floaty["message"]
    nested = api.run("cortex.odds", {"attacker": deep(DEEP_LEVELS), "defender": "d6"})["error"]
    assert nested["field"] == "inputs" and "nested" in nested["message"]
    lone = api.run("cortex.odds", {"attacker": "d8 \ud800", "defender": "d6"})["error"]
    assert lone["field"] == "attacker" and "not valid Unicode" in lone["message"]


def _handle(request: Any) -> dict[str, Any]:
    text = request if isinstance(request, str) else json.dumps(request)
    reply = json.loads(runtime.handle(text))
    _answers(reply)
    return reply


@pytest.mark.parametrize("text", [
    "[" * 3_000 + "]" * 3_000,
    '{"op": "run", "name": "cortex.odds", "inputs": ' + "[" * 100_000 + "]" * 100_000 + "}",
    '{"op": "run", "name": "cortex.odds", "inputs": {"attacker": ' + "9" * 5_001 + "}}",
    '{"op": "run", "name": "cortex.odds", "inputs": {"attacker": "\\ud800"}}',
    '{"op": "run", "name": "cortex.odds", "inputs": {"\\ud800": 1}}',
    '{"op": "run", "name": "heroic.ranged", "inputs": {"distance_yd": 1' + "0" * 400 + "}}",
    '{"op": "run", "name": "cortex.odds", "inputs": {"attacker": NaN}}',
    '{"op": "explode", "name": "cortex.odds"}',
    '{"op": "run"}', "[]", "null", "not json", "",
], ids=range(13))
def test_the_worker_runtime_answers_every_request(text: str) -> None:
    reply = _handle(text)
    assert not reply["ok"]
    alive = _handle({"op": "run", "name": "cortex.odds",
                     "inputs": {"attacker": "d8 d6", "defender": "d6"}})
    assert alive["ok"] and "html" in alive  # the runtime is still there


def test_the_runtime_turns_any_exception_into_a_reply(monkeypatch: pytest.MonkeyPatch) -> None:
    for error in (RecursionError, MemoryError, OverflowError, KeyError, ZeroDivisionError):
        def boom(*_: Any, error: type[Exception] = error) -> Any:
            raise error("deep inside")
        monkeypatch.setattr(runtime, "response_html", boom)
        reply = _handle({"op": "run", "name": "cortex.odds",
                         "inputs": {"attacker": "d8", "defender": "d6"}})
        assert reply["error"]["field"] == "request", error
        words = {RecursionError: "The request is nested too deeply to work through; nothing was changed.",
                 MemoryError: "The request is too large to work through; nothing was changed.",
                 OverflowError: "The request holds a number too large to work with; nothing was changed."}
        assert reply["error"]["message"] == words.get(
            error, f"The request could not be worked through ({error.__name__}); nothing was changed.")


def test_the_core_turns_any_exception_into_a_reply_in_words(monkeypatch: pytest.MonkeyPatch) -> None:
    from rules_core import api

    for error, message in ((RecursionError, "The inputs are nested too deeply to work through; send smaller values."),
                           (OverflowError, "The inputs hold a number too large to work with; send smaller values."),
                           (KeyError, "The inputs could not be worked through (KeyError); "
                                      "check the values and try again.")):
        def boom(*_: Any, error: type[Exception] = error) -> Any:
            raise error("deep inside")
        monkeypatch.setattr(api, "_display", boom)  # a step inside the calculation
        reply = api.run("cortex.odds", {"attacker": "d8", "defender": "d6"})
        assert not reply["ok"] and reply["error"] == {"field": "inputs", "message": message}


# ---- the command line: 36 hostile command lines, each in its own process -----------

BIG = "9" * 5_001
DEEP_TEXT = "[" * 100_000 + "]" * 100_000
CLI_CASES: list[tuple[list[str], bytes]] = [
    (["run", "gunplay.hit_odds", f'{{"dc": {BIG}, "bonus": 3}}'], b""),
    (["roll", "gunplay.hit_odds", f'{{"dc": {BIG}, "bonus": 3}}'], b""),
    (["run", "heroic.ranged", '{"distance_yd": 1' + "0" * 400 + "}"], b""),
    (["run", "heroic.ranged", '{"distance_yd": -1' + "0" * 400 + "}"], b""),
    (["run", "heroic.ranged", '{"distance_yd": 1e999}'], b""),
    (["run", "gunplay.hit_odds", "-"], DEEP_TEXT.encode()),
    (["roll", "gunplay.hit_odds", "-"], ('{"dc": ' + DEEP_TEXT + "}").encode()),
    (["run", "gunplay.hit_odds", "-"], ('{"a": ' * 50_000 + "1" + "}" * 50_000).encode()),
    (["run", "gunplay.hit_odds", '{"dc": "\\ud800", "bonus": 3}'], b""),
    (["run", "gunplay.hit_odds", '{"\\ud800": 1}'], b""),
    (["run", "cortex.odds", '{"attacker": "d8 \\udfff", "defender": "d6"}'], b""),
    (["roll", "cortex.odds", '{"attacker": "\\ud800", "defender": "d6"}'], b""),
    (["run", "\udcff", "{}"], b""),
    (["spec", "\udcff"], b""),
    (["run", "gunplay.hit_odds", "-"], b'{"dc": "\xff\xfe", "bonus": 3}'),
    (["run", "gunplay.hit_odds", "-"], b"\xff\xfe\x00"),
    (["run", "gunplay.hit_odds", "-"], b""),
    (["run", "gunplay.hit_odds", ""], b""),
    (["run", "gunplay.hit_odds", "{not json"], b""),
    (["run", "gunplay.hit_odds", "null"], b""),
    (["run", "gunplay.hit_odds", "[]"], b""),
    (["run", "gunplay.hit_odds", '"text"'], b""),
    (["run", "gunplay.hit_odds", '{"dc": NaN, "bonus": Infinity}'], b""),
    (["run", "gunplay.hit_odds", '{"dc": true, "bonus": [3]}'], b""),
    (["run", "nope.nothing", "{}"], b""),
    (["roll", "gunplay.difficulty", "{}"], b""),
    (["run", "phases.tracker", '{"event": "' + "[" * 5_000 + '"}'], b""),
    (["run", "sucs.roster_import", json.dumps({"file": "[" * 100_000})], b""),
    (["run", "sucs.roster_check", json.dumps({"roster": '{"units": ' + BIG + "}"})], b""),
    (["run", "cortex.odds", json.dumps({"attacker": "d8 " * 10_000, "defender": "d6"})], b""),
    (["spec", "nope"], b""),
    (["frobnicate"], b""),
    (["run"], b""),
    (["run", "gunplay.hit_odds", "{}", "extra"], b""),
]


def _cli(args: list[str], stdin: bytes, stdout: int = subprocess.PIPE) -> subprocess.CompletedProcess[bytes]:
    env = {**os.environ, "PYTHONIOENCODING": "utf-8"}
    return subprocess.run([sys.executable, "-m", "rules_core", *args], input=stdin,
                          stdout=stdout, stderr=subprocess.PIPE, env=env, check=False)


@pytest.mark.parametrize("args,stdin", CLI_CASES, ids=range(len(CLI_CASES)))
def test_hostile_command_lines_answer_in_json_without_a_traceback(args: list[str],
                                                                  stdin: bytes) -> None:
    done = _cli(args, stdin)
    assert b"Traceback" not in done.stderr, done.stderr[-2000:]
    if args[1:2] == ["sucs.roster_import"]:  # a refused file is a result: accepted false
        assert done.returncode == 0 and json.loads(done.stdout)["result"]["accepted"] is False
        return
    assert done.returncode == 2, (done.returncode, done.stdout[-500:], done.stderr[-500:])
    if args[0] in {"run", "roll", "spec"} and len(args) in {2, 3}:
        reply = json.loads(done.stdout)
        assert reply["ok"] is False and reply["error"]["message"]


@pytest.mark.parametrize("args", [["list"], ["spec", "cortex.odds"],
                                  ["run", "cortex.odds", '{"attacker": "d8", "defender": "d6"}']])
def test_a_closed_pipe_ends_the_program_quietly(args: list[str]) -> None:
    read, write = os.pipe()
    os.close(read)  # nobody will read what the program writes
    try:
        done = _cli(args, b"", stdout=write)
    finally:
        os.close(write)
    assert done.stderr == b"", done.stderr[-2000:]
    assert done.returncode == 1
