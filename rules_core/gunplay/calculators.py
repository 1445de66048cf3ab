"""d10 ranged combat calculators: range band, difficulty, hit odds."""

from __future__ import annotations

import random
from typing import Any

from rules_core.calculator import Calculator, Chart, Result
from rules_core.dice.distribution import percent, to_json
from rules_core.errors import InputError
from rules_core.explain import rule, signed, table
from rules_core.fields import ChoiceField, IntField, NumberField
from rules_core.gunplay.burst import burst_hits, hit_distribution
from rules_core.gunplay.difficulty import band_limits, difficulty_terms, range_band
from rules_core.gunplay.tables import LABELS, Movement, RangeBand, Size, Stance

PAGE = "gunplay/difficulty"
BURST_PAGE = "gunplay/bursts"


def _choices(enum: Any) -> tuple[tuple[str, str], ...]:
    return tuple((member.value, LABELS[member]) for member in enum)


EFFECTIVE_RANGE = NumberField(
    "effective_range_m", "Weapon's effective range", initial=300,
    minimum=0, maximum=100_000, exclusive_minimum=True, unit="m",
    help="The distance at which an average shooter hits a medium target half the time.",
)
DISTANCE = NumberField(
    "distance_m", "Distance to the target", initial=100, minimum=0, maximum=1_000_000,
    unit="m", help="A rough estimate in metres is enough.",
)


def _beyond_message(effective: float, distance: float) -> str:
    return (f"{distance:g} m is beyond the weapon's effective range of {effective:g} m; "
            "the rules give no range band past it. Allowed: 0 to "
            f"{effective:g} m (tip: for a longer shot, pick the maximum band and add a "
            "modifier the GM agrees on).")


# --- range band -------------------------------------------------------------------

def _band_compute(inputs: dict[str, Any]) -> Result:
    effective, distance = inputs["effective_range_m"], inputs["distance_m"]
    band = range_band(effective, distance)
    return {
        "band": band.value if band else "beyond",
        "in_range": band is not None,
        "limits_m": {b.value: list(lim) for b, lim in band_limits(effective).items()},
    }


def _band_explain(inputs: dict[str, Any], result: Result) -> str:
    effective, distance = inputs["effective_range_m"], inputs["distance_m"]
    rows = []
    for band, (start, end) in result["limits_m"].items():
        closing = "]" if band == "maximum" else ")"
        mark = " ◀" if band == result["band"] else ""
        rows.append([LABELS[RangeBand(band)] + mark, f"[{start:g} m, {end:g} m{closing}"])
    text = (f"With an effective range of {effective:g} m the bands are "
            f"({rule('range bands', PAGE, 'range-bands')}):\n\n"
            + table(["Band", "Distance"], rows))
    if result["in_range"]:
        text += f"\n\n{distance:g} m falls in the **{result['band']}** band."
    else:
        text += f"\n\n{distance:g} m is **beyond the effective range**: the rules give no band for it."
    text += ("\n\nA distance exactly on a boundary counts in the farther band "
             "([ruling](/rulings/#range-band-boundaries)).")
    return text


def _band_headline(result: Result) -> list[tuple[str, str]]:
    label = LABELS[RangeBand(result["band"])] if result["in_range"] else "Beyond effective range"
    return [("Range band", label)]


RANGE_BAND = Calculator(
    name="gunplay.range_band",
    title="Range band finder",
    summary="Which range band a distance falls in for a weapon's effective range.",
    fields=(EFFECTIVE_RANGE, DISTANCE),
    compute=_band_compute,
    explain=_band_explain,
    headline=_band_headline,
    page=PAGE,
)


# --- difficulty -------------------------------------------------------------------

