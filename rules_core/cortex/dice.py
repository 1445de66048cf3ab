"""Cortex dice: the step ladder d4-d12 and the parsing of typed or JSON dice pools.

Source: Cortex Prime Small Unit Combat, Part I ("Traits for Fireteams": dice d4 to d12,
"the usual maximum of d12") and Part II ("Basic Enemy Combatants"). A die is written in
JSON as its size (4, 6, 8, 10, 12); people may also type "d8 d6 d6", "8,6,6" or "2d6 d8".
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from typing import Any

from rules_core.errors import InputError
from rules_core.fields import ChoiceField
from rules_core.messages import describe

#: The Cortex die ladder, smallest first (source: Part I, Traits for Fireteams).
SIZES: tuple[int, ...] = (4, 6, 8, 10, 12)

#: Largest pool accepted: 12 against 12 is worked out exactly in well under a second.
MAX_POOL = 12


def name(size: int) -> str:
    """``8`` -> ``"d8"``."""
    return f"d{size}"


def names(sizes: list[int] | tuple[int, ...]) -> str:
    """``[8, 6, 6]`` -> ``"d8 d6 d6"`` (``"nothing"`` for an empty list)."""
    return " ".join(name(s) for s in sizes) if sizes else "nothing"


def steps(size: int) -> int:
    """A die's position on the ladder: d4 = 1 step, d6 = 2, ... d12 = 5.

    Ruling (Rulings: complication step arithmetic): adding "the steps of" an effect die to
    a complication means climbing the ladder by this many steps.
    """
    return SIZES.index(size) + 1


def from_steps(count: int) -> int:
    """The die at a ladder position (1 = d4 ... 5 = d12); more than 5 is a d12."""
    if count < 1:
        raise ValueError(f"no die has {count} steps")
    return SIZES[min(count, len(SIZES)) - 1]


def step_up(size: int, by: int = 1) -> int:
    """Step a die up ``by`` steps, never past d12 (source: Part I, Operator Dice)."""
    return from_steps(steps(size) + by)


def _allowed() -> str:
    return "die sizes 4, 6, 8, 10 or 12 (typed as d4 ... d12)"


def parse_die(field: str, raw: Any) -> int:
    """One die: 8, "8", "d8" or "D8" -> 8; anything else names ``field``."""
    if isinstance(raw, bool):
        raise InputError(field, f"expected one of the {_allowed()}, received {describe(raw)}.")
    if isinstance(raw, float) and raw.is_integer():
        raw = int(raw)
    if isinstance(raw, str):
        text = raw.strip().lower()
        match = re.fullmatch(r"d?(\d{1,3})", text)
        if match:
            raw = int(match.group(1))
    if isinstance(raw, int) and raw in SIZES:
        return raw
    tip = ""
    if isinstance(raw, int) and 4 < raw < 12:
        tip = " Cortex dice have even sizes only."
    elif isinstance(raw, int) and raw > 12:
        tip = " d12 is the largest Cortex die."
    raise InputError(field, f"expected one of the {_allowed()}, received {describe(raw)}.{tip}")


_TOKEN = re.compile(r"(\d{1,2})?[dD](\d{1,3})|(\d{1,3})")


def _tokens(field: str, text: str) -> list[Any]:
    """Split a typed pool ("2d6 d8", "8,6,6", "[8, 6, 6]") into die values."""
    stripped = text.strip()
    if stripped.startswith("["):
        try:
            data = json.loads(stripped)
        except ValueError:
            raise InputError(field, f"could not read {describe(text)} as a list of dice; "
                                    "write it like d8 d6 d6 or [8, 6, 6].") from None
        if not isinstance(data, list):
            raise InputError(field, "expected a list of dice such as [8, 6, 6].")
        return data
    out: list[Any] = []
    pos = 0
    body = stripped
    while pos < len(body):
        if body[pos] in " ,;+\t":
            pos += 1
            continue
        match = _TOKEN.match(body, pos)
        if not match:
            bad = body[pos:].split()[0].rstrip(",;")
            raise InputError(field, f'could not read "{bad[:20]}" in "{text[:40]}"; '
                                    "write dice like d8 d6 d6, 2d6 d10 or 8,6,6.")
        count, size, bare = match.groups()
        if bare is not None:
            out.append(int(bare))
        else:
            repeat = int(count) if count else 1
            if repeat == 0:
                raise InputError(field, f'"{match.group(0)}" is no dice at all; write a count '
                                        f"of 1 or more (such as 2d{size}) or leave it out.")
            if repeat > MAX_POOL * 4:
                raise InputError(field, f"{repeat} dice of one size is far too many.")
            out.extend([int(size)] * repeat)
        pos = match.end()
    return out


def parse_pool(field: str, raw: Any, minimum: int = 1, maximum: int = MAX_POOL) -> list[int]:
    """A pool as a list of die sizes, largest first.

    Accepts the JSON list the API documents ([8, 6, 6]) or typed text ("d8 d6 d6",
    "8, 6, 6", "2d6 d8"). Errors name the field and, for a bad die, its position
    (``attacker.3`` is the third die).
    """
    if isinstance(raw, str):
        items = _tokens(field, raw)
    elif isinstance(raw, list):
        items = raw
    else:
        raise InputError(field, f"expected a list of dice such as [8, 6, 6] or text such as "
                                f"\"d8 d6 d6\", received {describe(raw)}.")
    if len(items) > maximum:
        raise InputError(field, f"has {len(items)} dice; at most {maximum} are supported "
                                "(larger pools are refused so the page never freezes).")
    dice = [parse_die(f"{field}.{i}", item) for i, item in enumerate(items, start=1)]
    if len(dice) < minimum:
        raise InputError(field, f"needs at least {minimum} "
                                f"{'die' if minimum == 1 else 'dice'}, received {len(dice)}.")
    return sorted(dice, reverse=True)


def pool_parser(minimum: int = 1, maximum: int = MAX_POOL, empty_ok: bool = False) -> Any:
    """A ``TextField.parse`` hook for a pool of ``minimum`` to ``maximum`` dice."""

    def parse(field: str, raw: Any) -> list[int]:
        if empty_ok and (raw == "" or raw == []):
            return []
        return parse_pool(field, raw, minimum, maximum)

    return parse


@dataclass(frozen=True)
class DieField(ChoiceField):
    """One die chosen from d4-d12; accepts 8, "8" or "d8" (the form sends text)."""

    choices: tuple[tuple[Any, str], ...] = tuple((s, name(s)) for s in SIZES)

    def coerce(self, raw: Any) -> int:
        try:
            return parse_die(self.name, raw)
        except InputError:
            raise InputError(self.name, f"must be one of d4, d6, d8, d10, d12 (sizes 4 to 12); "
                                        f"received {describe(raw)}.") from None
