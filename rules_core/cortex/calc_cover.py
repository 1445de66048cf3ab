"""Cover helpers (Part II, Zones): creating "In Cover" under the zone's Cover Rating, and
flanking, an attack on the target's cover. Both are contests worked out by
:func:`rules_core.cortex.odds.contest_odds` and rolled with the same rule."""

from __future__ import annotations

import random
from fractions import Fraction
from typing import Any

from rules_core.calculator import Calculator, Chart, Result
from rules_core.cortex.calc_dice import pool_field
from rules_core.cortex.calc_specialists import RULINGS, at_least, reach_roll
from rules_core.cortex.contest import contest_roll
from rules_core.cortex.dice import SIZES, DieField, name, names
from rules_core.cortex.odds import contest_odds
from rules_core.dice.distribution import percent, to_json
from rules_core.explain import rule
from rules_core.fields import ChoiceField

FIREFIGHTS = "cortex/firefights"


# --- creating "In Cover" ----------------------------------------------------------------

def capped(effect: int, rating: int) -> int:
    """The In Cover die an effect die creates: no larger than the Cover Rating."""
    return min(effect, rating)


def _cover_compute(inputs: dict[str, Any]) -> Result:
    rating = inputs["rating"]
    odds = contest_odds(inputs["pool"], inputs["difficulty"])
    asset: dict[int, Fraction] = {0: odds.effect_die.get(0, Fraction(0))}
    for size in SIZES:
        asset.setdefault(capped(size, rating), Fraction(0))
    for size, p in odds.effect_die.items():
        if size:
            asset[capped(size, rating)] += p
    capped_away = sum((p for s, p in odds.effect_die.items() if s > rating), Fraction(0))
    return {"p_win": float(odds.p_win), "p_win_exact": str(odds.p_win),
            "p_capped": float(capped_away), "p_capped_exact": str(capped_away),
            "p_full": float(asset[rating]), "p_full_exact": str(asset[rating]),
            **to_json("in_cover", dict(sorted(asset.items())))}


def _cover_roll(inputs: dict[str, Any], rng: random.Random) -> Result:
    die, dice, text = contest_roll(inputs["pool"], inputs["difficulty"], rng, "Taking cover",
                                   "difficulty")
    if die:
        got = capped(die, inputs["rating"])
        text += (f": In Cover {name(got)}"
                 + (f" (capped at the zone's {name(inputs['rating'])})." if got < die else "."))
    return {"dice": dice, "in_cover": capped(die, inputs["rating"]) if die else 0,
            "summary": text}


IN_COVER = Calculator(
    name="cortex.in_cover", title="Taking cover: the In Cover advantage",
    summary="The In Cover die an action creates, capped at the zone's Cover Rating.",
    fields=(pool_field("pool", "Pool to take cover", "d8 d8 d6"),
            pool_field("difficulty", "Difficulty pool", "d6 d6",
                       "What the GM rolls against the action."),
            DieField("rating", "Zone's Cover Rating", initial=6)),
    compute=_cover_compute,
    explain=lambda i, r: (
        f"Taking cover creates an advantage, usually called In Cover: roll {names(i['pool'])} "
        f"against {names(i['difficulty'])}; a win makes the effect die an In Cover die, but "
        f"never larger than the zone's Cover Rating of {name(i['rating'])} "
        f"({rule('cover and concealment', FIREFIGHTS, 'cover-and-concealment')}; "
        f"[ruling]({RULINGS})). The action wins {percent(r['p_win'])} of the time; "
        f"{percent(r['p_capped'])} of the time the effect die is bigger than the rating and is "
        f"cut down to it. Chart: 0 means the action fails."),
    headline=lambda r: [("Creates In Cover", percent(r["p_win"])),
                        ("At the full Cover Rating", percent(r["p_full"])),
                        ("Cut down by the rating", percent(r["p_capped"]))],
    charts=(Chart("in_cover", "In Cover die created (0: fails)", "In Cover die"),),
    roll=_cover_roll, roll_label="Take cover", page=FIREFIGHTS,
)


# --- flanking ---------------------------------------------------------------------------

def needed(inputs: dict[str, Any]) -> int:
    """The smallest effect die that strips the cover: the cover die itself, or (variant)
    the next size up; 14 (no die) when nothing beats a d12."""
    cover = inputs["cover"]
    if inputs["needs"] == "at_least":
        return cover
    return SIZES[SIZES.index(cover) + 1] if cover < 12 else 14


def _flank_compute(inputs: dict[str, Any]) -> Result:
    odds = contest_odds(inputs["pool"], inputs["defence"])
    p = at_least(inputs["pool"], inputs["defence"], needed(inputs))
    return {"p_win": float(odds.p_win), "p_win_exact": str(odds.p_win),
            "p_flanked": float(p), "p_flanked_exact": str(p),
            **to_json("effect_die", odds.effect_die)}


def _flank_roll(inputs: dict[str, Any], rng: random.Random) -> Result:
    cover = f"against the {name(inputs['cover'])} cover"
    done, dice, text = reach_roll(inputs["pool"], inputs["defence"], rng, "Flanker", "target",
                                  needed(inputs), f"enough {cover}: flanked, the cover is gone",
                                  f"not enough {cover}: the cover holds")
    return {"dice": dice, "flanked": done, "summary": text}


FLANKING = Calculator(
    name="cortex.flanking", title="Flanking: an attack on the target's cover",
    summary="Chance that a flanking action strips the target's cover die.",
    fields=(pool_field("pool", "Flanker's pool", "d8 d8 d6"),
            pool_field("defence", "Target's pool resisting", "d8 d6 d6"),
            DieField("cover", "Target's cover die", initial=6,
                     help="The cover it adds: the lesser of its skill (a unit: its lowest "
                          "quality die) and the zone's Cover Rating."),
            ChoiceField("needs", "Effect die needed", default="at_least",
                        choices=(("at_least", "At least the cover die (site's reading)"),
                                 ("larger", "Larger than the cover die")))),
    compute=_flank_compute,
    explain=lambda i, r: (
        f"Flanking is an action that attacks the target's cover "
        f"({rule('flanking', FIREFIGHTS, 'flanking')}): {names(i['pool'])} against "
        f"{names(i['defence'])}. The flank succeeds when the attack wins with an effect die "
        f"{'at least' if i['needs'] == 'at_least' else 'larger than'} the {name(i['cover'])} "
        f"cover "
        f"([ruling]({RULINGS})), and the cover stays gone until the flanker or the target "
        f"moves. Wins {percent(r['p_win'])}; strips the cover **{percent(r['p_flanked'])}**."),
    headline=lambda r: [("Cover stripped", percent(r["p_flanked"])),
                        ("Wins the contest", percent(r["p_win"]))],
    charts=(Chart("effect_die", "Effect die (0: the flank fails)", "Effect die"),),
    roll=_flank_roll, roll_label="Flank", page=FIREFIGHTS,
)

CALCULATORS = (IN_COVER, FLANKING)
