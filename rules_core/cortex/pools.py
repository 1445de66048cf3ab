"""Building dice pools: fireteams (Part I) and attack/defence pools in firefights (Part II).

Sources: Part I, "Traits for Fireteams" (Tactics die plus one operator die per member;
the CQB specialization rule) and "Other Fireteam Factors" (injury dice go to the
opposing pool; the side note's variants); Part II, "Zones" (range dice, cover) and
"Attack and Defense".
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum
from typing import Any

from rules_core.cortex.dice import from_steps, name, parse_die, step_up, steps
from rules_core.cortex.tables import PC_TEAM_MAX, PC_TEAM_MIN, RANGE_DIE, Range
from rules_core.errors import InputError
from rules_core.messages import describe, list_items


@dataclass(frozen=True)
class Member:
    """A player character in a fireteam: Direct Action die and CQB specialization."""

    direct_action: int
    cqb: int | None = None


@dataclass(frozen=True)
class Term:
    """One die in a pool and why it is there (``anchor``: the heading stating the rule)."""

    die: int
    source: str
    anchor: str


def operator_die(member: Member) -> tuple[int, str, str]:
    """The die a member adds to the fireteam pool, a rule key and a sentence.

    CQB higher than Direct Action: use the CQB die. CQB lower: Direct Action steps up one
    (never past d12). Ruling: CQB **equal** to Direct Action also steps it up one, since
    swapping in an equal die would make the specialization worthless.
    """
    da, cqb = member.direct_action, member.cqb
    if cqb is None:
        return da, "direct_action", f"Direct Action {name(da)} (no CQB specialization)"
    if cqb > da:
        return cqb, "cqb_higher", f"CQB {name(cqb)} is higher than Direct Action {name(da)}: use it"
    up = step_up(da)
    how = "lower than" if cqb < da else "equal to"
    capped = " (already d12, the maximum)" if da == 12 else ""
    return up, "cqb_lower" if cqb < da else "cqb_equal", (
        f"CQB {name(cqb)} is {how} Direct Action {name(da)}: step it up to {name(up)}{capped}")


def _member(field: str, raw: Any) -> Member:
    if isinstance(raw, dict):
        unknown = set(raw) - {"direct_action", "cqb"}
        if unknown:
            raise InputError(f"{field}.{sorted(unknown)[0]}",
                             "is not a member field; use direct_action and cqb.")
        if "direct_action" not in raw:
            raise InputError(f"{field}.direct_action", "is required for every member.")
        cqb = raw.get("cqb")
        return Member(parse_die(f"{field}.direct_action", raw["direct_action"]),
                      None if cqb is None or cqb == "" else parse_die(f"{field}.cqb", cqb))
    if isinstance(raw, (int, float)) and not isinstance(raw, bool):
        return Member(parse_die(f"{field}.direct_action", raw))
    if isinstance(raw, str):
        parts = [p for p in raw.replace("cqb", "/").replace("CQB", "/").split("/")]
        parts = [p.strip() for p in parts]
        if len(parts) > 2 or not parts[0]:
            raise InputError(field, f"could not read {describe(raw)}; write a member as d8 "
                                    "(Direct Action) or d8/d10 (Direct Action / CQB).")
        cqb_text = parts[1] if len(parts) == 2 else ""
        return Member(parse_die(f"{field}.direct_action", parts[0]),
                      parse_die(f"{field}.cqb", cqb_text) if cqb_text else None)
    raise InputError(field, "expected a member such as d8/d10 (Direct Action / CQB), "
                            f"received {describe(raw)}.")


def parse_members(field: str, raw: Any) -> list[Member]:
    """Members from JSON (a list of objects) or text ("d8/d10, d6, d8 cqb d6")."""
    items = list_items(field, raw, "members")
    if not PC_TEAM_MIN <= len(items) <= PC_TEAM_MAX:
        tip = ("split a larger group into two fireteams" if len(items) > PC_TEAM_MAX else
               "Part I builds player fireteams of 3 to 6; fewer characters act alone")
        raise InputError(field, f"Members: a player fireteam has {PC_TEAM_MIN} to {PC_TEAM_MAX} "
                                f"members, received {len(items)} ({tip}).")
    return [_member(f"{field}.{i}", item) for i, item in enumerate(items, start=1)]


class InjuryRule(str, Enum):
    """Which injury dice go to the opposing pool (source: Part I, A Side Note About PC
    Injuries, and Other Fireteam Factors)."""

    EVERY = "every"  # the rule as written: each injury die
    HIGHEST = "highest"  # the side note's alternative: only the highest die
    AVERAGE = "average"  # the side note's other alternative: one die of the average size


def injury_dice(dice: list[int], rule: InjuryRule) -> list[int]:
    """The dice the opposing side adds for these injuries.

    Ruling for the average: the mean of the dice's ladder steps, halves rounded up
    (d6 and d8 average to d8; d4, d6, d6 to d6).
    """
    if not dice:
        return []
    if rule is InjuryRule.EVERY:
        return sorted(dice, reverse=True)
    if rule is InjuryRule.HIGHEST:
        return [max(dice)]
    total = sum(steps(d) for d in dice)
    return [from_steps((2 * total + len(dice)) // (2 * len(dice)))]  # mean, halves up


@dataclass(frozen=True)
class Side:
    """One side of a firefight attack: a character's traits or a unit's quality dice."""

    character: bool
    approach: int | None = None
    direct_action: int | None = None
    quality: tuple[int, ...] = ()
    other: tuple[int, ...] = ()  # specializations, assets, advantages, grenadier dice


def _base_terms(side: Side) -> list[Term]:
    if side.character:
        assert side.approach is not None and side.direct_action is not None
        terms = [Term(side.approach, "Approach", "attack-and-defence-pools"),
                 Term(side.direct_action, "Direct Action role", "attack-and-defence-pools")]
    else:
        terms = [Term(q, f"Quality die of member {i}", "grouping-combatants")
                 for i, q in enumerate(side.quality, start=1)]
    terms += [Term(d, "Specialization, asset or advantage", "attack-and-defence-pools")
              for d in side.other]
    return terms


def attack_terms(attacker: Side, defender_injuries: list[int], rule: InjuryRule) -> list[Term]:
    """The attack pool: the attacker's dice plus the dice of the defender's injuries."""
    return _base_terms(attacker) + [
        Term(d, "Defender's injury (added to the opposing pool)", "injuries-in-the-pools")
        for d in injury_dice(defender_injuries, rule)]


def cover_die(defender: Side, cover_rating: int | None) -> int | None:
    """The lesser of the zone's Cover Rating and the defender's Direct Action (a unit:
    its lowest quality die); None without cover (source: Part II, Cover Penalties)."""
    if cover_rating is None:
        return None
    skill = defender.direct_action if defender.character else min(defender.quality)
    assert skill is not None
    return min(skill, cover_rating)


def defence_terms(defender: Side, distance: Range, cover_rating: int | None, exposed: bool,
                  armor: int | None, marksman: bool, attacker_injuries: list[int],
                  rule: InjuryRule) -> list[Term]:
    """The defence pool: traits, range die, cover (unless flanked or under a surveillance
    drone), armor (unless a Marksman's Edge denies it) and the attacker's injuries."""
    terms = _base_terms(defender)
    range_die = RANGE_DIE[distance]
    if range_die:
        terms.append(Term(range_die, f"Range: {distance.value} zone", "distance-penalties"))
    cover = None if exposed else cover_die(defender, cover_rating)
    if cover:
        terms.append(Term(cover, "Cover (lesser of the skill and the Cover Rating)",
                          "cover-penalties"))
    if armor and not marksman:
        terms.append(Term(armor, "Armor asset", "attack-and-defence-pools"))
    terms += [Term(d, "Attacker's injury (added to the opposing pool)", "injuries-in-the-pools")
              for d in injury_dice(attacker_injuries, rule)]
    return terms

