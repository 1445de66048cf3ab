"""d10 ranged combat: size from stance, range bands with example weapons, the size x
range table calculator and the difficulty calculator's extensions."""

from __future__ import annotations

from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rules_core import api
from rules_core.gunplay.difficulty import band_limits, difficulty, range_band
from rules_core.gunplay.presets import BY_KEY, EXAMPLES
from rules_core.gunplay.tables import (
    BASE_DIFFICULTY,
    STANCE_SIZE,
    Movement,
    RangeBand,
    Size,
    Stance,
)
from tests.rules_core.gunplay_source import BANDS, SOURCE_TABLE


def ok(name: str, inputs: dict) -> dict:
    reply = api.run(name, inputs)
    assert reply["ok"], reply
    return reply


# --- stance sets a person's size ----------------------------------------------------

@pytest.mark.parametrize("stance,size", [
    ("standing", "medium"), ("kneeling", "small"), ("prone_firing", "tiny"), ("prone", "tiny"),
])
def test_stance_sets_a_persons_size(stance: str, size: str) -> None:
    assert STANCE_SIZE[Stance(stance)] is Size(size)
    reply = ok("gunplay.range_table", {"target_stance": stance, "band": "far"})
    assert reply["result"]["size"] == size
    assert reply["result"]["modifier"] == SOURCE_TABLE[size][2]


@pytest.mark.parametrize("stance", [s.value for s in Stance])
def test_difficulty_from_target_stance_equals_difficulty_from_its_size(stance: str) -> None:
    common = {"band": "maximum", "target_movement": "slow", "shooter_movement": "still",
              "stance": "kneeling", "aim_actions": 1, "environment": 3, "misc": -1}
    by_stance = ok("gunplay.difficulty", {**common, "target_stance": stance})["result"]
    by_size = ok("gunplay.difficulty",
                 {**common, "size": STANCE_SIZE[Stance(stance)].value})["result"]
    assert by_stance["dc"] == by_size["dc"]
    assert by_stance["size"] == by_size["size"]
    assert "Person" in by_stance["breakdown"][1]["label"]


def test_size_and_target_stance_together_are_refused() -> None:
    reply = api.run("gunplay.difficulty", {"size": "huge", "target_stance": "prone", "band": "close"})
    assert not reply["ok"] and reply["error"]["field"] == "size"
    assert '"Target is a person who is"' in reply["error"]["message"]


def test_size_alone_still_works_as_in_the_foundation() -> None:
    reply = ok("gunplay.difficulty", {"size": "tiny", "band": "maximum", "target_movement": "fast",
                                      "shooter_movement": "slow", "stance": "prone"})
    # absent aim, environment and misc count 0 (the form's +2 for dusk is only its start)
    assert reply["result"]["dc"] == 5 + 18 + 4 + 2 + 2 == difficulty(
        Size.TINY, RangeBand.MAXIMUM, Movement.FAST, Movement.SLOW, Stance.PRONE)
    assert reply["result"]["breakdown"][1]["label"] == "Tiny target at maximum range"


# --- the size x range table calculator -----------------------------------------------

@pytest.mark.parametrize("size", list(SOURCE_TABLE))
@pytest.mark.parametrize("band_index", range(4))
def test_every_cell_of_the_table_calculator(size: str, band_index: int) -> None:
    band = BANDS[band_index]
    result = ok("gunplay.range_table", {"size": size, "band": band})["result"]
    expected = SOURCE_TABLE[size][band_index]
    assert result["modifier"] == expected
    assert result["dc_before_other_terms"] == BASE_DIFFICULTY + expected
    assert result["table"]["modifiers"] == {s: dict(zip(BANDS, row)) for s, row in SOURCE_TABLE.items()}


def test_table_explanation_marks_exactly_the_chosen_cell() -> None:
    reply = ok("gunplay.range_table", {"size": "small", "effective_range_m": 300, "distance_m": 100})
    text = reply["explanation"]
    assert text.count("▶") == 2  # once in the sentence, once in the table
    assert "**▶ +8**" in text
    small_row = next(line for line in text.splitlines() if line.startswith("| **Small**"))
    assert small_row == "| **Small** | +2 | +4 | **▶ +8** | +12 |"
    assert "| Size | Close | Medium | **Far** | Maximum |" in text
    assert reply["display"]["headline"][0] == ["Size x range", "+8"]


def test_table_with_a_person_by_stance_and_an_example_weapon() -> None:
    reply = ok("gunplay.range_table", {"target_stance": "kneeling", "weapon": "pistol",
                                       "distance_m": 20})
    assert reply["result"] == {**reply["result"], "size": "small", "band": "far", "modifier": 8}
    assert "kneeling or sitting" in reply["explanation"]
    assert "example" in reply["explanation"]


