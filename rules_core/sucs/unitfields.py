"""A unit's stats as input fields: one declaration for the cost calculator, the roster
check and the roster import (source: SUCS, "Unit Features" and "Unit Costs").

``stats`` (a JSON object with these field names) is the unit's canonical form: the
presets return it, rosters store it, and :func:`unit_from_stats` turns it into a Unit.
"""

from __future__ import annotations

import math
from fractions import Fraction
from typing import Any

from rules_core.errors import InputError
from rules_core.fields import (
    BoolField,
    ChoiceField,
    Field,
    IntField,
    ObjectField,
    TextField,
)
from rules_core.messages import describe, sentence
from rules_core.sucs import notation
from rules_core.sucs.cost import Unit, Weapon, altitude_text
from rules_core.sucs.tables import ALTITUDES, QUALITY, QUALITY_NAMES, SUPPORT_BONUS

MAX_INCHES = 240
MAX_ALT_WEAPONS = 4
#: most units one attack of a weapon may hit (automatic fire), as the form accepts
MAX_TARGETS = 10


class AltitudeField(ChoiceField):
    """An altitude level: the text "-1", "0", "0.5", "1" ... "5", or the same number."""

    def coerce(self, raw: Any) -> Any:
        if isinstance(raw, (int, float)) and not isinstance(raw, bool) and math.isfinite(raw):
            for value in self.values():
                if Fraction(value) == Fraction(raw):
                    return value
        return super().coerce(raw)


def _parse_alt_weapons(name: str, raw: Any) -> tuple[Weapon, ...]:
    """Alternative weapons in the unit lists' notation: "1,1" or "2 or 1,1"; "" for none."""
    if not isinstance(raw, str):
        raise InputError(name, f"expected text such as 1,1 or 2 or 1,1, received {describe(raw)}.")
    text = " ".join(raw.split())
    if not text:
        return ()
    try:
        weapons = notation.parse_weapons(text)
    except notation.NotationError as err:
        raise InputError(name, f"{err}; received {describe(raw)}.") from None
    if len(weapons) > MAX_ALT_WEAPONS:
        raise InputError(name, f"at most {MAX_ALT_WEAPONS} alternative weapons; "
                               f"received {len(weapons)}.")
    if any(w.attack > 20 for w in weapons):
        raise InputError(name, "an attack value is at most 20.")
    return weapons


QUALITY_FIELD = IntField("quality", "Quality (1 raw to 5 elite)", default=3, minimum=1, maximum=5,
                         help="; ".join(f"{q} {QUALITY_NAMES[q].lower()}: target {tn}"
                                        for q, (tn, _) in QUALITY.items()))

UNIT_FIELDS: tuple[Field, ...] = (
    QUALITY_FIELD,
    IntField("attack", "Attack", default=0, minimum=0, maximum=20,
             help="Damage the main weapon does; 0 for an unarmed unit."),
    IntField("targets", "Units hit per attack", default=1, minimum=1, maximum=MAX_TARGETS,
             help="1 for a single weapon; 2 or more for automatic fire (written 1,1 in the lists)."),
    TextField("alt_weapons", "Alternative weapons", default="", parse=_parse_alt_weapons,
              placeholder="e.g. 1,1",
              help="Other weapons, one used per turn, in the lists' notation: 1,1 or 2 or 1,1."),
    IntField("special_weapons", "Special weapons (smoke and the like)", default=0, minimum=0,
             maximum=5, help="No-damage options used instead of attacking: +1 each."),
    IntField("armor", "Armor", default=0, minimum=0, maximum=20),
    BoolField("armor_limited", "Armor works against some attacks only", default=False),
    IntField("speed", "Speed", default=6, minimum=0, maximum=MAX_INCHES,
             help='Inches per move; the first 6" are free.'),
    BoolField("must_move", "Must move at least half its speed every turn", default=False,
              help='Written (30") in the lists; typical of aircraft.'),
    IntField("range", "Range", default=0, minimum=0, maximum=MAX_INCHES,
             help="Inches; 0 for close combat only."),
    BoolField("min_range", "Minimum range (a third of the range)", default=False,
              help='Written (18") in the lists: mortars, artillery, guided missiles.'),
    AltitudeField("altitude", "Altitude", default="0",
                  choices=tuple((altitude_text(a), f"{altitude_text(a)}: {name.lower()}")
                                for a, (name, _) in ALTITUDES.items())),
    ChoiceField("mobility", "Kind of unit", default="ground",
                choices=(("ground", "Ground (foot, wheels, tracks)"), ("water", "Water craft"),
                         ("hover", "Ground effect (hover)"), ("air", "Flying"),
                         ("subterranean", "Underground (borers, sappers)"))),
    BoolField("amphibious", "Amphibious", default=False),
    BoolField("stealth", "Stealth", default=False),
    IntField("transport", "Units it can carry", default=0, minimum=0, maximum=50),
    BoolField("transport_restricted", "Carrying is restricted", default=False,
              help="Written (3) in the lists, e.g. a riverboat that only carries on water."),
    BoolField("support_reorganize", "Support: reorganize", default=False),
    BoolField("support_armor", f"Support: +{SUPPORT_BONUS} armor", default=False),
    BoolField("support_attack", f"Support: +{SUPPORT_BONUS} attack", default=False),
    BoolField("disembark", "Can disembark from altitude (paratroops)", default=False),
    BoolField("commander", "Commander", default=False,
              help="Needs the reorganize support action and a range of at least 6\"."),
)

