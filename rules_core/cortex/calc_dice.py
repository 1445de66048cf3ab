"""Calculators about rolling: one pool, a contest (attack odds) and initiative."""

from __future__ import annotations

import random
from fractions import Fraction
from typing import Any

from rules_core.calculator import Calculator, Chart, Result
from rules_core.cortex.contest import (
    EffectLimit,
    Roll,
    effect_dice,
    outcome_weights,
    roll_pool,
    ways,
)
from rules_core.cortex.dice import SIZES, DieField, name, names, pool_parser
from rules_core.cortex.effect import Rules, assign
from rules_core.cortex.odds import Target, contest_odds
from rules_core.cortex.tables import MAX_FIRETEAM
from rules_core.dice.distribution import percent, to_json
from rules_core.errors import InputError
from rules_core.explain import rule
from rules_core.fields import BoolField, ChoiceField, TextField

ROLLS = "cortex/rolls"
HARM = "cortex/harm"
FIREFIGHTS = "cortex/firefights"
DICE_HELP = "Type dice like d8 d6 d6, 2d6 d10 or 8,6,6 (d4 to d12, at most 12 dice)."


def pool_field(field: str, label: str, initial: str, help: str = DICE_HELP) -> TextField:
    return TextField(field, label, initial=initial, help=help, parse=pool_parser(),
                     placeholder="d8 d6 d6")


def unit_field(optional: bool, initial: str | None = None) -> TextField:
    return TextField(
        "unit", "Target unit's quality dice", initial=initial, optional=optional,
        parse=pool_parser(1, MAX_FIRETEAM, empty_ok=optional), placeholder="d8 d8 d8 d8",
        help="One die per member still in the fight, 1 to 6 members"
             + (" (leave empty for no target)." if optional else "."))


RULES_FIELD = ChoiceField("rules", "Harm rules", default="part2",
                          choices=(("part2", "Part II: one non-lethal die per attack"),
                                   ("part1", "Part I: complications step up")))
SURPLUS_FIELD = ChoiceField("surplus", "Surplus steps", default="lost",
                            choices=(("lost", "Lost (as written)"),
                                     ("carried", "Carried to the next member (cinematic)")))
EFFECT_LIMIT_FIELD = ChoiceField(
    "effect_limit", "Effect dice per win", default="margin",
    choices=(("margin", "One, plus one per 3 points of margin (Part I)"),
             ("every", "Every die left over (Part II's example)")),
    help="How many leftover dice a winning attack may use as effect dice.")
COMPLICATION_FIELD = DieField(
    "complication", "Injury the unit already has", optional=True, none_label="None",
    help="A complication left on the unit by an earlier attack, if any; it must be smaller "
         "than every member's quality die.")


def check_complication(inputs: dict[str, Any]) -> None:
    """Refuse an injury no unit could carry (source: Part I, Inflicting Harm - NPCs: a
    complication that reaches a member's quality die takes that member out at once)."""
    injury, unit = inputs["complication"], inputs["unit"]
    if injury is None:
        return
    label = COMPLICATION_FIELD.label
    if not unit:
        raise InputError("complication", f"{label}: a {name(injury)} injury needs a unit to "
                                         f"stand on, but Target unit's quality dice is empty; "
                                         f"give the unit's dice or choose None.")
    low = min(unit)
    if injury >= low:
        smaller = [name(s) for s in SIZES if s < low]
        allowed = (f"{', '.join(smaller)} or None" if smaller else
                   "only None (nothing is smaller than a d4)")
        raise InputError("complication", f"{label}: a {name(injury)} injury would already "
                                         f"have taken out the {name(low)} member, so it cannot "
                                         f"stand on this unit; allowed: {allowed}.")


def _dice_json(roll: Roll, label: str = "") -> list[dict[str, Any]]:
    prefix = f"{label} " if label else ""
    return [{"die": f"{prefix}{name(size)}", "face": face} for size, face in roll.dice]


