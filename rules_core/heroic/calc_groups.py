"""Calculators of the groups page (source: Heroic Combat, Multiple Attackers): numerical
superiority, injury to a group pooled by the group HP method of the orcs-and-knights
example, and casualties from hits not yet rolled. The whole fight between two groups is
in :mod:`rules_core.heroic.calc_groups_fight`."""

from __future__ import annotations

import random
import re
from fractions import Fraction
from typing import Any

from rules_core.calculator import Calculator, Chart, Result
from rules_core.dice.distribution import to_json
from rules_core.errors import InputError
from rules_core.explain import rule, signed
from rules_core.fields import ChoiceField, IntField, NumberField, TextField
from rules_core.heroic.damage import Damage, damage_parser, hit_damage, per_roll_injury, pooled_injury
from rules_core.heroic.groups import group_injury, hit_multiplier, multiplier_band, skill_bonus, standing
from rules_core.heroic.inputs import GROUPS_PAGE, check_reach, count_field, multiplier_fraction, reach_field
from rules_core.messages import describe

MAX_ROLLS = 500
MAX_ROLL = 10_000
MAX_TOTAL = 1_000_000


# --- numerical superiority --------------------------------------------------------

def _numbers_compute(inputs: dict[str, Any]) -> Result:
    a, d = inputs["attackers"], inputs["defenders"]
    low, high = multiplier_band(a)
    return {"skill_bonus": skill_bonus(a, d), "hit_multiplier": hit_multiplier(a),
            "ratio": f"{a}:{d}", "ratio_value": a / d, "multiplier_band": [low, high]}


def _numbers_explain(inputs: dict[str, Any], result: Result) -> str:
    a, d = inputs["attackers"], inputs["defenders"]
    low, high = result["multiplier_band"]
    band = f"{low}" if low == high else f"{low}-{high}"
    return (f"{a} attackers against {d} defenders is a ratio of {a / d:.4g} to 1, worth "
            f"**{signed(result['skill_bonus'])}** to the attackers' skill "
            f"({rule('numerical superiority', GROUPS_PAGE, 'numerical-superiority')}); a "
            f"ratio exactly on a row's limit uses that row.\n\n{a} attackers fall in the "
            f"{band} band: every hit they score counts **x{result['hit_multiplier']}** "
            f"({rule('the hit multiplier', GROUPS_PAGE, 'the-hit-multiplier')}).\n\n"
            f"At most {inputs['reach_per_defender']} attackers can reach one defender, so "
            f"{d} defender(s) can be faced by up to {inputs['reach_per_defender'] * d} "
            f"({rule('ruling', 'rulings/', 'how-many-can-reach-one-defender')}).")


NUMBERS = Calculator(
    name="heroic.numbers",
    check=lambda i: check_reach(i["attackers"], i["defenders"], i["reach_per_defender"]),
    title="Numerical superiority",
    summary="Skill bonus from the attackers : defenders ratio and the hit multiplier.",
    fields=(count_field("attackers", "Attackers", 12, "Only those who can reach the foe this "
                        "round (frontage, formation)."),
            count_field("defenders", "Defenders", 8),
            reach_field()),
    compute=_numbers_compute,
    explain=_numbers_explain,
    headline=lambda r: [("Skill bonus", signed(r["skill_bonus"])),
                        ("Hit multiplier", f"x{r['hit_multiplier']}")],
    page=GROUPS_PAGE,
)


# --- injury to a group ---------------------------------------------------------------

