"""The one wording of input errors, and the JSON reading every entry point shares.

Every message a user sees is built here: a received value described safely (a huge
integer, a lone surrogate or a deep structure never makes the description itself fail),
a place named in words ("Effect dice, the 2nd die", never ``effect_dice.1``) and JSON
text read with limits on depth and on the length of numbers, so that nothing a caller
sends reaches Python's own limits (recursion, int-to-text conversion, float overflow).
"""

from __future__ import annotations

import json
import math
from typing import Any

from rules_core.errors import InputError

#: deepest nesting of lists and objects any input may have
MAX_DEPTH = 32
#: longest integer literal read from JSON text, in digits (Python refuses beyond 4300)
MAX_DIGITS = 4000
#: words that start a message which reads on from the field's name ("Attack must be ...")
_PREDICATES = ("is ", "are ", "must ", "has ", "needs ", "applies ", "was ", "cannot ",
               "contains ", "should ", "accepts ")


def safe_text(text: str, limit: int = 40) -> str:
    """Text cut to ``limit`` characters, with characters that are not valid Unicode
    (lone surrogates) shown as U+FFFD so the message can always be encoded."""
    shown = text if len(text) <= limit else text[: limit - 3] + "..."
    return "".join("\ufffd" if 0xD800 <= ord(ch) <= 0xDFFF else ch for ch in shown)


def _has_surrogate(text: str) -> bool:
    return any(0xD800 <= ord(ch) <= 0xDFFF for ch in text)


def is_valid_unicode(text: str) -> bool:
    """False when ``text`` holds a lone surrogate (a ``\\ud800`` escape in JSON)."""
    return not _has_surrogate(text)


def digits(value: int) -> int:
    """How many decimal digits a whole number has, without converting it to text."""
    value = abs(value)
    if value < 10**15:
        return len(str(value))
    estimate = int(math.log10(value))
    return estimate + 1 if value >= 10**estimate else estimate


def number(value: float) -> str:
    """A number for messages: 1000000 rather than 1e+06, 12.5 as is; a number too long
    to print is described by its length."""
    if isinstance(value, int) and not isinstance(value, bool):
        return str(value) if digits(value) <= 30 else f"a {digits(value):,}-digit number"
    if math.isfinite(value) and float(value).is_integer() and abs(value) < 1e15:
        return str(int(value))
    return f"{value:g}"


def describe(value: Any) -> str:
    """A short, safe rendering of a received value for error messages."""
    if value is None:
        return "nothing (null)"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        if not value.strip():
            return "empty text" if not value else "only spaces"
        return f'the text "{safe_text(value)}"'
    if isinstance(value, int):
        return number(value)
    if isinstance(value, float):
        if math.isnan(value):
            return "NaN (not a number)"
        if math.isinf(value):
            return "infinity" if value > 0 else "minus infinity"
        return repr(value)
    if isinstance(value, (list, tuple)):
        return f"a list of {len(value):,} item{'' if len(value) == 1 else 's'}"
    if isinstance(value, dict):
        return "an object"
    return f"a value of type {type(value).__name__}"


