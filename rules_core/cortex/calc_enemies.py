"""Calculators of the enemies page: the drone operator's Edge, and the specialists (Part
II): the medic's test, the grenadier's extra dice or targets, the machine gunner's
Suppressed condition and the flamethrower's fire.

Each specialist is a contest worked out by :func:`rules_core.cortex.odds.contest_odds` (the
exact odds every Cortex calculator uses) and rolled with
:func:`rules_core.cortex.contest.roll_pool` (the same rule fed random faces). Readings are
on the Rulings page.
"""

from __future__ import annotations

import random
from fractions import Fraction
from typing import Any

from rules_core.calculator import Calculator, Chart, Result
from rules_core.cortex.contest import contest_roll, effect_dice, reach_roll, roll_pool
from rules_core.cortex.dice import MAX_POOL, DieField, name, names
from rules_core.cortex.inputs import DICE_HELP, RULINGS, pool_field
from rules_core.cortex.odds import at_least, contest_odds
from rules_core.cortex.tables import MAX_DRONES, MEDIC_DIFFICULTY, drone_cost
from rules_core.dice.distribution import percent, to_json
from rules_core.errors import InputError
from rules_core.explain import rule
from rules_core.fields import BoolField, IntField
from rules_core.messages import count

ENEMIES = "cortex/enemies"
ROLLS = "cortex/rolls"


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


# --- medic ------------------------------------------------------------------------------

def _medic_compute(inputs: dict[str, Any]) -> Result:
    pool, fallen = inputs["pool"], inputs["fallen"]
    odds = contest_odds(pool, list(MEDIC_DIFFICULTY))
    p = at_least(pool, list(MEDIC_DIFFICULTY), fallen)
    return {"p_success": float(p), "p_success_exact": str(p), "p_win": float(odds.p_win),
            **to_json("effect_die", odds.effect_die)}


def _medic_roll(inputs: dict[str, Any], rng: random.Random) -> Result:
    fallen = f"the fallen member's {name(inputs['fallen'])}"
    back, dice, text = reach_roll(inputs["pool"], list(MEDIC_DIFFICULTY), rng, "Medic",
                                  "difficulty", inputs["fallen"],
                                  f"at least {fallen}: back in the unit",
                                  f"smaller than {fallen}: still down")
    return {"dice": dice, "revived": back, "summary": text}


MEDIC = Calculator(
    name="cortex.medic", title="Medic: bring a fallen member back",
    summary="Chance the medic beats 3d8 with an effect die at least the fallen member's die.",
    fields=(pool_field("pool", "Medic's pool", "d8 d8 d6",
                       "The dice the medic's unit rolls for the test. " + DICE_HELP),
            DieField("fallen", "Fallen member's quality die", initial=8)),
    compute=_medic_compute,
    explain=lambda i, r: (
        f"The GM spends an Edge; the medic rolls {names(i['pool'])} against "
        f"{names(list(MEDIC_DIFFICULTY))} ({rule('medic', ENEMIES, 'medic')}) and must win with "
        f"an effect die of {name(i['fallen'])} or more ({rule('effect dice', ROLLS, 'total-and-effect-die')}). "
        f"Winning at all: {percent(r['p_win'])}; with a large enough effect die: "
        f"**{percent(r['p_success'])}**. The pool the medic rolls is not given by the source "
        f"([ruling]({RULINGS})). The attempt does not use the unit's turn."),
    headline=lambda r: [("Member back", percent(r["p_success"])), ("Wins the test", percent(r["p_win"]))],
    charts=(Chart("effect_die", "Effect die (0: the test fails)", "Effect die"),),
    roll=_medic_roll, roll_label="Try to revive", page=ENEMIES,
)


# --- grenadier --------------------------------------------------------------------------

def _grenadier_pool(inputs: dict[str, Any]) -> list[int]:
    return sorted(inputs["pool"] + [inputs["grenadier"]] * inputs["edge_dice"], reverse=True)


def _grenadier_check(inputs: dict[str, Any]) -> None:
    if inputs["grenadier"] not in inputs["pool"]:
        raise InputError("grenadier", f"Grenadier's quality die: the grenadier is a member of "
                                      f"the unit, so {name(inputs['grenadier'])} must be one of "
                                      f"its dice ({names(inputs['pool'])}).")
    if len(inputs["pool"]) + inputs["edge_dice"] > MAX_POOL:
        raise InputError("edge_dice", f"Edge on extra dice: the attack pool would have "
                                      f"{len(inputs['pool']) + inputs['edge_dice']} dice; at "
                                      f"most {MAX_POOL} are worked out exactly.")


