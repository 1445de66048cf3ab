"""Calculators of the harm page: effect dice assigned to a unit, and who takes the hit in
a player fireteam."""

from __future__ import annotations

import random
from fractions import Fraction
from typing import Any

from rules_core.calculator import Calculator, Chart, Result
from rules_core.cortex.dice import DieField, name, names, pool_parser
from rules_core.cortex.effect import Rules, assign
from rules_core.cortex.inputs import (
    COMPLICATION_FIELD,
    RULES_FIELD,
    SURPLUS_FIELD,
    check_complication,
    unit_field,
)
from rules_core.cortex.tables import PC_TEAM_MAX, PC_TEAM_MIN, allocation
from rules_core.dice.distribution import percent, to_json
from rules_core.errors import InputError
from rules_core.explain import escape, rule, table
from rules_core.fields import ChoiceField, IntField, TextField
from rules_core.messages import describe, list_items

HARM = "cortex/harm"


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


def _faces(inputs: dict[str, Any]) -> list[int]:
    """The numbers that can pick a member: 1-12 on the d12, or the faces an effect die can
    show under the as-written reading (2 to its size: a 1 is a hitch, never an effect die)."""
    if inputs["picker"] == "d12":
        return list(range(1, 13))
    return list(range(2, inputs["effect_die"] + 1))


def _hits_check(inputs: dict[str, Any]) -> None:
    face = inputs["face"]
    if face is not None and face not in _faces(inputs):
        faces = _faces(inputs)
        raise InputError("face", f"Number rolled: a d{inputs['effect_die']} effect die shows "
                                 f"{faces[0]} to {faces[-1]} (a 1 is a hitch and is never the "
                                 f"effect die), received {face}.")


def _hits_compute(inputs: dict[str, Any]) -> Result:
    members = inputs["members"]
    numbers = allocation(len(members))
    faces = _faces(inputs)
    chances = {m: Fraction(sum(1 for f in faces if f in n), len(faces))
               for m, n in zip(members, numbers)}
    result: Result = {
        "picker": inputs["picker"],
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
    if inputs["picker"] == "d12":
        how = ("When an effect die lands on the team, a separate d12 picks who takes it "
               "([ruling](/rulings/#which-die-picks-the-member-hit)), so each number is 1 in 12.")
    else:
        size = inputs["effect_die"]
        left_out = [escape(a["member"]) for a in result["allocation"] if not a["chance"]]
        how = (f"As written, the number the d{size} effect die shows picks the member. It shows "
               f"2 to {size} (a 1 is a hitch, never an effect die), so numbers above {size} and "
               f"the number 1 cannot be hit; the chances take each of those faces as equally "
               f"likely ([ruling](/rulings/#which-die-picks-the-member-hit))."
               + (f" Out of reach of this die: {', '.join(left_out)}." if left_out else ""))
    text = (f"The numbers 1 to 12 are dealt out one at a time, most exposed member first, so "
            f"nobody gets a second number before everyone has one "
            f"({rule('harming player characters', HARM, 'harming-player-characters')}). {how}\n\n"
            + table(["Member", "Numbers", "Chance"], rows))
    if "hit_member" in result:
        text += f"\n\nA {inputs['face']} hits **{escape(result['hit_member'])}**."
    return text


def _hits_roll(inputs: dict[str, Any], rng: random.Random) -> Result:
    numbers = allocation(len(inputs["members"]))
    if inputs["picker"] == "d12":
        face = rng.randint(1, 12)
        dice = [{"die": "d12", "face": face}]
        lead = f"d12 {face}"
    else:
        size = inputs["effect_die"]
        dice = []
        face = 1
        while face == 1:  # a hitch is never the effect die: the die that shows 2+ counts
            face = rng.randint(1, size)
            dice.append({"die": f"effect d{size}", "face": face})
        lead = f"effect die d{size} shows {face}"
    member = next(m for m, n in zip(inputs["members"], numbers) if face in n)
    return {"dice": dice, "member": member, "summary": f"{lead}: {member} takes the hit."}


HIT_ALLOCATION = Calculator(
    name="cortex.hit_allocation", title="Who takes the hit",
    summary="Deal the numbers 1-12 around a player fireteam; a d12 or the effect die picks who.",
    fields=(
        TextField("members", "Members, most exposed first", parse=parse_names,
                  initial="Point, Breacher, Flashbang, Rear guard",
                  placeholder="Point, Second, Third, Rear guard",
                  help="3 to 6 names separated by commas, the most exposed roles first."),
        ChoiceField("picker", "Which die picks the member", default="d12",
                    choices=(("d12", "A separate d12 (the site's ruling)"),
                             ("effect", "The number the effect die shows (as written)"))),
        DieField("effect_die", "Effect die", initial=8, shown_if=("picker", ("effect",))),
        IntField("face", "Number rolled (optional)", optional=True, minimum=1, maximum=12),
    ),
    compute=_hits_compute, explain=_hits_explain, check=_hits_check,
    headline=lambda r: ([("Takes the hit", r["hit_member"])] if "hit_member" in r else [])
    + [("Most exposed", f"{r['allocation'][0]['member']}: {percent(r['allocation'][0]['chance'])}")],
    charts=(Chart("hit", "Chance of taking each hit", "Member", ordered=False),),
    roll=_hits_roll, roll_label="Roll for the hit", page=HARM,
)
