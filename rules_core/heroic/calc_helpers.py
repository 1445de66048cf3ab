"""Heroic Combat helpers: side initiative, the HT roll to stay in the fight, fatigue every
third round, and casualties from hits not yet rolled (source: Heroic Combat, the round
sequence, Injuries, Fatigue, Multiple Attackers)."""

from __future__ import annotations

import random
from fractions import Fraction
from typing import Any

import icepool

from rules_core.calculator import Calculator, Chart, Result
from rules_core.dice.distribution import from_icepool, percent, to_json
from rules_core.errors import InputError
from rules_core.explain import rule, table
from rules_core.fields import ChoiceField, IntField, NumberField, TextField
from rules_core.heroic.calc_injury import multiplier_fraction
from rules_core.heroic.calc_melee import roll_3d6
from rules_core.heroic.damage import Damage, damage_parser, hit_damage, per_roll_injury, pooled_injury
from rules_core.heroic.groups import group_injury, standing
from rules_core.heroic.tables import (
    ENCUMBRANCE,
    FATIGUE_EVERY,
    FATIGUE_HEAT,
    HT_ALWAYS_FAILS,
    HT_ALWAYS_SUCCEEDS,
)

# --- side initiative --------------------------------------------------------------------

TIES = (("reroll", "Roll again until one side is higher"),
        ("simultaneous", "Both sides act at the same time"))


def initiative_winner(die_a: int, die_b: int) -> str:
    """The verdict for one pair of 1d rolls: "a", "b" or "tie" (source: the round, step 1)."""
    return "a" if die_a > die_b else "b" if die_b > die_a else "tie"


def initiative_odds(ties: str) -> dict[str, Fraction]:
    """Exact chance each side acts first, or both at once, under the tie ruling."""
    dist = from_icepool(icepool.map(initiative_winner, icepool.d6, icepool.d6))
    if ties == "reroll":
        decided = dist["a"] + dist["b"]
        return {"Side A first": dist["a"] / decided, "Side B first": dist["b"] / decided}
    return {"Side A first": dist["a"], "Side B first": dist["b"], "Both at once": dist["tie"]}


def _init_roll(inputs: dict[str, Any], rng: random.Random) -> Result:
    dice, lines = [], []
    while True:
        a, b = rng.randint(1, 6), rng.randint(1, 6)
        dice += [{"die": "side A d6", "face": a}, {"die": "side B d6", "face": b}]
        verdict = initiative_winner(a, b)
        lines.append(f"A {a}, B {b}")
        if verdict != "tie" or inputs["ties"] == "simultaneous":
            break
    outcome = {"a": "Side A first", "b": "Side B first", "tie": "Both at once"}[verdict]
    return {"dice": dice, "outcome": outcome,
            "summary": f"{'; tie, again: '.join(lines)}: {outcome}"}


INITIATIVE = Calculator(
    name="heroic.initiative",
    title="Side initiative",
    summary="Each side rolls 1d; the higher acts first and declares its tactics last.",
    fields=(ChoiceField("ties", "Ties", default="reroll", choices=TIES),),
    compute=lambda i: to_json("first", initiative_odds(i["ties"])),
    explain=lambda i, r: (
        f"Each side rolls one die and the higher roll wins the round's initiative "
        f"({rule('the round', 'heroic/', 'the-round')}): 15 of the 36 pairs favour each side "
        f"and 6 are ties. The source does not say what a tie does "
        f"({rule('ruling', 'rulings/', 'heroic-initiative-ties')}): "
        + ("rolled again, each side goes first half the time." if i["ties"] == "reroll"
           else "with both acting at once, each side leads 15 times in 36 and 6 in 36 "
                "rounds are simultaneous.")),
    headline=lambda r: [(k, percent(v)) for k, v in r["first"].items()],
    charts=(Chart("first", "Who acts first", "Result", ordered=False),),
    roll=_init_roll,
    roll_label="Roll initiative",
    page="heroic/index",
)


# --- the HT roll at 0 HP or after a major wound -------------------------------------------

def ht_success(roll: int, ht: int) -> bool:
    """One HT roll: 3-4 always succeed, 17-18 always fail, otherwise roll <= HT (p. B348)."""
    if roll <= HT_ALWAYS_SUCCEEDS:
        return True
    if roll >= HT_ALWAYS_FAILS:
        return False
    return roll <= ht


def is_major_wound(injury: int, hp: int) -> bool:
    """A single blow's injury of more than half the victim's HP is a major wound."""
    return 2 * injury > hp


def _ht_compute(i: dict[str, Any]) -> Result:
    major = is_major_wound(i["largest_injury"], i["hp"])
    zero = i["current_hp"] <= 0
    ht = i["ht"] + i["ht_modifier"]
    dist = from_icepool((3 @ icepool.d6).map(lambda r: ht_success(r, ht)))
    stays = dist.get(True, Fraction(0))
    return {"major_wound": major, "at_zero": zero, "roll_due": major or zero,
            "effective_ht": ht, "p_stays": float(stays), "p_stays_exact": str(stays),
            "p_out": float(1 - stays), "p_out_exact": str(1 - stays)}


def _ht_check(i: dict[str, Any]) -> None:
    if i["current_hp"] > i["hp"]:
        raise InputError("current_hp", f"Current HP is {i['current_hp']}, more than the "
                                       f"{i['hp']} HP of a healthy fighter.")


