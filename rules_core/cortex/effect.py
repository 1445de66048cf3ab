"""Effect dice against an NPC unit: who is taken out, what injury stands, what is lost.

Sources: Part I, "Inflicting Harm - NPCs" (an effect die at least a member's quality die
takes that member out, lower quality first; a smaller die becomes a complication that
the next effect die steps up; surplus steps are lost, or carried in the footnote's
cinematic variant) and Part II, "Attack and Defense" (several effect dice may each take
a member out, but only one die per attack may injure without taking anyone out).

The attacker chooses the order in which the dice are applied; :func:`assign` searches
every order and keeps the best for the attacker: most members taken out, then the
largest injury left on the unit, then the fewest dice spent. Rulings on the rules page
"Rulings and errata" (complication step arithmetic, injuries on an injured unit).
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum
from functools import lru_cache
from typing import NamedTuple

from rules_core.cortex.dice import from_steps, name, steps


class Rules(str, Enum):
    """Which part's harm rules apply."""

    PART1 = "part1"  # CQB fireteams: complications step up without limit
    PART2 = "part2"  # firefights: one non-lethal die per attack


@dataclass(frozen=True)
class Step:
    """One effect die applied to the unit."""

    die: int
    action: str  # take_out | injury | step_up | step_take_out | unused
    taken_out: tuple[int, ...]  # quality dice removed by this die (surplus may add more)
    injury_after: int | None  # the unit's injury/complication die afterwards
    surplus: int  # steps above the threshold (lost unless carried)
    text: str


@dataclass(frozen=True)
class Assignment:
    """The outcome of assigning a set of effect dice to one unit."""

    taken_out: tuple[int, ...]
    injury: int | None
    unused: tuple[int, ...]
    standing: tuple[int, ...]
    log: tuple[Step, ...]


class _State(NamedTuple):
    standing: tuple[int, ...]  # quality dice in steps, in the order they fall
    injury: int  # complication in steps, 0 for none
    slot_used: bool  # Part II: the attack's one non-lethal die has been assigned
    old_injury: bool  # Part II: the injury predates this attack (it may be stepped up)


def _reach(standing: tuple[int, ...], e: int) -> int | None:
    """The member ``e`` steps take out: the first in falling order whose quality die they
    reach (lowest first: the lowest, or nobody; highest first: the best one reachable)."""
    return next((i for i, q in enumerate(standing) if q <= e), None)


def _remove(standing: tuple[int, ...], i: int, surplus: int, carry: bool
            ) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """Take out member ``i``, then (cinematic variant) more with the surplus steps, each
    the next member in falling order that the surplus reaches."""
    removed, left = [standing[i]], list(standing[:i] + standing[i + 1:])
    while carry and (j := _reach(tuple(left), surplus)) is not None:
        surplus -= left[j]
        removed.append(left.pop(j))
    return tuple(removed), tuple(left)


def _transition(state: _State, e: int, rules: Rules, carry: bool
                ) -> tuple[_State, str, tuple[int, ...], int]:
    """Apply one effect die of ``e`` steps: (new state, action, members removed, surplus)."""
    if not state.standing:
        return state, "unused", (), 0
    i = _reach(state.standing, e)
    if i is not None:
        surplus = e - state.standing[i]
        removed, standing = _remove(state.standing, i, surplus, carry)
        return (state._replace(standing=standing, injury=state.injury if standing else 0),
                "take_out", removed, surplus)
    if state.injury and (rules is Rules.PART1 or (state.old_injury and not state.slot_used)):
        total = state.injury + e
        i = _reach(state.standing, total)
        if i is not None:
            surplus = total - state.standing[i]
            removed, standing = _remove(state.standing, i, surplus, carry)
            return _State(standing, 0, True, False), "step_take_out", removed, surplus
        return state._replace(injury=total, slot_used=True), "step_up", (), 0
    if not state.injury and not (rules is Rules.PART2 and state.slot_used):
        return state._replace(injury=e, slot_used=True, old_injury=False), "injury", (), 0
    return state, "unused", (), 0


def _apply(state: _State, size: int, rules: Rules, carry: bool) -> tuple[_State, Step]:
    """Apply one effect die and say what happened, for the step-by-step log."""
    e = steps(size)
    new, action, removed, surplus = _transition(state, e, rules, carry)
    die = name(size)
    low = name(from_steps(min(state.standing))) if state.standing else ""
    hit = name(from_steps(removed[0])) if removed else ""
    whom = (f"the lowest standing member's {low}" if hit == low
            else f"the {hit} of the best member it can reach")
    if action == "take_out":
        text = (f"{die} is at least {whom}: takes out "
                f"{_members(removed)}{_surplus_note(surplus, len(removed) - 1, carry)}")
    elif action == "step_take_out":
        text = (f"{die} ({e} step{'s' if e > 1 else ''}) added to the "
                f"{name(from_steps(state.injury))} injury ({state.injury}) makes "
                f"{state.injury + e} steps, reaching the {hit}: takes out {_members(removed)} "
                f"and clears the injury{_surplus_note(surplus, len(removed) - 1, carry)}")
    elif action == "step_up":
        text = (f"{die} steps the {name(from_steps(state.injury))} injury up {e} "
                f"step{'s' if e > 1 else ''} to {name(from_steps(new.injury))}, still short of "
                f"the lowest member's {low}.")
    elif action == "injury":
        text = (f"{die} is below the lowest member's {low}: it stands on the unit as a {die} "
                f"injury (complication).")
    elif not state.standing:
        text = f"{die}: nobody is left standing; the die is unused."
    else:
        text = (f"{die} cannot take anyone out, and Part II allows only one die per attack "
                f"that does not take a member out by itself (it has been used): the die is lost.")
    return new, Step(size, action, _sizes(removed), _die(new.injury), surplus, text)