def test_table_refuses_a_distance_past_the_effective_range() -> None:
    reply = api.run("gunplay.range_table", {"size": "small", "weapon": "pistol", "distance_m": 60})
    assert not reply["ok"] and reply["error"]["field"] == "distance_m"
    assert "beyond the weapon's effective range of 50 m" in reply["error"]["message"]


# --- range bands: example weapons and boundaries -----------------------------------

def test_examples_are_labelled_as_examples_and_two_come_from_the_source() -> None:
    assert all(w.label.startswith("Example:") for w in EXAMPLES)
    assert BY_KEY["pistol"].effective_range_m == 50 and BY_KEY["pistol"].from_rules
    assert BY_KEY["rifle"].effective_range_m == 300 and BY_KEY["rifle"].from_rules
    assert sum(w.from_rules for w in EXAMPLES) == 2
    spec = api.spec("gunplay.range_band")
    weapon = next(f for f in spec["fields"] if f["name"] == "weapon")
    assert "not rules data" in weapon["help"]


@pytest.mark.parametrize("weapon", [w.key for w in EXAMPLES])
def test_example_weapon_gives_the_same_bands_as_typing_its_range(weapon: str) -> None:
    effective = BY_KEY[weapon].effective_range_m
    for distance in (0, effective / 8, effective / 4 - 0.01, effective / 2, effective, effective + 1):
        preset = ok("gunplay.range_band", {"weapon": weapon, "distance_m": distance})["result"]
        typed = ok("gunplay.range_band", {"effective_range_m": effective, "distance_m": distance})
        assert preset == typed["result"]


@pytest.mark.parametrize("distance,band", [
    (0, "close"), (6, "close"), (6.25, "medium"), (12.49, "medium"), (12.5, "far"),
    (24.99, "far"), (25, "maximum"), (50, "maximum"), (50.01, "beyond"),
])
def test_pistol_example_bands(distance: float, band: str) -> None:
    assert ok("gunplay.range_band", {"weapon": "pistol", "distance_m": distance})["result"]["band"] == band


@pytest.mark.parametrize("distance,band", [
    (37.4, "close"), (37.5, "medium"), (75, "far"), (100, "far"), (150, "maximum"), (300, "maximum"),
])
def test_rifle_example_bands(distance: float, band: str) -> None:
    assert ok("gunplay.range_band", {"weapon": "rifle", "distance_m": distance})["result"]["band"] == band


def test_beyond_is_reported_by_the_finder_not_refused() -> None:
    reply = ok("gunplay.range_band", {"effective_range_m": 50, "distance_m": 100})
    assert reply["result"]["in_range"] is False
    assert reply["display"]["headline"][0] == ["Range band", "Beyond effective range"]


@given(st.fractions(min_value=Fraction(1, 1000), max_value=Fraction(100_000)),
       st.fractions(min_value=0, max_value=Fraction(3, 2)))
def test_band_agrees_with_its_limits(effective: Fraction, ratio: Fraction) -> None:
    effective_f = float(effective)
    distance = float(ratio * effective)
    band = range_band(effective_f, distance)
    limits = band_limits(effective_f)
    if distance > effective_f:
        assert band is None
        return
    start, end = limits[band]
    assert start <= distance and (distance < end or (band is RangeBand.MAXIMUM and distance <= end))


# --- difficulty: the source's procedure and worked examples -----------------------

def test_rifle_example_by_target_stance_and_example_weapon() -> None:
    """The source's rifle example with a kneeling person as the small target."""
    reply = ok("gunplay.difficulty", {
        "target_stance": "kneeling", "weapon": "rifle", "distance_m": 100,
        "target_movement": "subtle", "shooter_movement": "subtle", "stance": "standing",
        "environment": 2})
    assert reply["result"]["dc"] == 14  # ruling: the source's 13 omits the +2 for dusk


def test_pistol_in_the_dark_example_from_the_page() -> None:
    reply = ok("gunplay.difficulty", {
        "target_stance": "standing", "weapon": "pistol", "distance_m": 20,
        "target_movement": "fast", "shooter_movement": "subtle", "stance": "kneeling",
        "aim_actions": 1, "environment": 3})
    assert reply["result"]["dc"] == 12
    assert [t["value"] for t in reply["result"]["breakdown"]] == [5, 4, 4, 0, -2, -2, 3, 0]
    chance = ok("gunplay.hit_chance", {"bonus": 4, "dc": 12})["result"]
    assert chance["p_hit_exact"] == "3/10"


def test_running_and_shooting_at_a_runner_is_plus_eight() -> None:
    base = {"size": "medium", "band": "close", "stance": "standing", "environment": 0}
    still = ok("gunplay.difficulty", {**base, "target_movement": "subtle", "shooter_movement": "subtle"})
    both_fast = ok("gunplay.difficulty", {**base, "target_movement": "fast", "shooter_movement": "fast"})
    assert both_fast["result"]["dc"] - still["result"]["dc"] == 8
