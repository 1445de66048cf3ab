"""Calculators of the rolls page: one pool rolled (hitches, total, effect die) and a
contest between two pools (the attack odds)."""

from __future__ import annotations

import random
from fractions import Fraction
from typing import Any

from rules_core.calculator import Calculator, Chart, Result
from rules_core.cortex.contest import (
    EffectLimit,
    describe_roll,
    dice_json,
    effect_dice,
    outcome_weights,
    roll_pool,
    ways,
)
from rules_core.cortex.dice import SIZES, name, names
from rules_core.cortex.effect import Rules, assign
from rules_core.cortex.inputs import (
    COMPLICATION_FIELD,
    EFFECT_LIMIT_FIELD,
    RULES_FIELD,
    SURPLUS_FIELD,
    check_complication,
    pool_field,
    unit_field,
)
from rules_core.cortex.odds import Target, contest_odds
from rules_core.dice.distribution import percent, to_json
from rules_core.explain import rule
from rules_core.fields import BoolField

ROLLS = "cortex/rolls"
HARM = "cortex/harm"


# --- one pool -----------------------------------------------------------------------

def _pool_compute(inputs: dict[str, Any]) -> Result:
    pool = inputs["pool"]
    weights = outcome_weights(pool, 1, 1)
    denominator = ways(pool)
    totals: dict[int, Fraction] = {}
    effect = {s: Fraction(0) for s in SIZES}
    for (total, kept, _), w in weights.items():
        totals[total] = totals.get(total, 0) + Fraction(w, denominator)
        effect[kept[0] if kept else 4] += Fraction(w, denominator)
    no_hitch = Fraction(1)
    botch = Fraction(1)
    for size in pool:
        no_hitch *= Fraction(size - 1, size)
        botch *= Fraction(1, size)
    totals = dict(sorted(totals.items()))
    return {
        "pool": pool,
        **to_json("total", totals),
        **to_json("effect_die", {k: p for k, p in effect.items() if p}),
        "expected_total": float(sum(k * p for k, p in totals.items())),
        "p_hitch": float(1 - no_hitch), "p_hitch_exact": str(1 - no_hitch),
        "p_botch": float(botch), "p_botch_exact": str(botch),
    }


def _pool_explain(inputs: dict[str, Any], result: Result) -> str:
    return (f"Every die of {names(inputs['pool'])} is rolled. A 1 is a hitch and counts for "
            f"nothing ({rule('hitches', ROLLS, 'hitches')}). The two highest other dice make "
            f"the total, and the largest die left over is the effect die, a d4 if none is left "
            f"({rule('total and effect die', ROLLS, 'total-and-effect-die')}). When two dice "
            "show the same face, the smaller one goes into the total so the larger stays "
            "free for effect. The odds above count every face of every die exactly.")


def _pool_roll(inputs: dict[str, Any], rng: random.Random) -> Result:
    roll = roll_pool(inputs["pool"], rng)
    return {"dice": dice_json(roll), "total": roll.total, "effect_die": roll.effect_die,
            "hitches": [i + 1 for i in roll.hitches],
            "total_dice": [i + 1 for i in roll.total_dice],
            "summary": ", ".join(f"{name(s)} {f}" + (" (hitch)" if f == 1 else "")
                                 for s, f in roll.dice) + ": " + describe_roll(roll)}


POOL = Calculator(
    name="cortex.pool", title="Roll a Cortex pool",
    summary="Each die, the hitches, the best total and the effect die; exact odds of the total.",
    fields=(pool_field("pool", "Dice pool", "d8 d8 d6 d6"),),
    compute=_pool_compute, explain=_pool_explain,
    headline=lambda r: [("Average total", f"{r['expected_total']:.2f}"),
                        ("At least one hitch", percent(r["p_hitch"])),
                        ("All hitches (botch)", percent(r["p_botch"], 2))],
    charts=(Chart("total", "Total (best two dice)", "Total"),
            Chart("effect_die", "Effect die (d4 when no die is left)", "Effect die size")),
    roll=_pool_roll, roll_label="Roll the pool", page=ROLLS,
)


# --- a contest ----------------------------------------------------------------------

def _target(inputs: dict[str, Any]) -> Target | None:
    if not inputs["unit"]:
        return None
    return Target(tuple(inputs["unit"]), inputs["complication"], Rules(inputs["rules"]),
                  inputs["surplus"] == "carried")