def _grenadier_compute(inputs: dict[str, Any]) -> Result:
    pool = _grenadier_pool(inputs)
    odds = contest_odds(pool, inputs["defence"])
    targets = 1 + inputs["edge_targets"]
    reach: dict[int, Fraction] = {}
    for hit in range(targets + 1):
        # targets that get an effect die of their own: 1 per die, up to the targets named
        if hit == 0:
            reach[0] = 1 - odds.p_win
        else:
            at_least_hit = sum((p for k, p in odds.extra_effect_dice.items() if k >= hit - 1),
                               Fraction(0)) if hit > 1 else odds.p_win
            at_least_next = (sum((p for k, p in odds.extra_effect_dice.items() if k >= hit),
                                 Fraction(0)) if hit < targets else Fraction(0))
            reach[hit] = at_least_hit - at_least_next
    mean = sum((k * p for k, p in reach.items()), Fraction(0))
    return {"attack_pool": pool, "targets": targets, "p_win": float(odds.p_win),
            "p_win_exact": str(odds.p_win), "expected_targets": float(mean),
            **to_json("targets_hit", reach)}


def _grenadier_roll(inputs: dict[str, Any], rng: random.Random) -> Result:
    pool = _grenadier_pool(inputs)
    att, dfn = roll_pool(pool, rng), roll_pool(inputs["defence"], rng)
    won = effect_dice(att.remaining, att.total - dfn.total)
    targets = 1 + inputs["edge_targets"]
    dealt = [list(won[i::targets]) for i in range(targets)]
    dice = [{"die": f"attack {name(s)}", "face": f} for s, f in att.dice]
    dice += [{"die": f"defence {name(s)}", "face": f} for s, f in dfn.dice]
    text = f"Attack {att.total} against {dfn.total}"
    if not won:
        text += ": no target is hit."
    else:
        text += ": " + "; ".join(f"target {i + 1} gets {names(d) if d else 'nothing'}"
                                 for i, d in enumerate(dealt)) + "."
    return {"dice": dice, "targets_hit": sum(1 for d in dealt if d), "summary": text}


GRENADIER = Calculator(
    name="cortex.grenadier", title="Grenadier: extra dice or extra targets",
    summary="Edge on grenadier dice or on more targets: chance each target gets an effect die.",
    fields=(pool_field("pool", "Unit's attack pool", "d8 d8 d6"),
            DieField("grenadier", "Grenadier's quality die", initial=6),
            IntField("edge_dice", "Edge on extra dice", initial=1, default=0, minimum=0, maximum=4),
            IntField("edge_targets", "Edge on extra targets", initial=1, default=0, minimum=0,
                     maximum=3),
            pool_field("defence", "Targets' defence pool", "d8 d6 d6 d6")),
    compute=_grenadier_compute, check=_grenadier_check,
    explain=lambda i, r: (
        f"Each Edge buys another {name(i['grenadier'])} in the attack, or another target in "
        f"the same zone ({rule('grenadier', ENEMIES, 'grenadier')}): the pool is "
        f"{names(r['attack_pool'])} against {names(i['defence'])}, with {r['targets']} "
        f"target{'s' if r['targets'] > 1 else ''}. Every target needs an effect die of its own, "
        f"and a win gives one plus one per 3 full points of margin "
        f"({rule('extra effect dice', 'cortex/harm', 'extra-effect-dice')}), so extra targets "
        f"pay off only on big wins. One roll is made against one defence pool, the targets "
        f"sharing a zone ([ruling]({RULINGS})). Targets reached on average: "
        f"**{r['expected_targets']:.2f}**."),
    headline=lambda r: [("Attack wins", percent(r["p_win"])),
                        ("Every target hit", percent(r["targets_hit"][str(r["targets"])])),
                        ("Targets hit on average", f"{r['expected_targets']:.2f}")],
    charts=(Chart("targets_hit", "Targets that get an effect die", "Targets"),),
    roll=_grenadier_roll, roll_label="Throw", page=ENEMIES,
)


# --- machine gunner ---------------------------------------------------------------------

