"""Unit identity and the readings of the whole-fight calculators cannot go stale: a unit's identity is every field
of :class:`Fighter` but its name, every field of a unit reaches the attack it makes or
suffers (:meth:`Fight.spec`) or is one the turn walk reads, every form field of the fight
calculators (SUCS and Heroic) reaches the fight, every reading is reachable from a form,
and every reading is one closed set of words shared by the system's ``Rules``, the forms
and the code that tests it."""

from __future__ import annotations

import ast
from collections.abc import Callable, Iterator
from dataclasses import fields, replace
from pathlib import Path
from typing import Any, get_args, get_type_hints

import pytest

from rules_core import api
from rules_core.calculator import Calculator
from rules_core.catalog import find
from rules_core.fields import BoolField, ChoiceField, IntField, initial_inputs, validate_all
from rules_core.heroic import calc_groups_fight
from rules_core.heroic import fight as heroic_fight
from rules_core.sucs import calc_actions_fight, calc_roster_battle
from rules_core.sucs.attack import AttackSpec
from rules_core.sucs.fight import Fight
from rules_core.sucs.turn import IDENTITY, READINGS, Fighter, Rules

RULES_CORE = Path(__file__).resolve().parents[2] / "rules_core"

#: the Fighter fields an attack reads from its attacker, and from its target (each the
#: AttackSpec field of the same name), and those only the turn walk reads
ATTACKER = {"quality", "attack", "out_of_command", "attack_support", "roll_modifier"}
TARGET = {"armor", "cover", "dug_in", "stealthy", "armor_support"}
TURN_ONLY = {"targets", "one_action", "commander", "alt_weapons"}
#: AttackSpec fields a fight never sets (the single-attack calculator's own inputs), and
#: those set from the readings (the Rules field of the same name)
NOT_IN_A_FIGHT = {"target_number", "altitude_above", "suppressed_melee"}
FROM_RULES = {"armor_modifies_roll", "bonus_from_target_number"}


def _other(value: Any) -> Any:
    """A different value of the same kind."""
    if isinstance(value, bool):
        return not value
    if isinstance(value, int):
        return value + 1
    if isinstance(value, tuple):
        return value + ((1, 2),)
    return value + "x"


def _changed(obj: Any, name: str) -> Any:
    return replace(obj, **{name: _other(getattr(obj, name))})


def test_a_units_identity_is_every_field_but_its_name() -> None:
    unit = Fighter("A1")
    assert set(IDENTITY) == {f.name for f in fields(Fighter)} - {"name"}
    for f in fields(Fighter):
        other = _changed(unit, f.name)
        if f.name == "name":
            assert other.stats == unit.stats
        else:
            assert other.stats != unit.stats, f"Fighter.stats leaves out {f.name}"


def test_units_that_differ_in_any_field_are_not_merged_in_a_fight() -> None:
    """The fight's groups of identical units follow the identity: two units alike but for
    one field are two kinds, two units alike but for the name are one."""
    unit = Fighter("A1")
    for f in fields(Fighter):
        fight = Fight((unit, _changed(unit, f.name)), (Fighter("B1"),))
        ranks = {fight.group_rank("a", 0), fight.group_rank("a", 1)}
        assert len(ranks) == (1 if f.name == "name" else 2), f.name


def _spec(attacker: Fighter, target: Fighter, rules: Rules | None = None, bonus: int = 0,
          lost: bool = False) -> AttackSpec:
    return Fight((attacker,), (target,), rules or Rules()).spec("a", 0, 0, bonus, lost)


def _spec_changes(before: AttackSpec, after: AttackSpec) -> set[str]:
    return {f.name for f in fields(AttackSpec) if getattr(before, f.name) != getattr(after, f.name)}


