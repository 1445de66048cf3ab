"""Input fields the d10 calculators share, how their values become rule terms, and the
helpers several calculators use (the d10 face a total needs, the attack's d10 rolled).

The target's size can be given directly or derived from a person's stance (source:
"Size" and "Stance"); the range band can be given directly or worked out from the
weapon's effective range (typed, or taken from a labelled example weapon) and the
distance (source: "Range").
"""

from __future__ import annotations

import random
from dataclasses import replace
from enum import Enum
from typing import Any

from rules_core.calculator import Result
from rules_core.errors import InputError
from rules_core.fields import ChoiceField, Field, IntField, NumberField
from rules_core.gunplay.difficulty import range_band
from rules_core.gunplay.presets import BY_KEY, CUSTOM, EXAMPLES
from rules_core.gunplay.tables import LABELS, STANCE_SIZE, RangeBand, Size, Stance

PAGE = "gunplay/difficulty"
RANGE_PAGE = "gunplay/size-and-range"
HANDLING_PAGE = "gunplay/weapon-handling"
BURST_PAGE = "gunplay/bursts"


def choices(enum: type[Enum]) -> tuple[tuple[str, str], ...]:
    """(value, label) pairs of an enumeration, in declaration order."""
    return tuple((member.value, LABELS[member]) for member in enum)


_PERSON = {
    Stance.STANDING: "standing",
    Stance.KNEELING: "kneeling or sitting",
    Stance.PRONE_FIRING: "prone, firing",
    Stance.PRONE: "prone (knocked down)",
}

TARGET_STANCE = ChoiceField(
    "target_stance", "Target is a person who is", optional=True,
    choices=tuple((s.value, f"{_PERSON[s]}: {LABELS[STANCE_SIZE[s]].lower()}") for s in Stance),
    none_label="not a person (choose the size)",
    help="For a human target the stance sets the size: standing medium, kneeling or "
         "sitting small, lying down tiny.",
)
SIZE = ChoiceField(
    "size", "Target size", initial="small", choices=choices(Size),
    shown_if=("target_stance", (None,)),
    help="A standing human is medium, kneeling small, prone tiny; a car is large.",
)
BAND = ChoiceField(
    "band", "Range band", optional=True, choices=choices(RangeBand),
    none_label="Work it out from the distances",
    help="Pick a band, or leave it to be worked out from the weapon and the distance.",
)
WEAPON = ChoiceField(
    "weapon", "Weapon", default=CUSTOM,
    choices=((CUSTOM, "Type its effective range"),) + tuple((w.key, w.label) for w in EXAMPLES),
    help="The example weapons are round figures for trying the bands out, not rules data; "
         "use your game's own weapon statistics where it has them.",
)
EFFECTIVE_RANGE = NumberField(
    "effective_range_m", "Weapon's effective range", initial=300,
    minimum=0, maximum=100_000, exclusive_minimum=True, unit="m",
    shown_if=("weapon", (CUSTOM,)),
    help="The distance at which an average shooter hits a medium target half the time.",
)
DISTANCE = NumberField(
    "distance_m", "Distance to the target", initial=100, minimum=0, maximum=1_000_000,
    unit="m", help="A rough estimate in metres is enough.",
)
BONUS = IntField("bonus", "Shooter's total modifier", initial=5, minimum=-30, maximum=50,
                 help="Everything added to the d10: attribute modifiers and skill ranks.")


def plus(value: int) -> str:
    """A modifier after a die: "+ 3", "- 2", "+ 0"."""
    return f"- {-value}" if value < 0 else f"+ {value}"


def needed_face(total: int, bonus: int) -> str:
    """The d10 face a total needs with ``bonus``: "7+", "any" or "none"."""
    face = total - bonus
    if face > 10:
        return "none"
    return "any" if face <= 1 else f"{face}+"


def d10_roll(bonus: int, rng: random.Random) -> tuple[Result, str]:
    """Roll the attack's d10 and add the modifier (source: "How a shot is resolved"): the
    roll's ``dice`` and ``total``, and the start of its summary, "d10 7 + 3 = 10"."""
    face = rng.randint(1, 10)
    total = face + bonus
    return {"dice": [{"die": "d10", "face": face}], "total": total}, \
        f"d10 {face} {plus(bonus)} = {total}"


def size_fields() -> tuple[Field, ...]:
    """Target stance (optional), then the size it replaces."""
    return (TARGET_STANCE, SIZE)


def range_fields(with_band: bool) -> tuple[Field, ...]:
    """Weapon, effective range and distance; with ``with_band``, a band choice first
    that, when set, makes the others unnecessary."""
    if not with_band:
        return (WEAPON, EFFECTIVE_RANGE, DISTANCE)
    when_no_band = ("band", (None,))
    return (BAND, replace(WEAPON, shown_if=when_no_band), EFFECTIVE_RANGE,
            replace(DISTANCE, shown_if=when_no_band))


def effective_range(inputs: dict[str, Any]) -> float:
    """The typed effective range, or the example weapon's."""
    weapon = inputs.get("weapon") or CUSTOM
    if weapon == CUSTOM:
        return inputs["effective_range_m"]
    return BY_KEY[weapon].effective_range_m


def beyond_message(effective: float, distance: float) -> str:
    """Why a distance past the effective range is refused, and what to do instead."""
    return (f"{distance:g} m is beyond the weapon's effective range of {effective:g} m; "
            "the rules give no range band past it. Allowed: 0 to "
            f"{effective:g} m (tip: for a longer shot, pick the maximum band and add a "
            "modifier the GM agrees on).")


def resolve_band(inputs: dict[str, Any]) -> RangeBand:
    """The chosen band, or the band of the distance; refuses a distance out of range."""
    if inputs.get("band") is not None:
        return RangeBand(inputs["band"])
    effective, distance = effective_range(inputs), inputs["distance_m"]
    band = range_band(effective, distance)
    if band is None:
        raise InputError("distance_m", beyond_message(effective, distance))
    return band


def resolve_size(inputs: dict[str, Any]) -> Size:
    """The size given, or the size a person's stance makes them (source: Size, Stance)."""
    if inputs.get("target_stance") is not None:
        return STANCE_SIZE[Stance(inputs["target_stance"])]
    return Size(inputs["size"])


def person(stance: str) -> str:
    """"kneeling or sitting" for a target stance value."""
    return _PERSON[Stance(stance)]


def size_words(inputs: dict[str, Any], size: Size) -> str:
    """"Small target" or "Kneeling person (small)" for labels."""
    stance = inputs.get("target_stance")
    if stance is None:
        return f"{LABELS[size]} target"
    return f"Person {_PERSON[Stance(stance)]} ({LABELS[size].lower()})"


def band_sentence(inputs: dict[str, Any], band: RangeBand) -> str:
    """How the band was found, for explanations ("" when it was chosen directly)."""
    if inputs.get("band") is not None:
        return ""
    from rules_core.explain import rule

    weapon = inputs.get("weapon") or CUSTOM
    source = ("" if weapon == CUSTOM else f" ({BY_KEY[weapon].label.lower()})")
    return (f"{inputs['distance_m']:g} m with an effective range of "
            f"{effective_range(inputs):g} m{source} is **{band.value}** range "
            f"({rule('range bands', RANGE_PAGE, 'range-bands')}).\n")
