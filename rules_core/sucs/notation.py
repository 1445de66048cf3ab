"""Reading the unit lists' notation (source: SUCS, the tech-level unit tables).

The source never explains its shorthand; this is the reading that reproduces the
published "extra cost" column (see the Unit costs page, "Reading the unit lists"):

- attack ``2``: one weapon of attack 2; ``1,1``: automatic fire, attack 1 on each of two
  units; ``3 or 1,1``: a main weapon and an alternative, only one used per turn.
- speed ``12"``: 12 inches; ``(30")``: a flyer that must move at least half of it each
  turn (half-value restriction); a trailing ``-1``: the unit operates at altitude 1.
- range ``(18")``: a minimum range of a third of the range (half value).
- transport ``(3)``: three units carried with a restriction (half value).
"""

from __future__ import annotations

import re
from fractions import Fraction

from rules_core.sucs.cost import Weapon

_SPEED = re.compile(r'^(\()?(\d{1,3})"(\))?(?:-(\d))?$')
_RANGE = re.compile(r'^(?:0|(\()?(\d{1,3})"(\))?)$')
_TRANSPORT = re.compile(r"^(\()?(\d{1,2})(\))?$")
_COST = re.compile(r"^(?:0|\+(\d{1,3}))$")


class NotationError(ValueError):
    """A value in the unit-list notation that cannot be read."""


def _balanced(open_: str | None, close: str | None, text: str) -> bool:
    if bool(open_) != bool(close):
        raise NotationError(f"unbalanced parentheses in {text!r}")
    return bool(open_)


def parse_weapons(text: str) -> tuple[Weapon, ...]:
    """``"3 or 1,1"`` -> (Weapon(3, 1), Weapon(1, 2)). Raises NotationError."""
    weapons = []
    for group in text.split(" or "):
        parts = [p.strip() for p in group.split(",")]
        if not all(re.fullmatch(r"\d{1,2}", p) for p in parts):
            raise NotationError(
                f"weapon {group.strip()!r} is not an attack value (such as 2) or an "
                "automatic weapon (such as 1,1)")
        if len(set(parts)) != 1:
            raise NotationError(
                f"weapon {group.strip()!r}: an automatic weapon hits every unit with the "
                f"same attack; write it as {','.join([parts[0]] * len(parts))}")
        if len(parts) > 10:
            raise NotationError(f"weapon {group.strip()!r} hits more than 10 units")
        weapons.append(Weapon(int(parts[0]), len(parts)))
    return tuple(weapons)


def parse_speed(text: str) -> tuple[int, bool, Fraction]:
    """``'(30")-1'`` -> (30, must move, altitude 1)."""
    match = _SPEED.match(text)
    if not match:
        raise NotationError(f'speed {text!r} is not like 6", (30")-1 or 18"-1')
    must_move = _balanced(match[1], match[3], text)
    altitude = Fraction(int(match[4])) if match[4] else Fraction(0)
    return int(match[2]), must_move, altitude


def parse_range(text: str) -> tuple[int, bool]:
    """``'(18")'`` -> (18, minimum range)."""
    match = _RANGE.match(text)
    if not match:
        raise NotationError(f'range {text!r} is not like 0, 12" or (18")')
    if text == "0":
        return 0, False
    return int(match[2]), _balanced(match[1], match[3], text)


def parse_transport(text: str) -> tuple[int, bool]:
    """``'(3)'`` -> (3, restricted)."""
    match = _TRANSPORT.match(text)
    if not match:
        raise NotationError(f"transport {text!r} is not like 0, 3 or (3)")
    return int(match[2]), _balanced(match[1], match[3], text)


def parse_stealth(text: str) -> bool:
    if text in ("0", "-"):
        return False
    if text == "yes":
        return True
    raise NotationError(f"stealth {text!r} is not 0, - or yes")


def parse_support(text: str) -> tuple[str, ...]:
    """``'-'`` -> (); ``'reorganize'`` (or the cut ``'reorganiz'``) -> ("reorganize",)."""
    if text == "-":
        return ()
    if text in ("reorganize", "reorganiz"):
        return ("reorganize",)
    raise NotationError(f"support {text!r} is not - or reorganize")


def parse_cost(text: str) -> int:
    """``'+12'`` -> 12; ``'0'`` -> 0."""
    match = _COST.match(text)
    if not match:
        raise NotationError(f"extra cost {text!r} is not like 0 or +12")
    return int(match[1] or 0)
