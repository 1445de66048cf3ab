"""Issue 16, words: every calculator, fed bad values of every kind a user can type or a
program can send, answers with messages that name the field by its label and positions
in words ("the 2nd die"), never by an internal name (``effect_dice.1``, ``attacker_skill``).

Unknown input names are left out: only a program can send one, and the message then
lists the real input names on purpose."""

from __future__ import annotations

import re
from typing import Any

import pytest

from rules_core import api
from rules_core.catalog import calculators
from rules_core.fields import (
    BoolField,
    ChoiceField,
    Field,
    IntField,
    NumberField,
    TextField,
    validate_all,
)
from rules_core.messages import ordinal, sentence

NAMES = api.names()
SNAKE = re.compile(r"\b[a-z0-9]+_[a-z0-9_]+\b")
DOTTED = re.compile(r"\b[a-z_]+\.[a-z0-9_]+\b")
#: dotted abbreviations that are words, not paths
ALLOWED_DOTTED = {"e.g", "i.e"}


def bad_values(field: Field) -> list[Any]:
    """Every kind of bad value for one field."""
    common: list[Any] = ["", "   ", "abc", True, [1, 2], {"x": 1}, 10**5000, "\ud800"]
    if isinstance(field, IntField):
        return common + [field.minimum - 1, field.maximum + 1, 2.5, float("nan"), "7"]
    if isinstance(field, NumberField):
        return common + [field.minimum - 1, field.maximum + 1, float("inf"), 10**401, "1.5"]
    if isinstance(field, ChoiceField):
        return common + ["not-a-choice", 99999]
    if isinstance(field, BoolField):
        return common + ["yes", 1]
    if isinstance(field, TextField):
        return common + ["d7", "d8 d5", "[8, 7]", "[8, true]", "x" * 3000, "0, -4",
                         "d8/d7, d20", "a, a", '{"type": "action", "faces": [0, 9]}',
                         '{"format": "sucs-roster"}', "[" * 40 + "]" * 40]
    return common


def internal_names(message: str) -> list[str]:
    found = SNAKE.findall(message) + [d for d in DOTTED.findall(message)
                                      if d not in ALLOWED_DOTTED]
    return found


def started(name: str, inputs: dict[str, Any]) -> dict[str, Any]:
    """The reply to ``inputs`` as far as a refusal goes: a whole fight is only begun
    (:func:`api.begin` validates, checks and builds the fight, where every refusal is
    made; an accepted fight's answers, seconds of work under Pyodide, say nothing of its
    words), anything else computed."""
    reply = api.begin(name, inputs)
    return reply if isinstance(reply, dict) else {"ok": True}


def messages_for(name: str) -> list[tuple[str, Any, dict[str, str]]]:
    calc = calculators()[name]
    initial = api.spec(name)["initial"]
    out = []
    for field in calc.fields:
        for bad in bad_values(field):
            inputs = {**initial, field.name: bad}
            for reply in (started(name, inputs), api.roll(name, inputs)):
                if not reply["ok"]:
                    out += [(field.name, bad, e) for e in reply["errors"]]
        without = {k: v for k, v in initial.items() if k != field.name}
        reply = started(name, without)
        if not reply["ok"]:
            out += [(field.name, None, e) for e in reply["errors"]]
    return out


@pytest.mark.parametrize("name", NAMES)
def test_every_refusal_starts_with_the_fields_label_and_shows_no_internal_name(name: str) -> None:
    """Both checks on one pass over the bad values."""
    seen = messages_for(name)
    assert seen, f"{name}: no bad value was refused"
    leaks = [(field, bad if not isinstance(bad, int) else "<int>", e["message"])
             for field, bad, e in seen if internal_names(e["message"])]
    assert not leaks, leaks[:5]
    labels = {f.name: f.label for f in calculators()[name].fields}
    for _field, _bad, error in seen:
        if error["field"] in labels:
            label = labels[error["field"]]
            assert error["message"].startswith(label[:1].upper() + label[1:]), error


def test_positions_are_words_counted_from_one() -> None:
    reply = api.run("cortex.odds", {"attacker": "d8 d6 d7", "defender": "d6"})
    assert reply["error"]["field"] == "attacker.3"
    assert reply["error"]["message"].startswith("Attacker's pool, the 3rd die")
    assert [ordinal(n) for n in (1, 2, 3, 4, 11, 12, 13, 21, 22, 101, 111)] == [
        "1st", "2nd", "3rd", "4th", "11th", "12th", "13th", "21st", "22nd", "101st", "111th"]


def test_empty_and_non_numeric_input_say_so() -> None:
    empty = api.run("gunplay.hit_odds", {"dc": "", "bonus": 3})["error"]
    assert empty == {"field": "dc", "message": "Difficulty (DC) is empty: enter a whole number "
                                               "from -60 to 80."}
    text = api.run("gunplay.hit_odds", {"dc": "abc", "bonus": 3})["error"]["message"]
    assert text == ('Difficulty (DC) is not a number: received the text "abc"; enter a whole '
                    "number from -60 to 80.")


def test_every_problem_is_listed_not_just_the_first() -> None:
    reply = api.run("gunplay.hit_odds", {"dc": "", "bonus": True, "rounds": 0})
    assert [e["field"] for e in reply["errors"]] == ["dc", "bonus", "rounds"]
    assert reply["error"] == reply["errors"][0]


def test_one_number_rule_everywhere() -> None:
    """True is never a number; 3.0 is the whole number 3; 3.5 and "3" are refused: in a
    calculator, a roster and the tracker alike."""
    field = (IntField("n", "N", minimum=0, maximum=9),)
    assert validate_all(field, {"n": 3.0})[0] == {"n": 3}
    for bad in (True, 3.5, "3"):
        assert validate_all(field, {"n": bad})[0] is None
    from rules_core.phases.tracker_json import state_from_json
    from rules_core.sucs.roster import normalize_roster
    state = {"version": 1, "offense_dice": 5.0, "defence_dice": 5, "first_phase": "offense",
             "round": 1, "phase": "offense", "dice_left": 5, "actions": 0, "goal_spaces": 0,
             "goal_marked": 0}
    assert state_from_json(state).offense_dice == 5
    roster = {"format": "sucs-roster", "version": 1, "name": "R", "points_limit": 10.0,
              "units": []}
    assert normalize_roster(roster)[0]["points_limit"] == 10
    assert normalize_roster({**roster, "points_limit": True})[0] is None
    assert normalize_roster({**roster, "points_limit": "10"})[0] is None


@pytest.mark.parametrize("where,message,expected", [
    ("Attack", "must be at most 20.", "Attack must be at most 20."),
    ("Target is a person who is", "must be one of: x.", "Target is a person who is: must be one of: x."),
    ("the 2nd die", "expected d4 to d12.", "The 2nd die: expected d4 to d12."),
])
def test_one_sentence_shape(where: str, message: str, expected: str) -> None:
    assert sentence(where, message) == expected