def _odds_compute(inputs: dict[str, Any]) -> Result:
    target = _target(inputs)
    odds = contest_odds(inputs["attacker"], inputs["defender"], inputs["plot_point"], target,
                        EffectLimit(inputs["effect_limit"]))
    result: Result = {
        "attacker": inputs["attacker"], "defender": inputs["defender"],
        "p_win": float(odds.p_win), "p_win_exact": str(odds.p_win),
        **to_json("margin", odds.margin),
        # the chart shows wins by margin, every failed attack folded into 0
        **to_json("win_margin", {0: 1 - odds.p_win,
                                 **{k: p for k, p in odds.margin.items() if k > 0}}),
        **to_json("effect_die", odds.effect_die),
        **to_json("extra_effect_dice", odds.extra_effect_dice),
    }
    if odds.taken_out is not None:
        result.update(to_json("taken_out", odds.taken_out))
        result["expected_taken_out"] = float(sum(k * p for k, p in odds.taken_out.items()))
    return result


def _odds_explain(inputs: dict[str, Any], result: Result) -> str:
    text = [
        f"The attacker rolls {names(inputs['attacker'])} against {names(inputs['defender'])}. "
        f"Each side's total is its best two dice, hitches (1s) excluded; the attacker must "
        f"beat the defender's total, and a tie goes to the defender "
        f"({rule('contests', ROLLS, 'contests')}).",
        f"The calculation assumes the attacker keeps the **highest total**, then the largest "
        f"dice left for effect ({rule('which dice the odds keep', ROLLS, 'which-dice-the-odds-keep')}).",
        ("A win gives one effect die, plus one more per 3 full points of margin"
         + (" and one for the plot point" if inputs["plot_point"] else "")
         if inputs["effect_limit"] == "margin" else
         "A win uses every die left over as an effect die (Part II's example; a plot point "
         "adds nothing more)")
        + f", as long as dice are left to use "
        f"({rule('extra effect dice', HARM, 'extra-effect-dice')}; "
        f"[ruling](/rulings/#how-many-effect-dice-a-win-gives)). Effect-die chart: 0 means "
        "the attack fails; the margin and extra-dice charts count a failed attack as 0 (the "
        "full margin, losses included, is in the result as `margin`).",
    ]
    target = _target(inputs)
    if target:
        part = "Part II (one die per attack may injure without taking anyone out)" \
            if target.rules is Rules.PART2 else "Part I (complications step up)"
        text.append(
            f"Against a unit of {names(list(target.unit))}, the effect dice are assigned under "
            f"{part}, lower-quality members first, surplus steps {inputs['surplus']} "
            f"({rule('assigning effect dice', HARM, 'assigning-effect-dice')}).")
    return "\n\n".join(text)


def _odds_headline(result: Result) -> list[tuple[str, str]]:
    out = [("Attacker wins", percent(result["p_win"]))]
    if "taken_out" in result:
        out.append(("Expected members taken out", f"{result['expected_taken_out']:.2f}"))
    return out


def _odds_roll(inputs: dict[str, Any], rng: random.Random) -> Result:
    att, dfn = roll_pool(inputs["attacker"], rng), roll_pool(inputs["defender"], rng)
    margin = att.total - dfn.total
    dice = effect_dice(att.remaining, margin, inputs["plot_point"],
                       EffectLimit(inputs["effect_limit"]))
    summary = f"Attacker {describe_roll(att)}; defender total {dfn.total}. "
    result: Result = {"dice": dice_json(att, "attacker") + dice_json(dfn, "defender"),
                      "attacker_total": att.total, "defender_total": dfn.total,
                      "margin": margin, "effect_dice": list(dice)}
    if not dice:
        result["summary"] = summary + "The defender holds (ties go to the defender)."
        return result
    summary += f"Attacker wins by {margin}: effect dice {names(list(dice))}."
    target = _target(inputs)
    if target:
        done = assign(dice, target.unit, target.injury, target.rules, target.carry_surplus)
        result["taken_out"] = list(done.taken_out)
        summary += (f" Taken out: {len(done.taken_out)}"
                    + (f"; injury {name(done.injury)}" if done.injury else "") + ".")
    result["summary"] = summary
    return result


ODDS = Calculator(
    name="cortex.odds", title="Attack odds: pool against pool",
    summary="Exact chance to win, margin, effect die, extra effect dice and members taken out.",
    fields=(
        pool_field("attacker", "Attacker's pool", "d8 d8 d6 d6"),
        pool_field("defender", "Defender's pool", "d8 d8 d8 d8"),
        BoolField("plot_point", "Spend a plot point for one more effect die", default=False),
        EFFECT_LIMIT_FIELD,
        unit_field(optional=True, initial="d8 d8 d8 d8"),
        COMPLICATION_FIELD, RULES_FIELD, SURPLUS_FIELD,
    ),
    compute=_odds_compute, explain=_odds_explain, headline=_odds_headline,
    charts=(Chart("win_margin", "Margin of victory (0: the attack fails)", "Margin"),
            Chart("effect_die", "Effect die (0: the attack fails)", "Effect die"),
            Chart("extra_effect_dice", "Extra effect dice", "Extra dice"),
            Chart("taken_out", "Members taken out", "Members")),
    check=check_complication, roll=_odds_roll, roll_label="Roll the attack", page=ROLLS,
)
