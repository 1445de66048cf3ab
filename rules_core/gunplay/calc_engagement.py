"""The engagement calculator: sustained fire over combat rounds until the target has
taken enough hits or the weapon is empty (source: d10 ranged combat, "Bursts and Full
Auto"; the chain itself is in :mod:`rules_core.gunplay.fight`)."""

from __future__ import annotations

import random
from typing import Any

from rules_core import fight_result, solver
from rules_core.calculator import Calculator, Result
from rules_core.errors import InputError
from rules_core.explain import rule
from rules_core.fields import BoolField, IntField
from rules_core.gunplay.burst import bullet_needs
from rules_core.gunplay.calc_hits import BONUS, BURST_PAGE, PAGE
from rules_core.gunplay.fight import OUT_OF_AMMO, TARGET_DOWN, Fire
from rules_core.gunplay.inputs import plus
from rules_core.messages import count

ANCHOR = "sustained-fire"
SIDES = (("a", "Rounds fired"), ("b", "Hits on the target"))
AMMO_LABEL = "Rounds loaded"
HITS_LABEL = "Hits to stop the target"

FIELDS = (
    IntField("dc", "Difficulty (DC)", default=12, minimum=-60, maximum=80),
    IntField("bonus", BONUS.label, default=5, minimum=-30, maximum=50, help=BONUS.help),
    IntField("burst", "Rounds per burst", default=3, minimum=1, maximum=100,
             help="1 for single shots; the burst or full-auto length otherwise."),
    IntField("recoil", "Recoil modifier", default=2, minimum=0, maximum=20,
             help="Added to the DC for each bullet after the first in a burst."),
    IntField("ammo", AMMO_LABEL, default=30, minimum=1, maximum=200,
             help="The magazine or belt: 30 for a rifle magazine, 100 for a belt."),
    IntField("hits_needed", HITS_LABEL, default=3, minimum=1, maximum=100,
             help="How many hits take the target out of the fight (the GM's call)."),
    IntField("bursts_per_round", "Bursts per combat round", default=1, minimum=1, maximum=5,
             help="Attacks the shooter makes each combat round."),
    BoolField("short_burst", "Fire a short last burst", default=True,
              help="When fewer rounds are left than a full burst, fire them anyway. "
                   "Off: the leftover rounds stay in the weapon."),
    fight_result.round_cap_field(),
)


def _fire(inputs: dict[str, Any]) -> Fire:
    return Fire(inputs["dc"], inputs["bonus"], inputs["burst"], inputs["recoil"],
                inputs["ammo"], inputs["hits_needed"], inputs["bursts_per_round"],
                inputs["short_burst"])


def _check(inputs: dict[str, Any]) -> None:
    if not inputs["short_burst"] and inputs["burst"] > inputs["ammo"]:
        raise InputError("burst", f"Rounds per burst ({inputs['burst']}) is more than the "
                                  f"{inputs['ammo']} {AMMO_LABEL.lower()}, and only full bursts "
                                  "are fired, so the shooter could not fire at all: give a "
                                  f"burst of 1 to {inputs['ammo']} rounds or allow a short "
                                  "last burst.")


