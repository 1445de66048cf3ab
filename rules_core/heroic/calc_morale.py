"""Calculators of the morale page: the morale roller (source: Heroic Combat, Morale) and
fatigue every third round (source: Fatigue)."""

from __future__ import annotations

import random
from typing import Any

from rules_core.calculator import Calculator, Chart, Result
from rules_core.dice.distribution import percent, to_json
from rules_core.errors import InputError
from rules_core.explain import rule, signed, table
from rules_core.fields import BoolField, ChoiceField, IntField
from rules_core.heroic import morale
from rules_core.heroic.inputs import MORALE_PAGE, roll_3d6
from rules_core.heroic.tables import ENCUMBRANCE, FATIGUE_EVERY, FATIGUE_HEAT, MORALE_BREAK

BIG = 100_000

GROUP = ("subject", ("group",))
SOLO = ("subject", ("solitary",))


FIELDS = (
    ChoiceField("subject", "Who checks", default="group",
                choices=(("group", "A group"), ("solitary", "A solitary creature"))),
    IntField("group_start", "Members at the start", initial=12, minimum=1, maximum=BIG,
             shown_if=GROUP),
    IntField("group_now", "Members still fighting", initial=7, minimum=0, maximum=BIG,
             shown_if=GROUP),
    IntField("fell_this_round", "Members who fell this round", default=1, minimum=0,
             maximum=BIG, shown_if=GROUP),
    IntField("hp_start", "Starting HP", initial=40, minimum=1, maximum=BIG, shown_if=SOLO),
    IntField("hp_lost", "HP lost so far", initial=15, minimum=0, maximum=10 * BIG,
             shown_if=SOLO),
    IntField("hp_lost_this_round", "HP lost this round", default=1, initial=8, minimum=0,
             maximum=10 * BIG, shown_if=SOLO),
    IntField("opponents", "Opponents still fighting", initial=6, minimum=1, maximum=BIG),
    BoolField("cornered", "Cannot retreat, and the enemy takes no surrender", default=False),
    IntField("fearlessness", "Fearlessness level", default=0, minimum=0, maximum=30),
    IntField("cowardice", "Cowardice: its Fright Check penalty", default=0, minimum=0,
             maximum=30, help="The size of the penalty, e.g. 4 for -4; 0 without Cowardice."),
)


def _check(inputs: dict[str, Any]) -> None:
    if inputs["subject"] == "group":
        start, now = inputs["group_start"], inputs["group_now"]
        if now > start:
            raise InputError("group_now", f"is {now}, more than the {start} the group started "
                                          f"with; casualties cannot exceed the members.")
        if now == 0:
            raise InputError("group_now", "is 0: nobody is left to check morale.")
        if inputs["fell_this_round"] > start - now:
            raise InputError("fell_this_round", f"is {inputs['fell_this_round']}, more than the "
                                                f"{start - now} lost in all.")
    elif inputs["hp_lost_this_round"] > inputs["hp_lost"]:
        raise InputError("hp_lost_this_round", f"is {inputs['hp_lost_this_round']}, more than the "
                                               f"{inputs['hp_lost']} HP lost in all.")


def _state(inputs: dict[str, Any]) -> tuple[bool, int, int, int]:
    """(solitary, start, now, lost this round) in members or HP."""
    if inputs["subject"] == "solitary":
        return (True, inputs["hp_start"], inputs["hp_start"] - inputs["hp_lost"],
                inputs["hp_lost_this_round"])
    return False, inputs["group_start"], inputs["group_now"], inputs["fell_this_round"]


def _modifiers(inputs: dict[str, Any]) -> list[morale.Modifier]:
    solitary, start, now, _ = _state(inputs)
    return morale.modifiers(solitary=solitary, start=start, now=now,
                            opponents=inputs["opponents"], cornered=inputs["cornered"],
                            fearlessness=inputs["fearlessness"], cowardice=inputs["cowardice"])


def _compute(inputs: dict[str, Any]) -> Result:
    solitary, start, now, this_round = _state(inputs)
    mods = _modifiers(inputs)
    total = sum(m.value for m in mods)
    p = morale.p_break(total)
    return {
        "check_due": morale.is_due(start, start - now, this_round),
        "lost": start - now,
        "modifiers": [{"reason": m.reason, "value": m.value} for m in mods],
        "total_modifier": total,
        "p_break": float(p),
        "p_break_exact": str(p),
        **to_json("totals", morale.total_distribution(total)),
    }


def _due_text(inputs: dict[str, Any], result: Result) -> str:
    solitary, start, now, this_round = _state(inputs)
    what = "HP" if solitary else "members"
    lost = f"{result['lost']} of {start} {what} lost"
    third = 3 * result["lost"] >= start
    if result["check_due"]:
        return f"{lost}, at least a third, with a loss this round: **a check is due**."
    if not third:
        return f"{lost}, less than a third: **no check is due** yet."
    return f"{lost}, but nothing this round: **no check is due** this round."


def _explain(inputs: dict[str, Any], result: Result) -> str:
    rows = [[m["reason"], signed(m["value"])] for m in result["modifiers"]] or [["None", "0"]]
    rows.append(["**Total**", f"**{signed(result['total_modifier'])}**"])
    need = MORALE_BREAK - result["total_modifier"]
    return "\n".join([
        _due_text(inputs, result) + f" ({rule('when to check', MORALE_PAGE, 'when-morale-is-checked')})",
        "", table(["Modifier", "Value"], rows), "",
        f"Roll 3d6 and add {signed(result['total_modifier'])}: a total of {MORALE_BREAK} or more "
        f"breaks the side, so a roll of {need} or more on the dice "
        f"({rule('the morale roll', MORALE_PAGE, 'the-morale-roll')}). Chance to break: "
        f"**{percent(result['p_break'])}** (exactly {result['p_break_exact']}).",
    ])


def _headline(result: Result) -> list[tuple[str, str]]:
    return [("Check due", "Yes" if result["check_due"] else "No"),
            ("Modifier", signed(result["total_modifier"])),
            ("Chance to break", percent(result["p_break"]))]


def _roll(inputs: dict[str, Any], rng: random.Random) -> Result:
    total_mod = sum(m.value for m in _modifiers(inputs))
    solitary, start, now, this_round = _state(inputs)
    due = morale.is_due(start, start - now, this_round)
    dice = roll_3d6(rng)
    broke = morale.breaks(sum(dice), total_mod)
    verdict = ("BREAKS: flees or surrenders (Retreat next turn if fleeing)" if broke
               else "holds and fights on")
    note = "" if due else " (no check was due)"
    return {
        "dice": [{"die": "d6", "face": f} for f in dice],
        "total": sum(dice) + total_mod,
        "breaks": broke,
        "summary": f"Morale{note}: {'+'.join(map(str, dice))} = {sum(dice)} "
                   f"{signed(total_mod) if total_mod else '+0'} = {sum(dice) + total_mod}: {verdict}",
    }


MORALE = Calculator(
    name="heroic.morale",
    title="Morale roller",
    summary="Whether a morale check is due, its modifiers, the exact chance to break, and a roll.",
    fields=FIELDS,
    check=_check,
    compute=_compute,
    explain=_explain,
    headline=_headline,
    charts=(Chart("totals", "Morale roll, 3d6 + modifiers (13 or more breaks)", "Total",
                  zone=(morale.MORALE_BREAK, "breaks")),),
    roll=_roll,
    roll_label="Roll morale",
    page=MORALE_PAGE,
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
    page=MORALE_PAGE,
)
