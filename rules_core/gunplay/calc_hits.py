"""Hit odds: one shot or a burst (source: d10 ranged combat, "Bursts and Full Auto"),
and the chance to hit for a given modifier on 1d10 (source: "Ranged Combat")."""

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
from rules_core.gunplay.inputs import plus
from rules_core.messages import count

PAGE = "gunplay/difficulty"
BURST_PAGE = "gunplay/bursts"
SHOWN_BULLETS = 10  # rows of the per-bullet table in the explanation

DC = IntField("dc", "Difficulty (DC)", initial=11, minimum=-60, maximum=80)
BONUS = IntField("bonus", "Shooter's total modifier", initial=5, minimum=-30, maximum=50,
                 help="Everything added to the d10: attribute modifiers and skill ranks.")

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


def needed_face(total: int, bonus: int) -> str:
    """The d10 face a total needs with ``bonus``: "7+", "any" or "none"."""
    face = total - bonus
    if face > 10:
        return "none"
    return "any" if face <= 1 else f"{face}+"


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


def d10_roll(bonus: int, rng: random.Random) -> tuple[Result, str]:
    """Roll the attack's d10 and add the modifier (source: "How a shot is resolved"): the
    roll's ``dice`` and ``total``, and the start of its summary, "d10 7 + 3 = 10"."""
    face = rng.randint(1, 10)
    total = face + bonus
    return {"dice": [{"die": "d10", "face": face}], "total": total}, \
        f"d10 {face} {plus(bonus)} = {total}"


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


# --- chance to hit for a given modifier -------------------------------------------

CHANCE_FIELDS = (
    IntField("bonus", BONUS.label, initial=5, minimum=-30, maximum=50, help=BONUS.help),
    IntField("dc", "Difficulty to check (optional)", optional=True, initial=14,
             minimum=-60, maximum=80,
             help="Leave empty to see only the table of every difficulty."),
)


def _chance_compute(inputs: dict[str, Any]) -> Result:
    bonus, dc = inputs["bonus"], inputs["dc"]
    totals = total_distribution(bonus)
    by_dc = []
    for target in range(bonus + 1, bonus + 11):
        p = 1 - hit_distribution(target, bonus)[0]
        by_dc.append({"dc": target, "p": float(p), "p_exact": str(p)})
    result: Result = {
        **to_json("total", totals),
        "by_dc": by_dc,
        "sure_hit_up_to": bonus + 1,
        "impossible_from": bonus + 11,
    }
    if dc is not None:
        p = 1 - hit_distribution(dc, bonus)[0]
        result["p_hit"], result["p_hit_exact"] = float(p), str(p)
    return result


def _chance_explain(inputs: dict[str, Any], result: Result) -> str:
    bonus, dc = inputs["bonus"], inputs["dc"]
    text = (f"The total is 1d10 {plus(bonus)}, anything from {bonus + 1} to {bonus + 10}, "
            f"each equally likely. A shot hits when the total reaches the difficulty "
            f"({rule('how a shot is resolved', PAGE, 'how-a-shot-is-resolved')}), so a DC of "
            f"{result['sure_hit_up_to']} or less always hits and a DC of "
            f"{result['impossible_from']} or more never does.")
    if dc is not None:
        face = needed_face(dc, bonus)
        need = {"none": "no face of the d10 is enough", "any": "any face of the d10 will do"}
        text += (f"\n\nAgainst DC {dc} {need.get(face, f'the d10 must show {face}')}: "
                 f"**{percent(result['p_hit'])}** ({result['p_hit_exact']}).")
    rows = [[f"**{r['dc']}**" if r["dc"] == dc else str(r["dc"]), percent(r["p"]), r["p_exact"]]
            for r in result["by_dc"]]
    text += "\n\n" + table(["DC", "Chance to hit", "Exact"], rows)
    text += ("\n\nIn the chart, the *At least* view reads the same way: the bar over a total "
             "is the chance to hit a DC of that number.")
    return text


def _chance_headline(result: Result) -> list[tuple[str, str]]:
    out = [("Always hits DC", f"{result['sure_hit_up_to']} or less"),
           ("Cannot hit DC", f"{result['impossible_from']} or more")]
    if "p_hit" in result:
        out.insert(0, ("Chance to hit", percent(result["p_hit"])))
    return out


def _chance_roll(inputs: dict[str, Any], rng: random.Random) -> Result:
    out, summary = d10_roll(inputs["bonus"], rng)
    if inputs["dc"] is not None:
        out["hit"] = burst_hits(out["total"], inputs["dc"]) == 1
        summary += f" vs DC {inputs['dc']}: {'hit' if out['hit'] else 'miss'}"
    out["summary"] = summary
    return out


HIT_CHANCE = Calculator(
    name="gunplay.hit_chance",
    title="Chance to hit for a modifier",
    summary="The chance that 1d10 plus a modifier reaches each difficulty.",
    fields=CHANCE_FIELDS,
    compute=_chance_compute,
    explain=_chance_explain,
    headline=_chance_headline,
    charts=(Chart("total", "Roll total (1d10 + modifier)", "Total"),),
    roll=_chance_roll,
    roll_label="Roll the d10",
    page=PAGE,
)