def ordinal(n: int) -> str:
    """1st, 2nd, 3rd, 4th, 11th, 22nd."""
    if 10 <= n % 100 <= 20:
        suffix = "th"
    else:
        suffix = {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


def humanize(key: str) -> str:
    """A key nobody declared a label for, in words: ``direct_action`` -> "direct action"."""
    words = key.replace("_", " ").replace(".", " ").strip()
    if len(words) <= 3 and words.isalpha():  # cqb, hp, dc: an abbreviation
        words = words.upper()
    return safe_text(words or "a blank key")


def plural(noun: str) -> str:
    """die -> dice, member -> members."""
    return "dice" if noun == "die" else noun + "s"


def count(n: int, noun: str) -> str:
    """A number and its noun, plural unless the number is one: "1 hit", "0 rounds",
    "3 dice"."""
    return f"{n} {noun if n == 1 else plural(noun)}"


def position(index: str, noun: str) -> str:
    """A 1-based list position in words: ("2", "die") -> "the 2nd die"."""
    return f"the {ordinal(int(index))} {noun}"


#: a label ending in one of these is not a noun ("Target is a person who is"), so a
#: message follows it after a colon
_OPEN_ENDINGS = {"is", "are", "with", "who", "by", "of", "to", "for", "a", "an", "the", "as",
                 "in", "on", "at", "from", "and", "or"}


def sentence(where: str, message: str) -> str:
    """One error sentence: the place in words, then what is wrong. A message that reads
    on from a name ("must be ...") follows it; any other follows a colon."""
    where = where[:1].upper() + where[1:]
    words = where.rstrip().split()
    open_ended = not words or words[-1].lower() in _OPEN_ENDINGS or not where[-1:].isalnum() \
        and where[-1:] not in ")\""
    joiner = " " if message.startswith(_PREDICATES) and not open_ended else ": "
    return f"{where}{joiner}{message}"


def nesting_depth(text: str) -> int:
    """Deepest nesting of [ and { outside JSON strings (checked before parsing, so a
    hostile text cannot exhaust the parser's stack)."""
    depth = deepest = 0
    in_string = escaped = False
    for ch in text:
        if in_string:
            if escaped:
                escaped = False
            elif ch == "\\":
                escaped = True
            elif ch == '"':
                in_string = False
        elif ch == '"':
            in_string = True
        elif ch in "[{":
            depth += 1
            deepest = max(deepest, depth)
        elif ch in "]}":
            depth -= 1
    return deepest


def value_depth(value: Any, limit: int = MAX_DEPTH) -> int:
    """Deepest nesting of lists and objects in a value, counted without recursion and
    stopping once past ``limit`` (a structure built 100,000 deep costs ``limit`` steps)."""
    deepest = 0
    stack: list[tuple[Any, int]] = [(value, 0)]
    while stack:
        item, depth = stack.pop()
        if isinstance(item, (list, tuple, dict)):
            depth += 1
            deepest = max(deepest, depth)
            if deepest > limit:
                return deepest
            children = item.values() if isinstance(item, dict) else item
            stack.extend((child, depth) for child in children)
    return deepest


def _int_literal(text: str) -> int:
    if len(text.lstrip("-")) > MAX_DIGITS:
        raise ValueError(f"a number of {len(text.lstrip('-')):,} digits; numbers here have "
                         f"at most {MAX_DIGITS} digits")
    return int(text)


def parse_json(text: str, field: str, max_depth: int = MAX_DEPTH) -> Any:
    """JSON text read safely: InputError (naming ``field``) for text that is not JSON,
    nested deeper than ``max_depth`` or holding a number with too many digits."""
    depth = nesting_depth(text)
    if depth > max_depth:
        raise InputError(field, f"is nested {depth:,} levels deep; at most {max_depth} "
                                "levels are accepted.")
    try:
        return json.loads(text, parse_int=_int_literal)
    except json.JSONDecodeError as err:
        raise InputError(field, f"is not valid JSON: {json_problem(err)}.") from None
    except RecursionError:
        raise InputError(field, f"is nested too deeply to read; at most {max_depth} levels "
                                "are accepted.") from None
    except ValueError as err:  # a number too long (_int_literal's own words)
        raise InputError(field, f"is not JSON this site can read ({safe_text(str(err), 120)}).") \
            from None


def json_problem(err: json.JSONDecodeError) -> str:
    """What is wrong with JSON text, in the terms of the text, never the parser's words
    ("Unterminated string starting at..."): cut off, more after its end, or the place
    (counted from 1) and the few characters where it goes wrong."""
    doc, pos = err.doc, err.pos
    if err.msg.startswith("Unterminated") or pos >= len(doc.rstrip()):
        return "it stops before it is complete, as if cut off (copy all of it again)"
    near = safe_text(doc[max(0, pos - 10):pos + 10].replace("\n", " "), 40)
    where = f"at character {pos + 1:,} (near “{near}”)"
    if err.msg.startswith("Extra data"):
        return f"it goes on after its end, {where}"
    if err.msg.startswith("Invalid control character"):
        return f"a line break or tab is inside quotes {where}"
    if "delimiter" in err.msg or "property name" in err.msg:
        return f"a comma, colon or quote is missing or out of place {where}"
    return f"something that is not a value stands {where}"


def list_items(field: str, raw: Any, what: str) -> list[Any]:
    """A list typed into a text input or sent as JSON: a JSON list, a JSON list written
    as text, or text separated by commas (or semicolons). ``what`` names the items in
    the error message ("members", "names")."""
    items = raw
    if isinstance(raw, str):
        text = raw.strip()
        if not text:
            raise InputError(field, f"is empty: enter a list of {what}.")
        if text.startswith("["):
            items = parse_json(text, field)
        else:
            items = [p.strip() for p in text.replace(";", ",").split(",") if p.strip()]
    if not isinstance(items, list):
        raise InputError(field, f"must be a list of {what}; received {describe(raw)}.")
    return items