def test_every_field_of_a_unit_reaches_the_attack_or_is_read_by_the_turn() -> None:
    """Fight.spec, the hand-kept map from two units to one attack: each field of the
    attacker and of the target reaches the AttackSpec field of its name, or is one of the
    fields only the turn walk reads. A field added to Fighter and not mapped fails here."""
    names = {f.name for f in fields(Fighter)} - {"name"}
    assert names == ATTACKER | TARGET | TURN_ONLY, "classify the new field of Fighter here"
    a, b = Fighter("A1"), Fighter("B1")
    base = _spec(a, b)
    for name in sorted(names):
        as_attacker = _spec_changes(base, _spec(_changed(a, name), b))
        as_target = _spec_changes(base, _spec(a, _changed(b, name)))
        assert as_attacker == ({name} if name in ATTACKER else set()), name
        assert as_target == ({name} if name in TARGET else set()), name


def test_every_field_of_an_attack_comes_from_the_units_the_readings_or_the_turn() -> None:
    spec_names = {f.name for f in fields(AttackSpec)}
    assert spec_names == ATTACKER | TARGET | FROM_RULES | NOT_IN_A_FIGHT | {"roll_modifier"}
    a, b = Fighter("A1"), Fighter("B1")
    base = _spec(a, b)
    for name in FROM_RULES:
        assert _spec_changes(base, _spec(a, b, _changed(Rules(), name))) == {name}
    assert _spec_changes(base, _spec(a, b, bonus=-1)) == {"roll_modifier"}
    assert _spec_changes(base, _spec(a, b, lost=True)) == {"out_of_command"}
    for name in NOT_IN_A_FIGHT:
        assert getattr(base, name) == getattr(AttackSpec(), name)


# ---- the readings ------------------------------------------------------------------


def test_every_reading_is_a_flag_or_a_closed_set_of_words() -> None:
    for name, kind in get_type_hints(Rules).items():
        assert kind is bool or name in READINGS, f"Rules.{name} is neither a flag nor a Literal"
    for name, words in READINGS.items():
        assert getattr(Rules(), name) in words
        with pytest.raises(ValueError, match=name):
            Rules(**{name: words[0] + "x"})


#: each system's readings: (Rules class, its calculators)
SYSTEM_READINGS = ((Rules, ("sucs.engagement", "sucs.roster_battle")),
                   (heroic_fight.Rules, ("heroic.engagement",)))


def _calc(name: str) -> Calculator:
    calc = find(name)
    assert calc is not None, name
    return calc


def _words(rules_class: type) -> dict[str, tuple[str, ...]]:
    return {name: get_args(kind) for name, kind in get_type_hints(rules_class).items()
            if get_args(kind)}


@pytest.mark.parametrize(("rules_class", "calculators"), SYSTEM_READINGS)
def test_a_forms_choice_of_a_reading_offers_exactly_its_words(
        rules_class: type, calculators: tuple[str, ...]) -> None:
    """A form's choice named as a reading offers that reading's words, no more and no
    fewer (a misspelled word in the form or in the Literal fails here)."""
    words = _words(rules_class)
    offered: set[str] = set()
    for name in calculators:
        for field in _calc(name).fields:
            if isinstance(field, ChoiceField) and field.name in words:
                assert tuple(field.values()) == words[field.name], (name, field.name)
                offered.add(field.name)
    assert offered == set(words), f"readings no form offers: {set(words) - offered}"


#: each fight calculator: (the function that builds its fight from clean inputs, what of
#: the fight the form decides)
FIGHT_FORMS: dict[str, tuple[Callable[[dict[str, Any]], Any], Callable[[Any], tuple[Any, ...]]]] = {
    "sucs.engagement": (calc_actions_fight.fight_of,
                        lambda f: (f.rules, f.units["a"], f.units["b"], f.markers)),
    "sucs.roster_battle": (calc_roster_battle.battle_of,
                           lambda f: (f.rules, f.units["a"], f.units["b"])),
    "heroic.engagement": (calc_groups_fight.build, lambda f: (f.rules, f.a, f.b)),
}
#: form fields that are not the fight but how far to follow it (the solver's round cap)
ROUND_CAPS = {"max_rounds", "turns"}


def _clean(name: str, inputs: dict[str, Any]) -> dict[str, Any]:
    clean, errors = validate_all(_calc(name).fields, inputs)
    assert not errors, errors
    return clean