def _die(injury_steps: int) -> int | None:
    return from_steps(injury_steps) if injury_steps else None


def _sizes(removed: tuple[int, ...]) -> tuple[int, ...]:
    return tuple(from_steps(s) for s in removed)


def _members(removed: tuple[int, ...]) -> str:
    return ", ".join(f"a {name(from_steps(s))} member" for s in removed)


def _surplus_note(surplus: int, extra: int, carry: bool) -> str:
    if not surplus:
        return "."
    if carry:
        more = f"; they take out {extra} more" if extra else "; not enough for the next member"
        return f" ({surplus} surplus step{'s' if surplus > 1 else ''} carried{more})."
    return f" ({surplus} surplus step{'s' if surplus > 1 else ''} lost)."


@lru_cache(maxsize=65536)
def _best(dice: tuple[int, ...], state: _State, rules: Rules, carry: bool
          ) -> tuple[tuple[int, int, int, int], tuple[int, ...]]:
    """Best (score, order) from here for ``dice`` in steps, largest first; score =
    (members taken out, their quality steps, injury steps left on the unit, -dice used).
    The steps taken out only tell apart orders that take out as many members when the
    best fall first (lowest first, the members out are always the lowest ones)."""
    if not dice or not state.standing:
        return (0, 0, state.injury if state.standing else 0, 0), ()
    best: tuple[tuple[int, int, int, int], tuple[int, ...]] | None = None
    tried = set()
    for i, e in enumerate(dice):
        if e in tried:
            continue
        tried.add(e)
        new, action, removed, _ = _transition(state, e, rules, carry)
        (out, quality, injury, used), order = _best(dice[:i] + dice[i + 1:], new, rules, carry)
        score = (out + len(removed), quality + sum(removed), injury,
                 used - (action != "unused"))
        if best is None or score > best[0]:
            best = (score, (e,) + order)
    assert best is not None
    return best


def assign(effect_dice: list[int] | tuple[int, ...], unit: list[int] | tuple[int, ...],
           injury: int | None = None, rules: Rules = Rules.PART2,
           carry_surplus: bool = False, highest_first: bool = False) -> Assignment:
    """Assign ``effect_dice`` to a unit of quality dice ``unit`` (sizes, any order).

    ``injury`` is a complication the unit already carries (a die size or None).
    ``highest_first``: the members fall highest quality first, the other reading of
    Part I's recommendation (each die must then reach the best member standing).
    """
    state = _State(_in_falling_order(unit, highest_first), steps(injury) if injury else 0,
                   False, bool(injury))
    dice = tuple(sorted(effect_dice, reverse=True))
    _, order = _best(tuple(steps(d) for d in dice), state, rules, carry_surplus)
    log: list[Step] = []
    for e in order:
        state, step = _apply(state, from_steps(e), rules, carry_surplus)
        log.append(step)
    taken = tuple(q for s in log for q in s.taken_out if s.action != "unused")
    unused = tuple(s.die for s in log if s.action == "unused")
    unused += tuple(dice[len(order):])  # never reached: nobody left
    return Assignment(
        taken_out=taken,
        injury=_die(state.injury) if state.standing else None,
        unused=tuple(sorted(unused, reverse=True)),
        standing=_sizes(state.standing),
        log=tuple(log),
    )


def _in_falling_order(unit: list[int] | tuple[int, ...], highest_first: bool
                      ) -> tuple[int, ...]:
    """The members' quality dice in steps, in the order they fall (the next one first)."""
    return tuple(sorted((steps(q) for q in unit), reverse=highest_first))


@lru_cache(maxsize=65536)
def after_attack(effect_dice: tuple[int, ...], unit: tuple[int, ...], injury: int | None,
                 rules: Rules, carry_surplus: bool, highest_first: bool = False
                 ) -> tuple[tuple[int, ...], int | None]:
    """What ``assign`` leaves: (the quality dice of the members taken out, smallest
    first; the unit's injury die afterwards or None). Cached: the odds and the engagement
    call it many times."""
    state = _State(_in_falling_order(unit, highest_first), steps(injury) if injury else 0,
                   False, bool(injury))
    dice = tuple(steps(d) for d in sorted(effect_dice, reverse=True))
    (_, _, left, _), order = _best(dice, state, rules, carry_surplus)
    removed: list[int] = []
    for e in order:
        state, _, out, _ = _transition(state, e, rules, carry_surplus)
        removed += out
    return tuple(sorted(_sizes(tuple(removed)))), _die(left)


def taken_out_count(effect_dice: tuple[int, ...], unit: tuple[int, ...], injury: int | None,
                    rules: Rules, carry_surplus: bool) -> int:
    """How many members ``assign`` takes out."""
    return len(after_attack(effect_dice, unit, injury, rules, carry_surplus)[0])