DIFFICULTY_FIELDS = (
    ChoiceField("size", "Target size", initial="small", choices=_choices(Size),
                help="A standing human is medium, kneeling small, prone tiny; a car is large."),
    ChoiceField("band", "Range band", optional=True, choices=_choices(RangeBand),
                none_label="Work it out from the distances",
                help="Pick a band, or leave it to be worked out from the distances below."),
    NumberField(
        "effective_range_m", EFFECTIVE_RANGE.label, initial=300, minimum=0, maximum=100_000,
        exclusive_minimum=True, unit="m", help=EFFECTIVE_RANGE.help, shown_if=("band", (None,))),
    NumberField("distance_m", DISTANCE.label, initial=100, minimum=0, maximum=1_000_000,
                unit="m", help=DISTANCE.help, shown_if=("band", (None,))),
    ChoiceField("target_movement", "Target movement", initial="subtle",
                choices=_choices(Movement),
                help="A person standing around moves subtly; walking is slow, sprinting fast."),
    ChoiceField("shooter_movement", "Shooter movement", initial="subtle",
                choices=_choices(Movement)),
    ChoiceField("stance", "Shooter's stance", initial="standing", choices=_choices(Stance)),
    IntField("aim_actions", "Actions spent aiming", default=0, minimum=0, maximum=10,
             help="Each action of careful aim this round lowers the difficulty by 2."),
    IntField("environment", "Environment modifier", default=0, initial=2,
             minimum=-10, maximum=20,
             help="Darkness, wind, smoke: the GM's call (low light at dusk: +2)."),
    IntField("misc", "Other modifiers", default=0, minimum=-20, maximum=20),
)


def _difficulty_check(inputs: dict[str, Any]) -> None:
    if inputs["band"] is None:
        effective, distance = inputs["effective_range_m"], inputs["distance_m"]
        if range_band(effective, distance) is None:
            raise InputError("distance_m", _beyond_message(effective, distance))


def _difficulty_compute(inputs: dict[str, Any]) -> Result:
    if inputs["band"] is None:
        band = range_band(inputs["effective_range_m"], inputs["distance_m"])
        assert band is not None  # _difficulty_check refused distances out of range
    else:
        band = RangeBand(inputs["band"])
    terms = difficulty_terms(
        Size(inputs["size"]), band, Movement(inputs["target_movement"]),
        Movement(inputs["shooter_movement"]), Stance(inputs["stance"]),
        inputs["aim_actions"], inputs["environment"], inputs["misc"],
    )
    return {
        "dc": sum(t.value for t in terms),
        "band": band.value,
        "breakdown": [
            {"label": t.label, "value": t.value, "rule": f"/{PAGE}/#{t.anchor}"} for t in terms
        ],
    }


def _difficulty_explain(inputs: dict[str, Any], result: Result) -> str:
    lines = []
    if inputs["band"] is None:
        lines.append(
            f"{inputs['distance_m']:g} m with an effective range of "
            f"{inputs['effective_range_m']:g} m is **{result['band']}** range "
            f"({rule('range bands', PAGE, 'range-bands')}).\n"
        )
    rows = [[f"[{t['label']}]({t['rule']})", signed(t["value"])]
            for t in result["breakdown"] if t["value"] or "Base" in t["label"]]
    rows.append(["**Difficulty**", f"**{result['dc']}**"])
    lines.append(table(["Term", "Change"], rows))
    lines.append(
        f"\nRoll 1d10 and add the shooter's modifiers; a total of {result['dc']} or more hits "
        f"({rule('how a shot is resolved', PAGE, 'how-a-shot-is-resolved')})."
    )
    return "\n".join(lines)


DIFFICULTY = Calculator(
    name="gunplay.difficulty",
    title="Difficulty of a shot",
    summary="The DC of a ranged attack from size, range, movement, stance, aim and conditions.",
    fields=DIFFICULTY_FIELDS,
    check=_difficulty_check,
    compute=_difficulty_compute,
    explain=_difficulty_explain,
    headline=lambda r: [("Difficulty", str(r["dc"])), ("Range band", LABELS[RangeBand(r["band"])])],
    page=PAGE,
)


# --- hit odds ---------------------------------------------------------------------

HIT_FIELDS = (
    IntField("dc", "Difficulty (DC)", initial=16, minimum=-60, maximum=80),
    IntField("bonus", "Shooter's total modifier", initial=3, minimum=-30, maximum=50,
             help="Everything added to the d10: attribute modifiers and skill ranks."),
    IntField("rounds", "Rounds fired", default=1, initial=3, minimum=1, maximum=100,
             help="1 for a single shot; the burst or full-auto length otherwise (at most 100)."),
    IntField("recoil", "Recoil modifier", default=0, initial=2, minimum=0, maximum=20,
             help="Added to the DC for each bullet after the first."),
    IntField("roll_total", "Roll total (optional)", optional=True, minimum=-30, maximum=60,
             help="The table's d10 + modifier, to see how many bullets it puts on target."),
)