def _compute(inputs: dict[str, Any]) -> Result:
    fire = _fire(inputs)
    try:
        answer = solver.solve(fire, max_rounds=inputs["max_rounds"])
    except solver.TooLarge as err:  # pragma: no cover - the chain is at most 101 states wide
        raise InputError("hits_needed", f"{err}; lower {HITS_LABEL} or "
                                        f"{AMMO_LABEL}.") from err
    result = fight_result.to_result(answer, SIDES)
    bursts = -(-fire.ammo // fire.burst) if fire.short_burst else fire.ammo // fire.burst
    result["bursts_in_weapon"] = bursts
    result["rounds_to_empty"] = -(-bursts // fire.bursts_per_round)
    return result


def _explain(inputs: dict[str, Any], result: Result) -> str:
    fire = _fire(inputs)
    needs = bullet_needs(fire.dc, min(fire.burst, 4), fire.recoil)
    needs_text = ", ".join(str(n) for n in needs) + (", ..." if fire.burst > 4 else "")
    per = ("one attack" if fire.bursts_per_round == 1
           else f"{fire.bursts_per_round} attacks")
    kind = "single shot" if fire.burst == 1 else f"burst of {fire.burst}"
    text = (
        f"The fight is a chain of states: *rounds left in the weapon* and *hits the target "
        f"has taken*. It starts at {fire.ammo} rounds and 0 hits. Each combat round the "
        f"shooter makes {per}, each a {kind} settled by one roll of 1d10 {plus(fire.bonus)} "
        f"({rule('bursts and full auto', BURST_PAGE, 'bursts-and-full-auto')}): the bullets "
        f"need {needs_text}, and the roll lands every bullet whose number it reaches "
        f"({rule('how a shot is resolved', PAGE, 'how-a-shot-is-resolved')}). Every burst "
        f"is a new roll, so recoil starts again from the DC "
        f"([ruling](/rulings/#sustained-fire-over-several-rounds)).\n\n"
        f"From each state, every face of the d10 moves the chain to a new state with its "
        f"exact chance. The fight stops at **{TARGET_DOWN.lower()}** once the target has "
        f"taken {count(fire.hits_needed, 'hit')}, or at "
        f"**{OUT_OF_AMMO.lower()}** when the weapon cannot fire another burst. "
    )
    if fire.ammo % fire.burst:
        text += (f"The last {count(fire.ammo % fire.burst, 'round')} "
                 + ("go out as a short burst. " if fire.short_burst
                    else "are never fired, since only full bursts are. "))
    text += (f"The weapon holds {count(result['bursts_in_weapon'], 'burst')}, so it is empty "
             f"after {count(result['rounds_to_empty'], 'combat round')} at the latest.")
    if result["rounds_to_empty"] > inputs["max_rounds"]:
        text += (f" That is past the round cap of {inputs['max_rounds']}, so fire still going "
                 f"then counts as *{solver.STILL_FIGHTING}*.")
    text += ("\n\n" + fight_result.by_round_table(result)
             + f"\n\nOn average the shooter fires {result['expected_losses_a']:.1f} rounds and "
               f"the target takes {result['expected_losses_b']:.2f} hits (counting no more "
               f"than the {fire.hits_needed} that stop it).")
    return text


def _headline(result: Result) -> list[tuple[str, str]]:
    rows = fight_result.headline(result)
    rows.append(("Rounds fired on average", f"{result['expected_losses_a']:.1f}"))
    return rows


def _roll(inputs: dict[str, Any], rng: random.Random) -> Result:
    fire = _fire(inputs)
    played = solver.play(fire, max_rounds=inputs["max_rounds"], rng=rng)
    lost = fire.losses(played.state)
    spent, hits = lost["a"], lost["b"]
    return {
        "outcome": played.outcome,
        "rounds": played.rounds,
        "rounds_fired": spent,
        "hits": hits,
        "dice": played.dice,  # one {"die": "d10", "face": f} per burst
        "log": played.log,
        "summary": f"{played.outcome} after {count(played.rounds, 'combat round')}: "
                   f"{count(hits, 'hit')} for {spent} rounds fired.",
    }


ENGAGEMENT = Calculator(
    name="gunplay.engagement",
    title="Sustained fire",
    summary="Exact odds of stopping a target before the weapon runs dry, round by round, "
            "with recoil and bursts.",
    fields=FIELDS,
    check=_check,
    compute=_compute,
    explain=_explain,
    headline=_headline,
    charts=fight_result.charts(SIDES, loss_label="Count"),
    roll=_roll,
    roll_label="Fire until it ends",
    page=BURST_PAGE,
)