def _suppressed_check(inputs: dict[str, Any]) -> None:
    if inputs["gunner"] not in inputs["pool"]:
        raise InputError("gunner", f"Machine gunner's quality die: the gunner is a member of "
                                   f"the unit, so {name(inputs['gunner'])} must be one of its "
                                   f"dice ({names(inputs['pool'])}).")
    if len(inputs["pool"]) < 2:
        raise InputError("pool", "Unit's quality dice: with the gunner's die out, a unit of one "
                                 "would roll nothing; give at least 2 dice.")
    if len(inputs["ally"]) + 1 > MAX_POOL:
        raise InputError("ally", f"Ally's attack pool: with the Suppressed die it would have "
                                 f"{len(inputs['ally']) + 1} dice; at most {MAX_POOL} are "
                                 f"worked out exactly.")


def _without_gunner(inputs: dict[str, Any]) -> list[int]:
    pool = list(inputs["pool"])
    pool.remove(inputs["gunner"])
    return pool


def _suppressed_compute(inputs: dict[str, Any]) -> Result:
    gunner, defence = inputs["gunner"], inputs["defence"]
    ally_after = sorted(inputs["ally"] + [gunner], reverse=True)
    rows = {
        "ally_before": contest_odds(inputs["ally"], defence).p_win,
        "ally_after": contest_odds(ally_after, defence).p_win,
        "unit_before": contest_odds(inputs["pool"], defence).p_win,
        "unit_after": contest_odds(sorted(_without_gunner(inputs) + [gunner], reverse=True),
                                   defence).p_win,
        "unit_elsewhere": contest_odds(_without_gunner(inputs), inputs["other"]).p_win,
        "unit_elsewhere_before": contest_odds(inputs["pool"], inputs["other"]).p_win,
    }
    out: Result = {"targets": inputs["edge"], "unit_pool_while_suppressing": _without_gunner(inputs)}
    for key, p in rows.items():
        out[key], out[f"{key}_exact"] = float(p), str(p)
    return out


def _suppressed_explain(inputs: dict[str, Any], r: Result) -> str:
    g = name(inputs["gunner"])
    return (
        f"For {inputs['edge']} Edge the gunner pins {inputs['edge']} "
        f"target{'s' if inputs['edge'] > 1 else ''} with a Suppressed {g} condition, a "
        f"disadvantage that joins every pool rolled against a suppressed target; while it "
        f"lasts, the gunner's {g} is out of the unit's pool "
        f"({rule('machine gunner', ENEMIES, 'machine-gunner')}; [ruling]({RULINGS})).\n\n"
        f"- An ally attacking a suppressed target ({names(inputs['ally'])} + {g} against "
        f"{names(inputs['defence'])}): {percent(r['ally_before'])} before, "
        f"**{percent(r['ally_after'])}** with the condition.\n"
        f"- The unit itself against that target: its {g} leaves and the condition's {g} "
        f"comes in, so nothing changes ({percent(r['unit_before'])} both ways).\n"
        f"- The unit against anyone else ({names(r['unit_pool_while_suppressing'])} against "
        f"{names(inputs['other'])}): {percent(r['unit_elsewhere_before'])} before, "
        f"**{percent(r['unit_elsewhere'])}** while the condition lasts.")


def _suppressed_roll(inputs: dict[str, Any], rng: random.Random) -> Result:
    pool = sorted(inputs["ally"] + [inputs["gunner"]], reverse=True)
    die, dice, text = contest_roll(pool, inputs["defence"], rng, "Ally", "suppressed target")
    return {"dice": dice, "hit": bool(die), "summary": text + ("." if die else "")}


SUPPRESSED = Calculator(
    name="cortex.suppressed", title="Machine gunner: Suppressed",
    summary="What a Suppressed condition buys allies and costs the gunner's unit.",
    fields=(pool_field("pool", "Unit's quality dice", "d8 d8 d6 d6",
                       "The gunner's unit, the gunner's die included. " + DICE_HELP),
            DieField("gunner", "Machine gunner's quality die", initial=6),
            IntField("edge", "Edge spent (one target each)", initial=1, default=1, minimum=1,
                     maximum=6),
            pool_field("ally", "Ally's attack pool", "d8 d8 d6"),
            pool_field("defence", "Suppressed target's defence pool", "d10 d8 d6"),
            pool_field("other", "Another enemy's defence pool", "d8 d8 d6 d6",
                       "Someone the unit shoots at while the condition lasts. " + DICE_HELP)),
    compute=_suppressed_compute, check=_suppressed_check, explain=_suppressed_explain,
    headline=lambda r: [("Ally hits the suppressed target", percent(r["ally_after"])),
                        ("Without Suppressed", percent(r["ally_before"])),
                        ("Unit hits anyone else", percent(r["unit_elsewhere"]))],
    roll=_suppressed_roll, roll_label="Ally attacks", page=ENEMIES,
)