def parse_damage(field: str, raw: Any) -> dict[str, Any]:
    """Damage as a total ("38") or the rolls ("4, 10, 7, 10, 7"); JSON numbers and lists too.

    Returns ``{"total": int, "rolls": list[int] | None}``.
    """
    if isinstance(raw, bool):
        raise InputError(field, f"expected a damage total or a list of rolls, received {describe(raw)}.")
    if isinstance(raw, (int, float)):
        values, is_list = [raw], False
    elif isinstance(raw, list):
        values, is_list = raw, True
    elif isinstance(raw, str):
        parts = [p for p in re.split(r"[,;+\s]+", raw.strip()) if p]
        if not parts:
            raise InputError(field, "is empty: give a damage total such as 38, or the rolls "
                                    "such as 4, 10, 7.")
        values, is_list = [], len(parts) > 1
        for part in parts:
            if not re.fullmatch(r"\d+", part):
                raise InputError(field, f'"{part[:20]}" is not a whole number of damage; write '
                                        f"a total such as 38, or rolls separated by commas.")
            values.append(int(part))
    else:
        raise InputError(field, f"expected a damage total or a list of rolls, received {describe(raw)}.")
    if not values:
        raise InputError(field, "is an empty list: give a damage total such as 38, or the rolls "
                                "such as [4, 10, 7].")
    if len(values) > MAX_ROLLS:
        raise InputError(field, f"has {len(values)} rolls; at most {MAX_ROLLS} are accepted.")
    clean = []
    for value in values:
        if isinstance(value, bool) or not isinstance(value, (int, float)) or value != int(value) \
                or value < 0:
            raise InputError(field, f"each damage figure must be a whole number of 0 or more, "
                                    f"received {describe(value)}.")
        clean.append(int(value))
    limit = MAX_ROLL if is_list else MAX_TOTAL
    if max(clean) > limit:
        raise InputError(field, f"{max(clean)} is more damage than this calculator accepts "
                                f"(at most {limit} {'per roll' if is_list else 'in total'}).")
    return {"total": sum(clean), "rolls": clean if is_list else None}


FIELDS = (
    TextField("damage", "Damage", initial="4, 10, 7, 10, 7", parse=parse_damage,
              placeholder="38, or 4, 10, 7, 10, 7",
              help="The total of all the hits' damage rolls, or the rolls themselves."),
    IntField("hits", "Hits", optional=True, minimum=1, maximum=MAX_ROLLS,
             help="How many hits the damage came from; with a list of rolls, its length."),
    IntField("dr", "DR of the location hit", default=0, initial=6, minimum=0, maximum=1000),
    NumberField("wounding_multiplier", "Wounding multiplier", default=1, initial=1.5,
                minimum=0, maximum=10, exclusive_minimum=True,
                help="x0.5 small piercing; x1 crushing, piercing, burning; x1.5 cutting, large "
                     "piercing; x2 impaling, huge piercing."),
    ChoiceField("dr_method", "How DR is taken off", default="pooled",
                choices=(("pooled", "Once per hit from the total (the group rule)"),
                         ("per_roll", "From each roll separately (needs the rolls)"))),
    IntField("hp", "HP of each member", initial=11, minimum=1, maximum=10_000),
    IntField("count", "Members in the group", initial=8, minimum=1, maximum=100_000,
             help="Everyone in the group, including any already down."),
    IntField("group_hp", "Group's current HP", optional=True, minimum=0, maximum=10**9,
             help="Leave empty for a group at full HP (members x HP)."),
)


def _hits(inputs: dict[str, Any]) -> int:
    damage = inputs["damage"]
    if damage["rolls"] is not None:
        return inputs["hits"] if inputs["hits"] is not None else len(damage["rolls"])
    return inputs["hits"]


def _check(inputs: dict[str, Any]) -> None:
    damage, hits = inputs["damage"], inputs["hits"]
    rolls = damage["rolls"]
    if rolls is None and hits is None:
        raise InputError("hits", "is required with a damage total: say how many hits it came "
                                 "from (or list the rolls instead of the total).")
    if rolls is not None and hits is not None and hits != len(rolls):
        raise InputError("hits", f"is {hits} but the damage lists {len(rolls)} rolls; give one "
                                 f"roll per hit, or leave the hits empty.")
    if inputs["dr_method"] == "per_roll" and rolls is None:
        raise InputError("dr_method", "taking DR off each roll needs the rolls, not a total: "
                                      "list them in the damage field.")
    full = inputs["hp"] * inputs["count"]
    if inputs["group_hp"] is not None and inputs["group_hp"] > full:
        raise InputError("group_hp", f"is {inputs['group_hp']}, more than the group's full "
                                     f"{full} HP ({inputs['count']} x {inputs['hp']}).")