def _ht_explain(i: dict[str, Any], r: Result) -> str:
    why = []
    if r["at_zero"]:
        why.append(f"{i['current_hp']} HP is 0 or less")
    if r["major_wound"]:
        why.append(f"a blow of {i['largest_injury']} injury is more than half of "
                   f"{i['hp']} HP, a major wound")
    head = ("A roll is due: " + " and ".join(why) + "." if why
            else "No roll is due: HP above 0 and no blow over half the HP.")
    return (f"{head} ({rule('incapacitation', 'heroic/melee', 'incapacitation')})\n\n"
            f"Roll 3d against HT {r['effective_ht']}: 3 or 4 always succeeds, 17 or 18 always "
            f"fails. On a failure the fighter is out of the fight. Chance to stay in: "
            f"**{percent(r['p_stays'])}** (exactly {r['p_stays_exact']}). A group of "
            f"identical fighters rolls once for all of them.")


def _ht_roll(i: dict[str, Any], rng: random.Random) -> Result:
    ht = i["ht"] + i["ht_modifier"]
    dice = roll_3d6(rng)
    ok = ht_success(sum(dice), ht)
    return {"dice": [{"die": "d6", "face": f} for f in dice], "stays": ok,
            "summary": f"HT {ht}: rolled {sum(dice)}, "
                       + ("stays in the fight" if ok else "out of the fight")}


INCAPACITATION = Calculator(
    name="heroic.incapacitation",
    title="Staying in the fight",
    summary="Whether a HT roll is due (0 HP or a major wound) and the chance to stay in.",
    fields=(IntField("hp", "HP", initial=11, minimum=1, maximum=1000),
            IntField("current_hp", "Current HP", initial=0, minimum=-10_000, maximum=1000),
            IntField("largest_injury", "Largest injury from one blow", default=0, initial=6,
                     minimum=0, maximum=10_000,
                     help="A blow of more than half the HP is a major wound."),
            IntField("ht", "HT", initial=11, minimum=1, maximum=30),
            IntField("ht_modifier", "Modifiers to the HT roll", default=0, minimum=-20,
                     maximum=20, help="Hard to Kill, High Pain Threshold rules of your game...")),
    check=_ht_check,
    compute=_ht_compute,
    explain=_ht_explain,
    headline=lambda r: [("Roll due", "Yes" if r["roll_due"] else "No"),
                        ("Major wound", "Yes" if r["major_wound"] else "No"),
                        ("Stays in", percent(r["p_stays"]))],
    roll=_ht_roll,
    roll_label="Roll HT",
    page="heroic/melee",
)


# --- fatigue every third round ----------------------------------------------------------

def fatigue_lost(rounds: int, encumbrance: int, heat: str) -> tuple[int, int]:
    """(assessments, FP lost) after ``rounds`` rounds: one assessment at the end of every
    third round, each costing 1 FP plus the encumbrance level, plus the heat cost."""
    assessments = rounds // FATIGUE_EVERY
    return assessments, assessments * (1 + encumbrance + FATIGUE_HEAT[heat][1])


def _fatigue_compute(i: dict[str, Any]) -> Result:
    times, lost = fatigue_lost(i["rounds"], i["encumbrance"], i["heat"])
    left = i["fp"] - lost
    state = ("unconscious" if left <= -i["fp"] else "on the verge of collapse" if left <= 0
             else "very tired" if 3 * left < i["fp"] else "fine")
    return {"assessments": times, "fp_lost": lost, "fp_left": left, "state": state,
            "per_assessment": 1 + i["encumbrance"] + FATIGUE_HEAT[i["heat"]][1]}


def _fatigue_explain(i: dict[str, Any], r: Result) -> str:
    rows = [[name, str(1 + level)] for level, name in enumerate(ENCUMBRANCE)]
    return "\n".join([
        f"Fatigue is paid at the end of rounds 3, 6, 9... "
        f"({rule('fatigue', 'heroic/morale', 'fatigue')}): after {i['rounds']} round(s), "
        f"{r['assessments']} time(s). Each time costs what the Basic Set charges for a whole "
        f"battle:", "", table(["Encumbrance", "FP each time"], rows), "",
        f"plus {FATIGUE_HEAT['hot'][1]} on a hot day, or {FATIGUE_HEAT['hot_heavy'][1]} for "
        f"someone in heavy armour or thick clothing in the heat. Here that is "
        f"{r['per_assessment']} FP a time, **{r['fp_lost']} FP** in all: {r['fp_left']} of "
        f"{i['fp']} left, {r['state']}. Below a third of your FP, Move, Dodge and ST are "
        f"halved; at 0 or less you are near collapse; at minus your full FP you pass out.",
    ])


FATIGUE = Calculator(
    name="heroic.fatigue",
    title="Fatigue every third round",
    summary="FP lost after a number of rounds, by encumbrance and heat.",
    fields=(IntField("rounds", "Rounds fought", initial=6, minimum=0, maximum=1000),
            ChoiceField("encumbrance", "Encumbrance", default=0,
                        choices=tuple(enumerate(ENCUMBRANCE))),
            ChoiceField("heat", "Weather", default="normal",
                        choices=tuple((k, v[0]) for k, v in FATIGUE_HEAT.items())),
            IntField("fp", "FP", initial=10, minimum=1, maximum=100)),
    compute=_fatigue_compute,
    explain=_fatigue_explain,
    headline=lambda r: [("FP lost", str(r["fp_lost"])), ("FP left", str(r["fp_left"])),
                        ("State", r["state"])],
    page="heroic/morale",
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
    page="heroic/groups",
)