def _hit_compute(inputs: dict[str, Any]) -> Result:
    dc, bonus, rounds, recoil = (inputs[k] for k in ("dc", "bonus", "rounds", "recoil"))
    dist = hit_distribution(dc, bonus, rounds, recoil)
    result: Result = {
        **to_json("distribution", dist),
        "p_hit": float(1 - dist[0]),
        "p_hit_exact": str(1 - dist[0]),
        "expected_hits": float(sum(k * p for k, p in dist.items())),
    }
    if inputs["roll_total"] is not None:
        result["hits"] = burst_hits(inputs["roll_total"], dc, rounds, recoil)
    return result


def _hit_explain(inputs: dict[str, Any], result: Result) -> str:
    dc, bonus, rounds, recoil = (inputs[k] for k in ("dc", "bonus", "rounds", "recoil"))
    needs = [dc + recoil * i for i in range(min(rounds, 6))]
    text = (f"One roll of 1d10 {signed(bonus)} is made for the whole burst "
            f"({rule('bursts and full auto', BURST_PAGE, 'bursts-and-full-auto')}). "
            f"Bullet 1 needs {dc}")
    if rounds > 1:
        text += (f"; each later bullet needs {recoil} more: "
                 + ", ".join(str(n) for n in needs) + (", ..." if rounds > 6 else ""))
    need = dc - bonus
    text += (". No d10 face reaches it: the shot cannot hit." if need > 10 else
             f". A d10 face of {max(1, need)} or more is needed to hit at all.")
    if inputs["roll_total"] is not None:
        text += f"\n\nA total of {inputs['roll_total']} puts **{result['hits']}** bullet(s) on target."
    return text


def _hit_headline(result: Result) -> list[tuple[str, str]]:
    out = [("At least one hit", percent(result["p_hit"])),
           ("Expected hits", f"{result['expected_hits']:.2f}")]
    if "hits" in result:
        out.insert(0, ("Hits for that roll", str(result["hits"])))
    return out


def _hit_roll(inputs: dict[str, Any], rng: random.Random) -> Result:
    face = rng.randint(1, 10)
    total = face + inputs["bonus"]
    hits = burst_hits(total, inputs["dc"], inputs["rounds"], inputs["recoil"])
    return {
        "dice": [{"die": "d10", "face": face}],
        "total": total,
        "hits": hits,
        "summary": f"d10 {face} {signed(inputs['bonus'])} = {total} vs DC {inputs['dc']}: "
                   f"{hits} hit{'s' if hits != 1 else ''}",
    }


HIT_ODDS = Calculator(
    name="gunplay.hit_odds",
    title="Hit odds for a shot or a burst",
    summary="Exact chance of each number of hits from one d10 roll, with recoil for bursts.",
    fields=HIT_FIELDS,
    compute=_hit_compute,
    explain=_hit_explain,
    headline=_hit_headline,
    charts=(Chart("distribution", "Bullets on target", "Hits"),),
    roll=_hit_roll,
    roll_label="Roll the d10",
    page=BURST_PAGE,
)

CALCULATORS = (DIFFICULTY, RANGE_BAND, HIT_ODDS)


# --- rules tables rendered in the docs ------------------------------------------

def _size_range_table() -> dict[str, Any]:
    from rules_core.gunplay.tables import SIZE_RANGE

    return {
        "caption": "Difficulty change by target size (rows) and range band (columns)",
        "header": ["Size"] + [LABELS[b] for b in RangeBand],
        "rows": [[LABELS[s]] + [signed(SIZE_RANGE[s][b]) for b in RangeBand] for s in Size],
    }


def _movement_table() -> dict[str, Any]:
    from rules_core.gunplay.tables import MOVEMENT

    return {"caption": "Movement modifier (target and shooter each)",
            "header": ["Movement", "Difficulty change"],
            "rows": [[LABELS[m], signed(v)] for m, v in MOVEMENT.items()]}


def _stance_table() -> dict[str, Any]:
    from rules_core.gunplay.tables import STANCE, STANCE_SIZE

    return {"caption": "Firing stance",
            "header": ["Stance", "Difficulty change (shooter)", "Counts as a target of size"],
            "rows": [[LABELS[s], signed(v), LABELS[STANCE_SIZE[s]]] for s, v in STANCE.items()]}


TABLES = {
    "gunplay.size_range": _size_range_table,
    "gunplay.movement": _movement_table,
    "gunplay.stance": _stance_table,
}