SUPPORT_FIELDS = {"support_reorganize": "reorganize", "support_armor": "armor",
                  "support_attack": "attack"}


def unit_from_clean(clean: dict[str, Any]) -> Unit:
    """A Unit from validated field values."""
    return Unit(
        quality=clean["quality"], attack=clean["attack"], targets=clean["targets"],
        alt_weapons=clean["alt_weapons"], special_weapons=clean["special_weapons"],
        armor=clean["armor"], armor_limited=clean["armor_limited"], speed=clean["speed"],
        must_move=clean["must_move"], range=clean["range"], min_range=clean["min_range"],
        altitude=Fraction(clean["altitude"]), mobility=clean["mobility"],
        amphibious=clean["amphibious"], stealth=clean["stealth"], transport=clean["transport"],
        transport_restricted=clean["transport_restricted"],
        support=tuple(v for k, v in SUPPORT_FIELDS.items() if clean[k]),
        disembark=clean["disembark"], commander=clean["commander"],
    )


def stats_of(unit: Unit) -> dict[str, Any]:
    """The canonical JSON stats of a unit (inverse of :func:`unit_from_clean`)."""
    return {
        "quality": unit.quality, "attack": unit.attack, "targets": unit.targets,
        "alt_weapons": " or ".join(w.notation() for w in unit.alt_weapons),
        "special_weapons": unit.special_weapons, "armor": unit.armor,
        "armor_limited": unit.armor_limited, "speed": unit.speed, "must_move": unit.must_move,
        "range": unit.range, "min_range": unit.min_range,
        "altitude": altitude_text(unit.altitude), "mobility": unit.mobility,
        "amphibious": unit.amphibious, "stealth": unit.stealth, "transport": unit.transport,
        "transport_restricted": unit.transport_restricted,
        **{k: v in unit.support for k, v in SUPPORT_FIELDS.items()},
        "disembark": unit.disembark, "commander": unit.commander,
    }


#: a unit's stats as one nested field: a missing stat takes its default (the minimal unit)
STATS = ObjectField("stats", "Stats", fields=UNIT_FIELDS)


def collect_problems(raw: Any, where: str) -> tuple[dict[str, Any] | None, list[dict[str, str]]]:
    """Validate a stats object with :data:`STATS`, collecting every problem (not just the
    first). Returns (clean values or None, problems as {"field", "message"}) where
    ``field`` is the path below ``where`` and ``message`` names the stat in words."""
    errors: list[InputError] = []
    clean = STATS.collect(raw, where, errors)
    problems = [{"field": e.field,
                 "message": sentence(", ".join(STATS.words(e.field[len(where) + 1:].split("."))
                                               if e.field != where else ["the unit's stats"]),
                                     e.message)}
                for e in errors]
    return (None if errors else clean), problems
