"""2d6 combat phases: the rules as data (source: 2d6 combat phases, "Phases",
"Offense outcomes", "Defence outcomes", "Outcomes", "Action dice tracker", "Dice threat
levels" and "Complications & ultra successes"). The site renders its tables from these
values, so a page cannot disagree with the code.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum


class Phase(str, Enum):
    """The two halves of a combat round (source: Combat rounds)."""

    OFFENSE = "offense"
    DEFENCE = "defence"

    @property
    def other(self) -> Phase:
        return Phase.DEFENCE if self is Phase.OFFENSE else Phase.OFFENSE


class Outcome(str, Enum):
    """Outcome bands of an action roll, worst to best (source: Outcomes)."""

    FAILURE = "failure"
    PARTIAL = "partial"
    SUCCESS = "success"
    ULTRA = "ultra"


#: Die size of the action dice and how many are kept for the roll (source: Outcomes).
SIDES = 6
KEPT = 2
#: Kept totals up to this are failures; up to PARTIAL_MAX partial successes; the rest
#: successes, except two sixes among the kept dice, which are ultra successes.
FAILURE_MAX = 6
PARTIAL_MAX = 9

#: Pool sizes the referee may set for either side (source: Action dice tracker).
MIN_POOL = 3
MAX_POOL = 7
#: Smallest pool a whole fight accepts: one action of the two kept dice (the source's
#: range starts at 3; a pool of 2 is the site's extension, Rulings "A pool of two dice").
MIN_FIGHT_POOL = KEPT

#: Bounds of the whole fight's party inputs. The source gives no hit points or party
#: size (Rulings, "Hit points and party size"): these only keep the form's inputs sane.
MAX_PARTY = 8
MAX_HIT_POINTS = 40
MAX_DAMAGE = 20
#: The enemy's damage track (Rulings, "Damage to the enemy"; the source gives none): the
#: most damage it may take before it is down.
MAX_ENEMY_TRACK = 40

OUTCOME_LABELS: dict[Outcome, str] = {
    Outcome.FAILURE: "Failure",
    Outcome.PARTIAL: "Partial success",
    Outcome.SUCCESS: "Success",
    Outcome.ULTRA: "Ultra success",
}

OUTCOME_RANGES: dict[Outcome, str] = {
    Outcome.FAILURE: "6 or less",
    Outcome.PARTIAL: "7 to 9",
    Outcome.SUCCESS: "10 or more",
    Outcome.ULTRA: "two 6s kept",
}

#: What each outcome does in each phase (source: Offense outcomes, Defence outcomes).
MEANING: dict[Phase, dict[Outcome, str]] = {
    Phase.OFFENSE: {
        Outcome.FAILURE: "No damage dealt; one offense die is removed (if any remain).",
        Outcome.PARTIAL: "Damage dealt, and the character suffers an offense complication.",
        Outcome.SUCCESS: "Damage dealt.",
        Outcome.ULTRA: "Damage dealt, and something amazing happens.",
    },
    Phase.DEFENCE: {
        Outcome.FAILURE: "The character takes full damage.",
        Outcome.PARTIAL: "No damage, but the character suffers a defence complication.",
        Outcome.SUCCESS: "No damage; one defence die is removed (if any remain).",
        Outcome.ULTRA: "The defence phase ends at once, the offense phase begins, and "
                       "something amazing happens.",
    },
}

#: Short forms for tables and the tracker's log.
SHORT_MEANING: dict[Phase, dict[Outcome, str]] = {
    Phase.OFFENSE: {
        Outcome.FAILURE: "Remove 1 offense die",
        Outcome.PARTIAL: "Damage & complication",
        Outcome.SUCCESS: "Damage",
        Outcome.ULTRA: "Damage & something amazing",
    },
    Phase.DEFENCE: {
        Outcome.FAILURE: "Full damage taken",
        Outcome.PARTIAL: "Complication",
        Outcome.SUCCESS: "Remove 1 defence die",
        Outcome.ULTRA: "Go to offense & something amazing",
    },
}

PHASE_LABELS: dict[Phase, str] = {Phase.OFFENSE: "Offense", Phase.DEFENCE: "Defence"}


@dataclass(frozen=True)
class ThreatLevel:
    """One row of the threat guide (source: Dice threat levels)."""

    dice: int
    name: str
    examples: tuple[str, ...]


#: The threat guide. The source lists 3 dice twice; both entries describe the weakest
#: side, so they are merged into one level (see Rulings: "Two entries for 3 dice").
THREAT_LEVELS: tuple[ThreatLevel, ...] = (
    ThreatLevel(3, "Minimal threat: the side is unprepared, short of momentum, or the "
                   "other side holds an overwhelming advantage",
                ("Poor training", "Low morale", "Caught entirely off guard",
                 "Ambushed by the other side", "Facing a plan carried out flawlessly")),
    ThreatLevel(4, "Weaker than expected",
                ("Ambushed, but ready for a fight", "Ground they do not know",
                 "Outnumbered or outgunned")),
    ThreatLevel(5, "The usual threat of trained fighters",
                ("Forces on patrol or on guard, unaware of trouble",
                 "Going into combat with no particular plan")),
    ThreatLevel(6, "Stronger than expected",
                ("Suspicious forces, ready for a fight", "Fighting on home ground",
                 "Gear that works well against the other side")),
    ThreatLevel(7, "A major threat",
                ("Alert forces, ready for a fight", "A boss or leader on the scene",
                 "A well-executed plan")),
)


@dataclass(frozen=True)
class TableEntry:
    """One example on the complications or ultra-success list."""

    text: str
    #: phases in which the entry can apply (the "free attack" is a defence-only ultra)
    phases: tuple[Phase, ...] = (Phase.OFFENSE, Phase.DEFENCE)


class ExampleTable(str, Enum):
    """The two example lists (source: Complications & ultra successes)."""

    COMPLICATIONS = "complications"
    ULTRA = "ultra"


EXAMPLE_TABLES: dict[ExampleTable, tuple[TableEntry, ...]] = {
    ExampleTable.COMPLICATIONS: (
        TableEntry("Durability loss"),
        TableEntry("Half damage"),
        TableEntry("Disadvantage on the next combat action"),
        TableEntry("+1 defence die"),
        TableEntry("Trade damage"),
        TableEntry("Enemy reinforcements"),
        TableEntry("No damage, or no movement on the goal tracker"),
    ),
    ExampleTable.ULTRA: (
        TableEntry("Deal double damage"),
        TableEntry("-1 defence die"),
        TableEntry("An ally of the player characters arrives to help"),
        TableEntry("Destroy a structure or vehicle"),
        TableEntry("Destroy the enemy's armour or an accessory"),
        TableEntry("The players' team escapes easily"),
        TableEntry("A free attack", (Phase.DEFENCE,)),
    ),
}

EXAMPLE_TABLE_LABELS: dict[ExampleTable, str] = {
    ExampleTable.COMPLICATIONS: "Complications",
    ExampleTable.ULTRA: "Ultra successes",
}


def _check() -> None:
    """Validate the data on import (raise, never assert)."""
    if [t.dice for t in THREAT_LEVELS] != list(range(MIN_POOL, MAX_POOL + 1)):
        raise ValueError("threat levels must cover each pool size once, in order")
    for phase in Phase:
        if set(MEANING[phase]) != set(Outcome) or set(SHORT_MEANING[phase]) != set(Outcome):
            raise ValueError(f"every outcome needs a meaning in the {phase.value} phase")
    for name, entries in EXAMPLE_TABLES.items():
        for phase in Phase:
            if not any(phase in e.phases for e in entries):
                raise ValueError(f"table {name.value} has nothing for the {phase.value} phase")


_check()
