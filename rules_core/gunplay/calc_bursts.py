"""Calculators of the bursts page (source: d10 ranged combat, "Bursts and Full Auto"): the
hit odds of one shot or one burst. The engagement on the same page, sustained fire over
combat rounds, is in :mod:`rules_core.gunplay.calc_bursts_fight`."""

from __future__ import annotations

import random
from fractions import Fraction
from typing import Any

from rules_core.calculator import Calculator, Chart, Result
from rules_core.dice.distribution import at_least, percent, to_json
from rules_core.errors import InputError
from rules_core.explain import rule, table
from rules_core.fields import IntField
from rules_core.gunplay.burst import (
    bullet_needs,
    burst_hits,
    hit_distribution,
    total_distribution,
)
from rules_core.gunplay.inputs import BONUS, BURST_PAGE, d10_roll, needed_face, plus
from rules_core.messages import count

# --- hit odds for a shot or a burst -----------------------------------------------

SHOWN_BULLETS = 10  # rows of the per-bullet table in the explanation

DC = IntField("dc", "Difficulty (DC)", initial=11, minimum=-60, maximum=80)

HIT_FIELDS = (
    DC,
    BONUS,
    IntField("rounds", "Rounds fired", default=1, initial=3, minimum=1, maximum=100,
             help="1 for a single shot; the burst or full-auto length otherwise (at most 100)."),
    IntField("recoil", "Recoil modifier", default=0, initial=2, minimum=0, maximum=20,
             help="Added to the DC for each bullet after the first."),
    IntField("roll_total", "Roll total (optional)", optional=True, minimum=-30, maximum=60,
             help="The table's d10 + modifier, to see how many bullets it puts on target."),
)


def _hit_check(inputs: dict[str, Any]) -> None:
    """A roll total must be one the d10 and the modifier can make (issue 18)."""
    total, bonus = inputs["roll_total"], inputs["bonus"]
    if total is not None and not bonus + 1 <= total <= bonus + 10:
        raise InputError("roll_total", f"Roll total: 1d10 {bonus:+d} can only make a total from "
                                       f"{bonus + 1} to {bonus + 10} (the "
                                       f"{BONUS.label.lower()} is {bonus:+d}), received "
                                       f"{total}. Check the total or the modifier.")


def _hit_compute(inputs: dict[str, Any]) -> Result:
    dc, bonus, rounds, recoil = (inputs[k] for k in ("dc", "bonus", "rounds", "recoil"))
    dist = hit_distribution(dc, bonus, rounds, recoil)
    totals = total_distribution(bonus)
    bullets = []
    for i, need in enumerate(bullet_needs(dc, rounds, recoil), start=1):
        p = at_least(totals, need)
        bullets.append({"bullet": i, "needs": need, "p": float(p), "p_exact": str(p)})
    result: Result = {
        **to_json("distribution", dist),
        "p_hit": float(1 - dist[0]),
        "p_hit_exact": str(1 - dist[0]),
        "expected_hits": float(sum(k * p for k, p in dist.items())),
        "expected_hits_exact": str(sum((k * p for k, p in dist.items()), Fraction(0))),
        "bullets": bullets,
    }
    if inputs["roll_total"] is not None:
        result["hits"] = burst_hits(inputs["roll_total"], dc, rounds, recoil)
    return result


def _hit_explain(inputs: dict[str, Any], result: Result) -> str:
    dc, bonus, rounds, recoil = (inputs[k] for k in ("dc", "bonus", "rounds", "recoil"))
    text = (f"One roll of 1d10 {plus(bonus)} settles the whole burst "
            f"({rule('bursts and full auto', BURST_PAGE, 'bursts-and-full-auto')}). ")
    if rounds == 1:
        text += f"The single bullet needs a total of {dc}."
    else:
        text += (f"Bullet 1 needs {dc}; each later one needs {recoil} more "
                 f"(the recoil modifier). A bullet lands when the total reaches its number.")
    rows = [[str(b["bullet"]), str(b["needs"]), needed_face(b["needs"], bonus),
             percent(b["p"]), b["p_exact"]] for b in result["bullets"][:SHOWN_BULLETS]]
    text += "\n\n" + table(["Bullet", "Needs", "d10 face", "Chance", "Exact"], rows)
    if rounds > SHOWN_BULLETS:
        text += (f"\n\nThe other {rounds - SHOWN_BULLETS} bullets each need {recoil} more "
                 "than the one before.")
    if inputs["roll_total"] is not None:
        hits = result["hits"]
        text += (f"\n\nA total of {inputs['roll_total']} puts **{hits}** "
                 f"bullet{'s' if hits != 1 else ''} on target.")
    return text


def _hit_headline(result: Result) -> list[tuple[str, str]]:
    out = [("At least one hit", percent(result["p_hit"])),
           ("Expected hits", f"{result['expected_hits']:.2f}")]
    if "hits" in result:
        out.insert(0, ("Hits for that roll", str(result["hits"])))
    return out


def _hit_roll(inputs: dict[str, Any], rng: random.Random) -> Result:
    out, summary = d10_roll(inputs["bonus"], rng)
    hits = burst_hits(out["total"], inputs["dc"], inputs["rounds"], inputs["recoil"])
    return {**out, "hits": hits,
            "summary": f"{summary} vs DC {inputs['dc']}: {count(hits, 'hit')}"}


HIT_ODDS = Calculator(
    name="gunplay.hit_odds",
    title="Hit odds for a shot or a burst",
    summary="Exact chance of each number of hits from one d10 roll, with recoil for bursts.",
    fields=HIT_FIELDS,
    check=_hit_check,
    compute=_hit_compute,
    explain=_hit_explain,
    headline=_hit_headline,
    charts=(Chart("distribution", "Bullets on target", "Hits"),),
    roll=_hit_roll,
    roll_label="Roll the d10",
    page=BURST_PAGE,
)
