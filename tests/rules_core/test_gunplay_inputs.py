"""Bad input for every d10 calculator: a message naming the field, what was received
and what is allowed; nothing hangs or raises."""

from __future__ import annotations

import time

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rules_core import api
from rules_core.gunplay.calculators import CALCULATORS
from tests.rules_core.support import refused

NAMES = [c.name for c in CALCULATORS]
MOVES = {"target_movement": "subtle", "shooter_movement": "subtle", "stance": "standing"}


@pytest.mark.parametrize("rounds", [0, 10_000, -3])
def test_burst_of_zero_or_ten_thousand_rounds(rounds: int) -> None:
    start = time.perf_counter()
    refused("gunplay.hit_odds", {"dc": 16, "bonus": 3, "rounds": rounds}, "rounds",
            "from 1 to 100", f"received {rounds}")
    assert time.perf_counter() - start < 1


@pytest.mark.parametrize("value", [0, -5, -0.5])
@pytest.mark.parametrize("name", ["gunplay.range_band", "gunplay.range_table", "gunplay.difficulty"])
def test_zero_or_negative_effective_range(name: str, value: float) -> None:
    inputs = {"effective_range_m": value, "distance_m": 10}
    if name != "gunplay.range_band":
        inputs["size"] = "small"
    if name == "gunplay.difficulty":
        inputs.update(MOVES)
    refused(name, inputs, "effective_range_m", "more than 0", "m; received")


@pytest.mark.parametrize("value", ["far", "", "12 m", None, True, [3], {"m": 3},
                                   float("nan"), float("inf")])
def test_distance_that_is_not_a_number(value: object) -> None:
    reply = api.run("gunplay.range_band", {"effective_range_m": 300, "distance_m": value})
    if value is None:  # null means "not given": the field is required
        assert reply["error"]["field"] == "distance_m" and "required" in reply["error"]["message"]
        return
    assert not reply["ok"] and reply["error"]["field"] == "distance_m"
    message = reply["error"]["message"]
    assert message.startswith("Distance to the target") and "a number at least 0" in message
    assert any(words in message for words in ("received", "is empty", "is not a number"))


def test_negative_distance() -> None:
    refused("gunplay.difficulty", {"size": "small", "effective_range_m": 300, "distance_m": -5, **MOVES},
            "distance_m", "at least 0", "received -5")


def test_distance_beyond_the_effective_range_in_the_difficulty() -> None:
    refused("gunplay.difficulty", {"size": "small", "effective_range_m": 300, "distance_m": 400,
                                   **MOVES},
            "distance_m", "beyond the weapon's effective range of 300 m", "Allowed: 0 to 300 m")


@pytest.mark.parametrize("name", ["gunplay.difficulty", "gunplay.range_table"])
def test_unknown_size(name: str) -> None:
    refused(name, {"size": "gigantic", "band": "close", **MOVES} if name.endswith("difficulty")
            else {"size": "gigantic", "band": "close"}, "size",
            "one of: Tiny; Small; Medium; Large; Huge", 'received the text "gigantic"')


@pytest.mark.parametrize("field", ["target_stance", "stance"])
def test_unknown_stance(field: str) -> None:
    inputs = {"band": "close", **MOVES, field: "crouching"}
    if field == "stance":
        inputs["size"] = "small"
    refused("gunplay.difficulty", inputs, field,
            "tanding", "rone", 'received the text "crouching"')


def test_unknown_band_movement_and_weapon() -> None:
    refused("gunplay.difficulty", {"size": "small", "band": "point blank", **MOVES}, "band",
            "Close; Medium; Far; Maximum")
    refused("gunplay.difficulty", {"size": "small", "band": "far", **MOVES, "target_movement": "running"},
            "target_movement", "Still; Subtle; Slow; Fast")
    refused("gunplay.range_band", {"weapon": "bazooka", "distance_m": 3}, "weapon",
            "Type its effective range; Example: shotgun")


def test_effective_range_with_an_example_weapon_is_refused() -> None:
    refused("gunplay.range_band", {"weapon": "pistol", "effective_range_m": 70, "distance_m": 3},
            "effective_range_m", 'applies only when "Weapon" is "Type its effective range"')


@pytest.mark.parametrize("field,value", [("dc", 81), ("bonus", "three"), ("recoil", -1),
                                         ("recoil", 2.5), ("roll_total", 99)])
def test_hit_odds_numbers_out_of_range(field: str, value: object) -> None:
    inputs = {"dc": 16, "bonus": 3, field: value}
    refused("gunplay.hit_odds", inputs, field, "three" if value == "three" else "received")


def test_unknown_input_names_the_inputs() -> None:
    refused("gunplay.hit_chance", {"bonus": 3, "range": 4}, "range", "the inputs are: bonus, dc")


@pytest.mark.parametrize("name", NAMES)
def test_every_calculator_runs_from_its_form_start(name: str) -> None:
    spec = api.spec(name)
    reply = api.run(name, spec["initial"])
    assert reply["ok"], reply
    assert reply["explanation"] and reply["display"]["headline"]


@settings(max_examples=60, deadline=None)
@given(name=st.sampled_from(NAMES),
       inputs=st.dictionaries(
           st.sampled_from(["size", "band", "target_stance", "weapon", "effective_range_m",
                            "distance_m", "dc", "bonus", "rounds", "recoil", "roll_total",
                            "stealth", "notice", "method", "lanes", "open_groups", "actions",
                            "magazine", "stance", "aim_actions"]),
           st.one_of(st.none(), st.booleans(), st.integers(-10**6, 10**6), st.floats(),
                     st.text(max_size=8), st.sampled_from(["small", "far", "pistol", "custom",
                                                           "kneeling", "hands_on"])),
           max_size=6))
def test_nothing_a_caller_sends_raises(name: str, inputs: dict) -> None:
    reply = api.run(name, inputs)
    assert isinstance(reply["ok"], bool)
    if not reply["ok"]:
        assert reply["error"]["field"] and reply["error"]["message"]
