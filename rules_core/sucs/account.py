"""The words of a SUCS fight played with real dice, in one place: each action as one line
that names its side's unit and the enemy's, what was rolled against what and what
happened, with the dice of each roll kept beside it (:class:`rules_core.solver.Action`);
the initiative; and the state after each turn. The army battle, the whole engagement, the
page's account, its text copy and the session log all take these lines.

Nothing here decides anything: the turn walk (:mod:`rules_core.sucs.turn`) and the dice
(:mod:`rules_core.sucs.fight`) hand over what happened, and this module words it.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from rules_core.solver import Action

#: the source's unit of time, the one word the SUCS account, charts and tables use
TURN = "Turn"

#: what each kind of roll is called beside its dice
SPOT, ATTACK, DAMAGE = "spotting roll 2d6", "attack roll 2d6", "d6 (damage equal to armor)"

#: what an attack's outcome reads as
OUTCOME_WORDS = {"destroyed": "destroyed", "suppressed": "suppressed", "no_effect": "no effect",
                 "not_found": "not found"}


@dataclass(frozen=True)
class Rolled:
    """One attack as the dice resolved it: the words of the roll ("rolled 9 (+1) against
    8 needed") and its outcome key, and each roll with its dice."""

    words: str
    outcome: str
    rolls: tuple[tuple[str, tuple[int, ...]], ...]


def attack_roll(total: int, bonus: int, needed: int, spot: tuple[int, int] | None,
                spot_needed: int, attack: tuple[int, int] | None, d6: int | None,
                outcome: str) -> Rolled:
    """An attack in words: the spotting roll if the target is stealthy, the attack roll
    (only when the target was found) with its modifier against the number needed, the
    damage d6 when it was used."""
    parts: list[str] = []
    rolls: list[tuple[str, tuple[int, ...]]] = []
    if spot is not None:
        parts.append(f"spotting roll {sum(spot)} against {spot_needed} needed")
        rolls.append((SPOT, spot))
    if attack is not None:
        parts.append(f"attack roll {total}" + (f" {bonus:+d}" if bonus else "")
                     + f" against {needed} needed")
        rolls.append((ATTACK, attack))
    if d6 is not None:
        parts.append(f"damage equal to armor, d6 {d6}")
        rolls.append((DAMAGE, (d6,)))
    return Rolled(", ".join(parts), outcome, tuple(rolls))


def attack(side: str, who: str, verb: str, target: str, rolled: Rolled, towards: int,
           weapon: str = "") -> Action:
    """"Red platoon Rifle squad 2 fires at Blue company Veterans: attack roll 6 against 7
    needed: no effect". ``towards``: for a roll that might have damaged the target and did
    not, which such roll it was (1: one more suppresses it; 2: the pair suppresses it);
    0 otherwise. ``weapon``: the weapon used, said for a unit that has more than one
    ("weapon 2 (attack 1x2)")."""
    result = OUTCOME_WORDS.get(rolled.outcome, rolled.outcome.replace("_", " "))
    if towards == 1:
        result += " (the first roll that might have damaged it: one more suppresses it)"
    elif towards == 2:
        result = "suppressed (the second roll that might have damaged it)"
    using = f" with its {weapon}" if weapon else ""
    return Action(side, who, f"{who} {verb} {target}{using}: {rolled.words}: {result}.",
                  rolled.rolls)


#: the verbs of a unit's attack and of an enemy's return strike in close combat
FIRES, STRIKES_BACK = "fires at", "strikes back at"
MELEE_ATTACKS = "attacks"


def reorganizes(side: str, who: str, markers: int) -> Action:
    return Action(side, who, f"{who} reorganizes: {markers} suppression marker"
                             f"{'s' * (markers != 1)} removed.")


def charge_spent(side: str, who: str) -> Action:
    return Action(side, who, f"{who} charges with no action left: its attack fails "
                             "without a roll.")


def initiative(names: Sequence[str], rolls: Sequence[tuple[tuple[int, int], tuple[int, int]]],
               first: int, decided_by: str = "") -> Action:
    """Both sides' 2d6 for the initiative, each roll-off on its own, and who acts first
    (``first``: 0 or 1; ``decided_by``: words for a tie the readings settle)."""
    said = "; tied, rolled again: ".join(f"{names[0]} {sum(a)}, {names[1]} {sum(b)}"
                                        for a, b in rolls)
    tied = decided_by and f" (tied: {decided_by})"
    dice = tuple((names[k] + (f", roll {n}" if len(rolls) > 1 else ""), pair[k])
                 for n, pair in enumerate(rolls, 1) for k in (0, 1))
    return Action("", "", f"Initiative, 2d6 each: {said}: {names[first]} acts first{tied}.",
                  dice)


def set_first(name: str, charge: bool) -> Action:
    return Action("", "", f"{name} charges into contact and acts first." if charge
                  else f"{name} acts first, as set.")


def after(sides: Sequence[tuple[str, int, Sequence[tuple[str, int]], str]]) -> str:
    """The state after a turn, per side: (its name, units it fielded, each unit left with
    its markers, a note such as no commander left)."""
    parts = []
    for name, fielded, left, note in sides:
        if not left:
            parts.append(f"{name}: none left of {fielded}")
            continue
        suppressed = [f"{who} ({m} marker{'s' * (m != 1)})" for who, m in left if m]
        parts.append(f"{name}: {len(left)} of {fielded} left, "
                     + (f"{len(suppressed)} suppressed: {', '.join(suppressed)}" if suppressed
                        else "none suppressed")
                     + (f"; {note}" if note else ""))
    return "; ".join(parts) + "."


def sides(a: str, b: str) -> tuple[str, str]:
    """The two sides' names as the account and the figures use them: told apart when two
    rosters have the same name ("Red (side A)", "Red (side B)")."""
    if a.strip().casefold() == b.strip().casefold():
        return f"{a} (side A)", f"{b} (side B)"
    return a, b


def labels(side_name: str, names: Sequence[str]) -> tuple[str, ...]:
    """Each unit's name on the field: the side's name and the unit's, numbered when the
    side has several of that name ("Red platoon Rifle squad 2"; "no. 2" after a name that
    ends in a digit, such as a unit written 3/1/0)."""
    out = []
    for i, name in enumerate(names):
        same = [j for j, n in enumerate(names) if n == name]
        number = ""
        if len(same) > 1:
            k = same.index(i) + 1
            number = f" no. {k}" if name[-1:].isdigit() else f" {k}"
        out.append(f"{side_name} {name}{number}")
    return tuple(out)