# --- flamethrower -----------------------------------------------------------------------

def _burn_compute(inputs: dict[str, Any]) -> Result:
    fire, turns = inputs["fire"], inputs["turns"]
    p = at_least(inputs["pool"], inputs["difficulty"], fire) if inputs["tries"] else Fraction(0)
    # each turn: a try (chance p to put it out), else the fire deals its die at the turn's
    # end; the variant burns once, at the end of the attack's own turn, before any try
    early = 1 if inputs["early"] else 0
    tried = turns - early
    burns = {k + early: (1 - p) ** k * p for k in range(tried)}
    burns[tried + early] = (1 - p) ** tried
    mean = sum((k * q for k, q in burns.items()), Fraction(0))
    return {"p_out": float(p), "p_out_exact": str(p), "expected_burns": float(mean),
            "expected_burns_exact": str(mean), **to_json("burns", burns)}


def _burn_roll(inputs: dict[str, Any], rng: random.Random) -> Result:
    dice: list[dict[str, Any]] = []
    lines = []
    burns = 0
    if inputs["early"]:
        lines.append(f"Turn 1: the attack's turn ends; burns for {name(inputs['fire'])}.")
        burns = 1
    for turn in range(1 + burns, inputs["turns"] + 1):
        if inputs["tries"]:
            die, rolled, text = contest_roll(inputs["pool"], inputs["difficulty"], rng,
                                              f"T{turn} target", "fire")
            dice += rolled
            if die >= inputs["fire"]:
                lines.append(f"Turn {turn}: {text}: the fire is out.")
                break
            lines.append(f"Turn {turn}: {text}{'' if not die else ', too small'}; "
                         f"burns for {name(inputs['fire'])}.")
        else:
            lines.append(f"Turn {turn}: no try; burns for {name(inputs['fire'])}.")
        burns += 1
    return {"dice": dice, "burns": burns, "log": lines,
            "summary": f"Took the {name(inputs['fire'])} fire damage {count(burns, 'time')}."}


ON_FIRE = Calculator(
    name="cortex.on_fire", title="Flamethrower: On Fire over the turns",
    summary="How many turns a target burns, taking the fire's die each turn, until put out.",
    fields=(DieField("fire", "On Fire die (the attack's effect die)", initial=8),
            BoolField("tries", "The target tries to put it out each turn", default=True),
            BoolField("early", "It burns once at the end of the attack's turn, before any try",
                      default=False),
            pool_field("pool", "Target's pool to put it out", "d8 d6 d6"),
            pool_field("difficulty", "Difficulty pool", "d8 d6",
                       "What the GM rolls against putting it out. " + DICE_HELP),
            IntField("turns", "Turns followed", initial=5, default=5, minimum=1, maximum=20)),
    compute=_burn_compute,
    explain=lambda i, r: (
        f"A damaging flamethrower attack leaves an On Fire {name(i['fire'])} condition; at the "
        f"end of every turn it still burns the target takes the {name(i['fire'])} as damage "
        f"({rule('flamethrower', ENEMIES, 'flamethrower')}). Putting it out works like "
        f"overcoming any condition: here a roll of {names(i['pool'])} against "
        f"{names(i['difficulty'])} that wins with an effect die of {name(i['fire'])} or more, one "
        f"try per turn before the damage ([ruling]({RULINGS})): "
        f"{percent(r['p_out'])} a turn. Over {i['turns']} turns the target burns "
        f"**{r['expected_burns']:.2f}** times on average."),
    headline=lambda r: [("Put out each turn", percent(r["p_out"])),
                        ("Burns on average", f"{r['expected_burns']:.2f}")],
    charts=(Chart("burns", "Times the fire deals its die", "Burns"),),
    roll=_burn_roll, roll_label="Burn", page=ENEMIES,
)