def _compute(inputs: dict[str, Any]) -> Result:
    full = inputs["hp"] * inputs["count"]
    before = full if inputs["group_hp"] is None else inputs["group_hp"]
    damage = inputs["damage"]
    hits = _hits(inputs)
    out = group_injury(damage["total"], hits, inputs["dr"],
                       multiplier_fraction(inputs["wounding_multiplier"]), inputs["hp"], before,
                       damage["rolls"], inputs["dr_method"] == "per_roll")
    return {
        "total_damage": out.total_damage,
        "hits": hits,
        "dr_total": out.dr_total,
        "penetrating": out.penetrating,
        "injury": out.injury,
        "hp_full": full,
        "hp_before": out.hp_before,
        "hp_after": out.hp_after,
        "standing": out.standing_after,
        "down": inputs["count"] - out.standing_after,
        "newly_down": out.newly_down,
        "wounded_hp": out.wounded_hp,
    }


def _explain(inputs: dict[str, Any], result: Result) -> str:
    mult = inputs["wounding_multiplier"]
    rolls = inputs["damage"]["rolls"]
    lines = []
    if rolls is not None:
        lines.append(f"The {len(rolls)} rolls add up to {result['total_damage']}.")
    if inputs["dr_method"] == "per_roll":
        lines.append(f"DR {inputs['dr']} is taken off each roll separately (the variant): "
                     f"{result['penetrating']} gets through.")
    else:
        lines.append(f"DR {inputs['dr']} once for each of {result['hits']} hits is "
                     f"{result['dr_total']}; {result['total_damage']} - {result['dr_total']} "
                     f"leaves **{result['penetrating']}** penetrating damage"
                     + (" (none: the armour stops it all)" if result["penetrating"] == 0 else "")
                     + f" ({rule('group injury', GROUPS_PAGE, 'group-hit-points')}).")
    lines.append(f"Times the wounding multiplier x{mult:g}, rounded down (at least 1 if any "
                 f"damage got through): injury **{result['injury']}**.")
    lines.append(f"\nThe group goes from {result['hp_before']} to **{result['hp_after']}** HP "
                 f"(of {result['hp_full']}). At {inputs['hp']} HP each, that is "
                 f"{result['standing']} member(s) still up and {result['down']} down"
                 + (f", {result['newly_down']} of them to this attack" if result["newly_down"]
                    and result["newly_down"] != result["down"] else "")
                 + (f"; one of those still up is wounded, at {result['wounded_hp']} HP."
                    if result["wounded_hp"] is not None else "."))
    return "\n".join(lines)


def _headline(result: Result) -> list[tuple[str, str]]:
    out = [("Injury", str(result["injury"])),
           ("Group HP", f"{result['hp_before']} → {result['hp_after']}"),
           ("Down", str(result["down"]))]
    if result["wounded_hp"] is not None:
        out.append(("One wounded, at", f"{result['wounded_hp']} HP"))
    return out


GROUP_INJURY = Calculator(
    name="heroic.group_injury",
    title="Injury to a group",
    summary="Pooled damage past DR, times the wounding multiplier, off the group's total HP.",
    fields=FIELDS,
    check=_check,
    compute=_compute,
    explain=_explain,
    headline=_headline,
    page=GROUPS_PAGE,
)


# --- casualties from hits not yet rolled --------------------------------------------------

def _cas_compute(i: dict[str, Any]) -> Result:
    dmg: Damage = i["damage"]
    mult = multiplier_fraction(i["wounding_multiplier"])
    full = i["hp"] * i["count"]
    before = full if i["group_hp"] is None else i["group_hp"]
    injury = (per_roll_injury if i["dr_method"] == "per_roll" else pooled_injury)(
        i["hits"], dmg, i["dr"], mult)
    down: dict[int, Fraction] = {}
    for inj, p in injury.items():
        lost = standing(before, i["hp"]) - standing(max(0, before - inj), i["hp"])
        down[lost] = down.get(lost, Fraction(0)) + p
    down = {k: down.get(k, Fraction(0)) for k in range(max(down) + 1)}
    mean = sum((k * p for k, p in injury.items()), Fraction(0))
    return {**to_json("down", down), "expected_injury": float(mean),
            "expected_down": float(sum(k * p for k, p in down.items())),
            "standing_before": standing(before, i["hp"]), "hp_before": before}


