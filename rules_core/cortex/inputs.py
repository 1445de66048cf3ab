"""Input fields the Cortex calculators share: dice pools, a target unit's quality dice and
the injury it already carries, the harm rules and their variants; and the link to the
rulings the specialist and cover calculators follow."""

from __future__ import annotations

from typing import Any

from rules_core.cortex.dice import SIZES, DieField, name, pool_parser
from rules_core.cortex.tables import MAX_FIRETEAM
from rules_core.errors import InputError
from rules_core.fields import ChoiceField, TextField

RULINGS = "/rulings/#specialists-and-cover-how-the-helpers-read-the-rules"
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
