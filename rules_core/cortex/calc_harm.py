"""Calculators about harm: effect dice against a unit, hits on a PC fireteam, drone costs."""

from __future__ import annotations

import random
from fractions import Fraction
from typing import Any

from rules_core.calculator import Calculator, Chart, Result
from rules_core.cortex.calc_dice import (
    COMPLICATION_FIELD,
    RULES_FIELD,
    SURPLUS_FIELD,
    check_complication,
    unit_field,
)
from rules_core.cortex.dice import name, names, pool_parser
from rules_core.cortex.effect import Rules, assign
from rules_core.cortex.tables import MAX_DRONES, PC_TEAM_MAX, PC_TEAM_MIN, drone_cost
from rules_core.dice.distribution import percent, to_json
from rules_core.errors import InputError
from rules_core.explain import escape, rule, table
from rules_core.fields import IntField, TextField, describe, list_items

HARM = "cortex/harm"
ENEMIES = "cortex/enemies"


# --- effect dice against a unit -------------------------------------------------------

def _effect_compute(inputs: dict[str, Any]) -> Result:
    done = assign(inputs["effect_dice"], inputs["unit"], inputs["complication"],
                  Rules(inputs["rules"]), inputs["surplus"] == "carried")
    return {
        "taken_out": list(done.taken_out), "injury": done.injury, "unused": list(done.unused),
        "standing": list(done.standing),
        "log": [{"die": s.die, "action": s.action, "taken_out": list(s.taken_out),
                 "injury_after": s.injury_after, "text": s.text} for s in done.log],
    }


def _effect_explain(inputs: dict[str, Any], result: Result) -> str:
    part = ("Part II: each die at least a member's quality die takes that member out; "
            "only one die per attack may injure without taking anyone out"
            if inputs["rules"] == "part2" else
            "Part I: a die below every quality die becomes a complication that later dice "
            "step up")
    rows = [[str(i), name(s["die"]), s["text"]] for i, s in enumerate(result["log"], 1)]
    text = (f"Rules: {part} ({rule('assigning effect dice', HARM, 'assigning-effect-dice')}). "
            f"Lower-quality members go first, and the dice are applied in the order that "
            f"serves the attacker best: most members taken out, then the biggest injury left "
            f"standing, then the fewest dice spent.\n\n"
            + table(["#", "Die", "What happens"], rows))
    text += (f"\n\nStill standing: **{names(result['standing'])}**"
             + (f" with a **{name(result['injury'])}** injury." if result["injury"] else "."))
    if inputs["rules"] == "part1" or inputs["complication"]:
        text += (" Complication arithmetic: a die's steps are its place on the ladder "
                 "(d4 = 1 ... d12 = 5) ([ruling](/rulings/#complication-step-arithmetic)).")
    return text


def _effect_headline(result: Result) -> list[tuple[str, str]]:
    out = result["taken_out"]
    return [("Taken out", f"{len(out)}" + (f" ({names(out)})" if out else "")),
            ("Injury left on the unit", name(result["injury"]) if result["injury"] else "none"),
            ("Unused dice", names(result["unused"]) if result["unused"] else "none")]


EFFECT_DICE = Calculator(
    name="cortex.effect_dice", title="Assign effect dice to a unit",
    summary="Which members are taken out, which injury stands, which dice are lost.",
    fields=(
        TextField("effect_dice", "Effect dice available", initial="d8 d6 d6",
                  parse=pool_parser(1, 12), placeholder="d8 d6 d6",
                  help="The dice the winning roll may assign as effect dice (1 to 12)."),
        unit_field(optional=False, initial="d8 d8 d8 d8"),
        COMPLICATION_FIELD, RULES_FIELD, SURPLUS_FIELD,
    ),
    compute=_effect_compute, explain=_effect_explain, headline=_effect_headline,
    check=check_complication, page=HARM,
)


# --- hits on a player fireteam --------------------------------------------------------

def parse_names(field: str, raw: Any) -> list[str]:
    """Member names, most exposed first: a JSON list or comma-separated text."""
    items = list_items(field, raw, "names separated by commas")
    if not PC_TEAM_MIN <= len(items) <= PC_TEAM_MAX:
        raise InputError(field, f"a player fireteam here has {PC_TEAM_MIN} to {PC_TEAM_MAX} "
                                f"members, received {len(items)}.")
    out: list[str] = []
    for i, item in enumerate(items, start=1):
        if not isinstance(item, str) or not item.strip() or len(item.strip()) > 40:
            raise InputError(f"{field}.{i}", f"expected a name of 1 to 40 characters, received "
                                             f"{describe(item)}.")
        if item.strip() in out:
            raise InputError(f"{field}.{i}", f"the name {describe(item.strip())} is used twice; "
                                             "give every member a different name.")
        out.append(item.strip())
    return out