def _describe(roll: Roll) -> str:
    """'total 11 (6 + 5), effect die d8, 1 hitch'."""
    faces = " + ".join(str(roll.dice[i][1]) for i in roll.total_dice) or "no usable die"
    hitches = len(roll.hitches)
    hitch = f", {hitches} hitch{'es' if hitches != 1 else ''}" if hitches else ""
    effect = name(roll.effect_die) + ("" if roll.remaining else " (none left: d4)")
    return f"total {roll.total} ({faces}), effect die {effect}{hitch}"


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
    return {"dice": _dice_json(roll), "total": roll.total, "effect_die": roll.effect_die,
            "hitches": [i + 1 for i in roll.hitches],
            "total_dice": [i + 1 for i in roll.total_dice],
            "summary": ", ".join(f"{name(s)} {f}" + (" (hitch)" if f == 1 else "")
                                 for s, f in roll.dice) + ": " + _describe(roll)}


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
    summary = f"Attacker {_describe(att)}; defender total {dfn.total}. "
    result: Result = {"dice": _dice_json(att, "attacker") + _dice_json(dfn, "defender"),
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


# --- initiative ---------------------------------------------------------------------

def _totals(pool: list[int]) -> dict[int, Fraction]:
    denominator = ways(pool)
    out: dict[int, Fraction] = {}
    for (total, _, _), w in outcome_weights(pool, 0, 0).items():
        out[total] = out.get(total, 0) + Fraction(w, denominator)
    return out


def _initiative_compute(inputs: dict[str, Any]) -> Result:
    a, b = _totals(inputs["players"]), _totals(inputs["gm"])
    p_a = sum((pa * pb for ta, pa in a.items() for tb, pb in b.items() if ta > tb), Fraction(0))
    p_tie = sum((pa * b.get(ta, 0) for ta, pa in a.items()), Fraction(0))
    p_b = 1 - p_a - p_tie
    first = p_a / (1 - p_tie)
    return {"p_players": float(p_a), "p_players_exact": str(p_a),
            "p_tie": float(p_tie), "p_tie_exact": str(p_tie),
            "p_gm": float(p_b), "p_gm_exact": str(p_b),
            "p_players_choose": float(first), "p_players_choose_exact": str(first)}


def _initiative_explain(inputs: dict[str, Any], result: Result) -> str:
    return (f"Each side rolls its nominee's pool (Approach, Analysis, a Tactics specialization "
            f"if any, assets and circumstances) and compares totals "
            f"({rule('initiative', FIREFIGHTS, 'initiative')}); the higher total chooses which "
            f"side acts first. The source does not settle a tie; here both sides roll again "
            f"([ruling](/rulings/#initiative-ties)), so the players choose "
            f"{percent(result['p_players_choose'])} of the time in the end.")


def _initiative_roll(inputs: dict[str, Any], rng: random.Random) -> Result:
    a, b = roll_pool(inputs["players"], rng), roll_pool(inputs["gm"], rng)
    verdict = ("players choose who goes first" if a.total > b.total else
               "GM chooses who goes first" if b.total > a.total else "tie: roll again")
    return {"dice": _dice_json(a, "players") + _dice_json(b, "GM"),
            "summary": f"Players {a.total}, GM {b.total}: {verdict}."}


INITIATIVE = Calculator(
    name="cortex.initiative", title="Initiative roll-off",
    summary="Chance that the players' nominee wins the roll to choose who acts first.",
    fields=(pool_field("players", "Players' nominee's pool", "d8 d6 d6",
                       "Approach + Analysis + Tactics specialization + assets. " + DICE_HELP),
            pool_field("gm", "GM's nominee's pool", "d8 d8 d6",
                       "The same traits for the GM's character or unit. " + DICE_HELP)),
    compute=_initiative_compute, explain=_initiative_explain,
    headline=lambda r: [("Players choose (ties rerolled)", percent(r["p_players_choose"])),
                        ("Players win the first roll", percent(r["p_players"])),
                        ("Tie", percent(r["p_tie"]))],
    roll=_initiative_roll, roll_label="Roll for initiative", page=FIREFIGHTS,
)

CALCULATORS = (POOL, ODDS, INITIATIVE)