def _cas_check(i: dict[str, Any]) -> None:
    full = i["hp"] * i["count"]
    if i["group_hp"] is not None and i["group_hp"] > full:
        raise InputError("group_hp", f"Group's current HP is {i['group_hp']}, more than the "
                                     f"group's full {full} HP ({i['count']} x {i['hp']}).")


def _cas_explain(i: dict[str, Any], r: Result) -> str:
    how = ("DR once per hit off the total" if i["dr_method"] == "pooled"
           else "DR off each roll separately")
    return (f"{i['hits']} hits of {i['damage']} each, {how}, times x{i['wounding_multiplier']:g}: "
            f"{r['expected_injury']:.2f} injury on average "
            f"({rule('group hit points', 'heroic/groups', 'group-hit-points')}). Every full "
            f"share of {i['hp']} HP the pool of {r['hp_before']} loses is one member down: "
            f"**{r['expected_down']:.2f}** of {r['standing_before']} on average. The chart "
            f"counts every way the {i['hits'] * i['damage'].dice} damage dice can fall.")


def _cas_roll(i: dict[str, Any], rng: random.Random) -> Result:
    dmg: Damage = i["damage"]
    faces = [[rng.randint(1, 6) for _ in range(dmg.dice)] for _ in range(i["hits"])]
    rolls = [hit_damage(f, dmg) for f in faces]
    full = i["hp"] * i["count"]
    before = full if i["group_hp"] is None else i["group_hp"]
    out = group_injury(sum(rolls), i["hits"], i["dr"],
                       multiplier_fraction(i["wounding_multiplier"]), i["hp"], before, rolls,
                       i["dr_method"] == "per_roll")
    return {"dice": [{"die": "d6", "face": x} for f in faces for x in f],
            "rolls": rolls, "injury": out.injury, "down": out.newly_down,
            "summary": f"Damage {', '.join(map(str, rolls))} = {sum(rolls)}: injury "
                       f"{out.injury}, {out.newly_down} down, {out.standing_after} still up"}


CASUALTIES = Calculator(
    name="heroic.casualties",
    title="Casualties from a number of hits",
    summary="Roll the damage of N hits against DR: exact odds of how many members go down.",
    fields=(IntField("hits", "Hits", initial=5, minimum=1, maximum=60),
            TextField("damage", "Damage per hit", initial="2d",
                      parse=damage_parser("Damage per hit"), placeholder="2d, 1d+2"),
            IntField("dr", "DR of the location hit", default=0, initial=6, minimum=0,
                     maximum=100),
            NumberField("wounding_multiplier", "Wounding multiplier", default=1, initial=1.5,
                        minimum=0, maximum=10, exclusive_minimum=True),
            ChoiceField("dr_method", "How DR is taken off", default="pooled",
                        choices=(("pooled", "Once per hit from the total (the group rule)"),
                                 ("per_roll", "From each roll separately"))),
            IntField("hp", "HP of each member", initial=11, minimum=1, maximum=1000),
            IntField("count", "Members in the group", initial=8, minimum=1, maximum=1000),
            IntField("group_hp", "Group's current HP", optional=True, minimum=0,
                     maximum=1_000_000)),
    check=_cas_check,
    compute=_cas_compute,
    explain=_cas_explain,
    headline=lambda r: [("Members down on average", f"{r['expected_down']:.2f}"),
                        ("Injury on average", f"{r['expected_injury']:.2f}")],
    charts=(Chart("down", "Members down", "Down"),),
    roll=_cas_roll,
    roll_label="Roll the damage",
    page=GROUPS_PAGE,
)
