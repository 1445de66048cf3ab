"""Every calculator fuzzed through its public JSON entry point.

Inputs are generated from each calculator's own field declarations: valid values,
values just outside the allowed range, wrong types, NaN and infinities, empty and
unicode strings, huge numbers, deep nesting, missing and unknown fields. Every call
must return ``ok: true`` or an error naming a field, never raise; pathological sizes
must be refused up front. The number of inputs tried and the slowest call for each
calculator are printed at the end of the run (no timing is asserted).
"""

from __future__ import annotations

import json
import math
import sys
import time
from collections import defaultdict
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rules_core import api
from rules_core.catalog import calculators
from rules_core.fields import BoolField, ChoiceField, Field, IntField, NumberField, TextField

#: inputs tried per calculator: inside Pyodide (the same core, under the browser's Python:
#: ``make test-pyodide``) half as many, the suite's longest part there; CPython tries all
EXAMPLES = 60 if sys.platform == "emscripten" else 120
FUZZ_STATS: dict[str, dict[str, float]] = defaultdict(lambda: {"inputs": 0, "slowest_ms": 0.0})

DICE = st.sampled_from([4, 6, 8, 10, 12])
JUNK = st.recursive(
    st.one_of(
        st.none(), st.booleans(),
        st.integers(min_value=-(10**30), max_value=10**30),
        st.floats(allow_nan=True, allow_infinity=True),
        st.text(max_size=60),
        st.sampled_from(["", " ", "<script>alert(1)</script>", "javascript:alert(1)",
                         '"><img src=x onerror=alert(1)>', "𝔡𝟙𝟚 ﷽", "d" * 3000, "1e400",
                         "d12 " * 500, "NaN", "-0", "__proto__"]),
    ),
    lambda children: st.one_of(st.lists(children, max_size=5),
                               st.dictionaries(st.text(max_size=8), children, max_size=4)),
    max_leaves=12,
)


def valid_value(field: Field) -> st.SearchStrategy[Any]:
    if isinstance(field, IntField):
        return st.integers(min_value=field.minimum, max_value=field.maximum)
    if isinstance(field, NumberField):
        return st.floats(min_value=field.minimum, max_value=field.maximum, allow_nan=False)
    if isinstance(field, ChoiceField):
        return st.sampled_from(field.values())
    if isinstance(field, BoolField):
        return st.booleans()
    if isinstance(field, TextField):
        start = field.start
        options = [st.just(start)] if start is not None else []
        options += [st.lists(DICE, max_size=14), st.text(max_size=40),
                    st.lists(DICE, min_size=1, max_size=14).map(
                        lambda dice: " ".join(f"d{d}" for d in dice))]
        return st.one_of(*options)
    return JUNK


def near_miss(field: Field) -> st.SearchStrategy[Any]:
    if isinstance(field, (IntField, NumberField)):
        return st.sampled_from([field.minimum - 1, field.maximum + 1, field.maximum * 1000 + 7,
                                math.nan, math.inf, -math.inf, str(field.maximum), 1.5])
    return JUNK


@st.composite
def inputs_for(draw: st.DrawFn, name: str) -> Any:
    fields = calculators()[name].fields
    if draw(st.integers(0, 19)) == 0:
        return draw(JUNK)  # not even an object
    base = dict(api.spec(name)["initial"]) if draw(st.booleans()) else {}
    for field in fields:
        choice = draw(st.integers(0, 9))
        if choice <= 4:
            base[field.name] = draw(valid_value(field))
        elif choice == 5:
            base.pop(field.name, None)
        elif choice == 6:
            base[field.name] = draw(near_miss(field))
        elif choice == 7:
            base[field.name] = draw(JUNK)
        # else: leave the starting value (or nothing)
    if draw(st.integers(0, 9)) == 0:
        base[draw(st.text(min_size=1, max_size=12))] = draw(JUNK)
    return base


def check_response(name: str, inputs: Any) -> None:
    t0 = time.perf_counter()
    response = api.run(name, inputs)
    elapsed = (time.perf_counter() - t0) * 1000
    stats = FUZZ_STATS[name]
    stats["inputs"] += 1
    stats["slowest_ms"] = max(stats["slowest_ms"], elapsed)
    assert isinstance(response, dict) and response["ok"] in (True, False)
    json.dumps(response, allow_nan=False)  # JSON-safe, no NaN leaking out
    if response["ok"]:
        assert isinstance(response["explanation"], str)
    else:
        error = response["error"]
        assert isinstance(error["field"], str) and error["field"]
        assert isinstance(error["message"], str) and len(error["message"]) > 10


@pytest.mark.parametrize("name", api.names())
def test_fuzz_every_calculator(name: str) -> None:
    @settings(max_examples=EXAMPLES, deadline=None, derandomize=True,
              suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
    @given(inputs_for(name))
    def run(inputs: Any) -> None:
        check_response(name, inputs)

    run()
    assert FUZZ_STATS[name]["inputs"] >= 50


@pytest.mark.parametrize("name", [n for n in api.names() if calculators()[n].roll])
def test_fuzz_rolls_never_raise(name: str) -> None:
    @settings(max_examples=40, deadline=None, derandomize=True,
              suppress_health_check=[HealthCheck.too_slow])
    @given(inputs_for(name))
    def run(inputs: Any) -> None:
        response = api.roll(name, inputs)
        json.dumps(response, allow_nan=False)
        if response["ok"]:
            assert isinstance(response["result"]["summary"], str)
            assert isinstance(response["result"]["dice"], list)
        else:
            assert response["error"]["field"]

    run()