def allocation(count: int) -> list[list[int]]:
    """Numbers 1-12 dealt round the team, most exposed member first (source: Part I,
    Inflicting Harm - the Characters)."""
    return [list(range(i, 13, count)) for i in range(1, count + 1)]


def _hits_compute(inputs: dict[str, Any]) -> Result:
    members = inputs["members"]
    numbers = allocation(len(members))
    chances = {m: Fraction(len(n), 12) for m, n in zip(members, numbers)}
    result: Result = {
        "allocation": [{"member": m, "numbers": n, "chance": float(chances[m]),
                        "chance_exact": str(chances[m])} for m, n in zip(members, numbers)],
        **to_json("hit", chances),
    }
    if inputs["face"] is not None:
        result["hit_member"] = next(m for m, n in zip(members, numbers) if inputs["face"] in n)
    return result


def _hits_explain(inputs: dict[str, Any], result: Result) -> str:
    rows = [[escape(a["member"]), ", ".join(map(str, a["numbers"])), percent(a["chance"])]
            for a in result["allocation"]]
    text = (f"The numbers 1 to 12 are dealt out one at a time, most exposed member first, so "
            f"nobody gets a second number before everyone has one "
            f"({rule('harming player characters', HARM, 'harming-player-characters')}). "
            f"When an effect die lands on the team, a d12 picks who takes it "
            f"([ruling](/rulings/#which-die-picks-the-member-hit)).\n\n"
            + table(["Member", "Numbers", "Chance"], rows))
    if "hit_member" in result:
        text += f"\n\nA {inputs['face']} on the d12 hits **{escape(result['hit_member'])}**."
    return text


def _hits_roll(inputs: dict[str, Any], rng: random.Random) -> Result:
    face = rng.randint(1, 12)
    numbers = allocation(len(inputs["members"]))
    member = next(m for m, n in zip(inputs["members"], numbers) if face in n)
    return {"dice": [{"die": "d12", "face": face}], "member": member,
            "summary": f"d12 {face}: {member} takes the hit."}


HIT_ALLOCATION = Calculator(
    name="cortex.hit_allocation", title="Who takes the hit",
    summary="Deal the numbers 1-12 around a player fireteam and roll a d12 for a hit.",
    fields=(
        TextField("members", "Members, most exposed first", parse=parse_names,
                  initial="Point, Breacher, Flashbang, Rear guard",
                  placeholder="Point, Second, Third, Rear guard",
                  help="3 to 6 names separated by commas, the most exposed roles first."),
        IntField("face", "d12 rolled (optional)", optional=True, minimum=1, maximum=12),
    ),
    compute=_hits_compute, explain=_hits_explain,
    headline=lambda r: ([("Takes the hit", r["hit_member"])] if "hit_member" in r else [])
    + [("Most exposed", f"{r['allocation'][0]['member']}: {percent(r['allocation'][0]['chance'])}")],
    charts=(Chart("hit", "Chance of taking each hit", "Member", ordered=False),),
    roll=_hits_roll, roll_label="Roll the d12", page=HARM,
)


# --- drone costs ----------------------------------------------------------------------

def _drones_compute(inputs: dict[str, Any]) -> Result:
    costs = [drone_cost(i) for i in range(1, inputs["drones"] + 1)]
    return {"costs": costs, "next_cost": costs[-1], "total": sum(costs)}


DRONES = Calculator(
    name="cortex.drones", title="Drone operator's Edge cost",
    summary="Edge for each successive drone (doubling) and the total for n drones.",
    fields=(IntField("drones", "Drones deployed", initial=3, minimum=1, maximum=MAX_DRONES),),
    compute=_drones_compute,
    explain=lambda i, r: (
        f"Each drone costs twice the one before ({rule('drone operator', ENEMIES, 'drone-operator')}): "
        + " + ".join(map(str, r["costs"])) + f" = **{r['total']}** Edge, which is "
        f"2^{i['drones']} - 1."),
    headline=lambda r: [(f"Drone {len(r['costs'])} costs", f"{r['next_cost']} Edge"),
                        ("All of them", f"{r['total']} Edge")],
    page=ENEMIES,
)

CALCULATORS = (EFFECT_DICE, HIT_ALLOCATION, DRONES)