def _variants(name: str) -> Iterator[tuple[str, Any, Any]]:
    """(form field, another value, the fight built with it) for every choice and tick box
    of the form, each changed alone from the form's starting inputs."""
    start = api.spec(name)["initial"]
    build = FIGHT_FORMS[name][0]
    for field in _calc(name).fields:
        if field.name not in start:
            continue
        if isinstance(field, BoolField):
            others = [not start[field.name]]
        elif isinstance(field, ChoiceField):
            others = [v for v in field.values() if v != start[field.name]]
        elif isinstance(field, IntField):
            others = [field.minimum if start[field.name] != field.minimum else field.maximum]
        else:
            continue
        for value in others:
            inputs = initial_inputs(_calc(name).fields, {**start, field.name: value})
            for shown in _calc(name).fields:  # a field the new value shows, with no default
                if isinstance(shown, IntField) and shown.name not in inputs and \
                        shown.shown_if and shown.applies(inputs):
                    inputs[shown.name] = shown.minimum
            yield field.name, value, build(_clean(name, inputs))


@pytest.mark.parametrize("name", sorted(FIGHT_FORMS))
def test_every_choice_on_a_fight_form_reaches_the_fight(name: str) -> None:
    """The hand-kept map from a form to the readings and the units: every choice and tick
    box of the form changes the fight it builds (a form field left out fails here)."""
    build, looks = FIGHT_FORMS[name]
    base = looks(build(_clean(name, api.spec(name)["initial"])))
    for field, value, fight in _variants(name):
        if field in ROUND_CAPS:
            continue
        assert looks(fight) != base, f"{name}: {field}={value!r} changes nothing"


@pytest.mark.parametrize(("rules_class", "calculators"), SYSTEM_READINGS)
def test_every_reading_is_reached_from_a_form(rules_class: type,
                                              calculators: tuple[str, ...]) -> None:
    """Every field of Rules is changed by some form field (a reading added to Rules and
    not offered, or offered and not passed on, fails here)."""
    names = {f.name for f in fields(rules_class)}
    reached: set[str] = set()
    for name in calculators:
        base = FIGHT_FORMS[name][0](_clean(name, api.spec(name)["initial"])).rules
        for _, _, fight in _variants(name):
            reached |= {n for n in names if getattr(fight.rules, n) != getattr(base, n)}
    assert reached == names, f"readings no form can change: {names - reached}"


def _switches(path: Path, words: dict[str, tuple[str, ...]]) -> list[tuple[int, str, str]]:
    """Every comparison in a module of ``<...>.rules.<reading>`` (or ``rules.<reading>``)
    with a word: (line, reading, word)."""
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if not isinstance(node, ast.Compare):
            continue
        sides = [node.left, *node.comparators]
        for a, b in zip(sides, sides[1:]):
            for attr, other in ((a, b), (b, a)):
                if not (isinstance(attr, ast.Attribute) and attr.attr in words):
                    continue
                owner = attr.value
                owner_name = owner.attr if isinstance(owner, ast.Attribute) else \
                    owner.id if isinstance(owner, ast.Name) else ""
                if owner_name != "rules":
                    continue
                consts = other.elts if isinstance(other, (ast.Tuple, ast.List, ast.Set)) \
                    else [other]
                found += [(node.lineno, attr.attr, c.value) for c in consts
                          if isinstance(c, ast.Constant) and isinstance(c.value, str)]
    return found


@pytest.mark.parametrize(("system", "rules_class"), (("sucs", Rules),
                                                     ("heroic", heroic_fight.Rules)))
def test_every_switch_on_a_reading_names_one_of_its_words(system: str, rules_class: type) -> None:
    """A misspelled word in ``rules.ties == "rerol"`` fails here (and in mypy, with
    strict equality): the branch would never be taken."""
    words = _words(rules_class)
    seen = 0
    for path in sorted((RULES_CORE / system).glob("*.py")):
        for line, reading, word in _switches(path, words):
            seen += 1
            assert word in words[reading], f"{path.name}:{line}: {reading} == {word!r}"
    assert seen >= len(words)
