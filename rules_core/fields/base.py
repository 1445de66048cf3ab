"""Single-value input fields (numbers, choices, text) and the starting inputs.

Each calculator lists its fields; :func:`validate_all` turns a raw JSON object into clean
values or lists every problem, each an :class:`InputError` whose ``field`` is the path
of the bad value (``attacker.2``, positions counted from 1) and whose ``message`` says
what was received and what is allowed. :func:`in_words` turns that path into the
field's label and positions in words ("Attacker dice, the 2nd die"), so no message shows
an internal name. Nested values are declared with :class:`ObjectField` and
:class:`ListField`, which the stored-data readers (rosters, the tracker) use too.

One rule for numbers everywhere: true and false are not numbers; a whole number may be
sent as 3 or 3.0, never as 3.5 or as text; text is never read as a number.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from rules_core.errors import InputError
from rules_core.messages import (
    describe,
    humanize,
    is_valid_unicode,
    number,
    position,
)

MAX_TEXT = 2000  # longest text input accepted, in characters


class _Marker:
    def __init__(self, name: str) -> None:
        self.name = name

    def __repr__(self) -> str:
        return self.name


#: the field has no default and must be given
REQUIRED: Any = _Marker("REQUIRED")
#: what a field's ``collect`` returns for a value it refused (its errors are listed)
INVALID: Any = _Marker("INVALID")


def _rebase(err: InputError, name: str, path: str) -> InputError:
    """An error raised for field ``name`` (or a place below it) moved to ``path``."""
    if err.field == name:
        return InputError(path, err.message)
    if err.field.startswith(name + "."):
        return InputError(path + err.field[len(name):], err.message)
    return err


def _not_a_number(raw: Any, allowed: str) -> str:
    """The message for a value that is not a number at all."""
    if isinstance(raw, str) and not raw.strip():
        return f"is empty: enter {allowed}."
    if isinstance(raw, str):
        return f"is not a number: received {describe(raw)}; enter {allowed}."
    return f"must be {allowed}; received {describe(raw)}."


#: label words -> the noun for one entry, when a field does not declare its ``item``
_NOUNS = ((("dice", "pool", "die"), "die"), (("member",), "member"), (("name",), "name"),
          (("damage", "roll"), "roll"), (("face",), "die"))


def noun_of(label: str) -> str:
    """The noun for one entry of a list labelled ``label`` ("entry" when none fits)."""
    label = label.lower()
    for words, noun in _NOUNS:
        if any(word in label for word in words):
            return noun
    return "entry"


@dataclass(frozen=True)
class Field:
    """Base declaration of one input.

    ``default`` is used when the field is absent (``REQUIRED``: it must be given);
    ``initial`` is the value the widget form starts with (falls back to ``default``).
    ``shown_if`` names another field and the values for which this one applies; the
    form hides it otherwise and the core treats it as absent. ``item`` is the word for
    one entry of a list the field holds ("die", "member") and ``parts`` labels the keys
    of the objects inside it, so that a message can name a place in words.
    """

    @property
    def start(self) -> Any:
        """The form's starting value."""
        if self.initial is not None:
            return self.initial
        return None if self.default is REQUIRED else self.default

    name: str
    label: str
    default: Any = REQUIRED
    initial: Any = None
    help: str = ""
    optional: bool = False
    shown_if: tuple[str, tuple[Any, ...]] | None = None
    item: str = ""
    parts: tuple[tuple[str, str], ...] = ()
    kind: str = field(default="text", init=False)

    def allowed(self) -> str:
        """What the field accepts, in words ("a whole number from 0 to 10")."""
        return "a value"

    def applies(self, values: Mapping[str, Any]) -> bool:
        """Whether the field applies given the other fields' ``values`` (its ``shown_if``
        condition; a field without one always applies). The one test of the condition:
        the starting inputs, validation and the page's form as built all ask it (the
        browser's live form, calculators/assets/form.js, makes the same test in JS)."""
        return self.shown_if is None or values.get(self.shown_if[0]) in self.shown_if[1]

    def coerce(self, raw: Any) -> Any:  # pragma: no cover - overridden
        raise NotImplementedError

    def collect(self, raw: Any, path: str, errors: list[InputError]) -> Any:
        """The clean value, or ``INVALID`` with every problem appended to ``errors``."""
        try:
            return self.coerce(raw)
        except InputError as err:
            errors.append(_rebase(err, self.name, path))
            return INVALID

    def noun(self) -> str:
        """The word for one entry of the list this field holds: ``item`` when declared,
        else read from the label ("Attacker's dice" -> "die", "Members" -> "member")."""
        return self.item or noun_of(self.label)

    def words(self, rest: list[str]) -> list[str]:
        """The places below this field in words: positions and labelled parts (a
        position below a part takes its noun from that part's label)."""
        labels = dict(self.parts)
        out: list[str] = []
        noun = self.noun()
        for seg in rest:
            if seg.isdigit():
                out.append(position(seg, noun))
            else:
                out.append(labels.get(seg, humanize(seg)))
                noun = noun_of(out[-1])
        return out

    def form(self) -> dict[str, Any]:
        """Attributes the widget template needs (JSON-safe)."""
        return {
            "name": self.name,
            "label": self.label,
            "kind": self.kind,
            "help": self.help,
            "optional": self.optional,
            "value": self.start,
            "shown_if": list(self.shown_if) if self.shown_if else None,
        }


@dataclass(frozen=True)
class IntField(Field):
    """A whole number between ``minimum`` and ``maximum`` inclusive."""

    minimum: int = 0
    maximum: int = 100
    kind: str = field(default="int", init=False)

    def allowed(self) -> str:
        return f"a whole number from {self.minimum} to {self.maximum}"

    def coerce(self, raw: Any) -> int:
        if isinstance(raw, float) and math.isfinite(raw) and raw.is_integer():
            raw = int(raw)
        if isinstance(raw, bool) or not isinstance(raw, int):
            raise InputError(self.name, _not_a_number(raw, self.allowed()))
        if not self.minimum <= raw <= self.maximum:
            raise InputError(self.name, f"must be {self.allowed()}; received {number(raw)}.")
        return raw

    def form(self) -> dict[str, Any]:
        return {**super().form(), "min": self.minimum, "max": self.maximum, "step": 1}


@dataclass(frozen=True)
class NumberField(Field):
    """A finite number; ``minimum`` is exclusive when ``exclusive_minimum`` is set."""

    minimum: float = 0.0
    maximum: float = 1e6
    exclusive_minimum: bool = False
    unit: str = ""
    kind: str = field(default="number", init=False)

    def allowed(self) -> str:
        low = "more than" if self.exclusive_minimum else "at least"
        unit = f" {self.unit}" if self.unit else ""
        return f"a number {low} {number(self.minimum)} and at most {number(self.maximum)}{unit}"

    def coerce(self, raw: Any) -> float:
        if isinstance(raw, bool) or not isinstance(raw, (int, float)):
            raise InputError(self.name, _not_a_number(raw, self.allowed()))
        # compared before any conversion: a 400-digit integer never becomes a float
        finite = isinstance(raw, int) or math.isfinite(raw)
        too_low = raw <= self.minimum if self.exclusive_minimum else raw < self.minimum
        if not finite or too_low or raw > self.maximum:
            raise InputError(self.name, f"must be {self.allowed()}; received {describe(raw)}.")
        return raw

    def form(self) -> dict[str, Any]:
        return {**super().form(), "min": self.minimum, "max": self.maximum, "step": "any",
                "unit": self.unit}


@dataclass(frozen=True)
class ChoiceField(Field):
    """One value from a closed list; ``choices`` pairs each value with its label."""

    choices: tuple[tuple[Any, str], ...] = ()
    #: label of the empty option an optional choice offers in the form
    none_label: str = "(none)"
    kind: str = field(default="choice", init=False)

    def values(self) -> list[Any]:
        return [value for value, _ in self.choices]

    def allowed(self) -> str:
        labels = [label for _, label in self.choices]
        if len(labels) > 12:
            return f"one of the {len(labels)} choices in the list"
        return "one of: " + "; ".join(labels)

    def label_of(self, value: Any) -> str:
        """The label the form shows for ``value``."""
        return next((label for v, label in self.choices
                     if v == value and type(v) is type(value)), describe(value))

    def coerce(self, raw: Any) -> Any:
        if isinstance(raw, float) and math.isfinite(raw) and raw.is_integer():
            raw = int(raw)  # the one number rule: 8.0 is the whole number 8
        for value in self.values():
            if raw == value and type(raw) is type(value):
                return value
        if isinstance(raw, str) and not raw.strip():
            raise InputError(self.name, f"is empty: choose {self.allowed()}.")
        raise InputError(self.name, f"must be {self.allowed()}; received {describe(raw)}.")

    def form(self) -> dict[str, Any]:
        numeric = all(isinstance(v, int) and not isinstance(v, bool) for v in self.values())
        return {**super().form(), "choices": [[v, label] for v, label in self.choices],
                "none_label": self.none_label, "numeric": numeric}


@dataclass(frozen=True)
class BoolField(Field):
    """Yes or no."""

    kind: str = field(default="bool", init=False)

    def allowed(self) -> str:
        return "true or false"

    def coerce(self, raw: Any) -> bool:
        if not isinstance(raw, bool):
            raise InputError(self.name, f"must be true or false; received {describe(raw)}.")
        return raw


@dataclass(frozen=True)
class TextField(Field):
    """Free text (or structured JSON) turned into a value by ``parse``.

    ``parse`` receives the raw value (a string typed in the form, or the structured
    JSON a program sends) and raises :class:`InputError` for this field's name (or a
    place below it, ``name.2``).
    """

    parse: Callable[[str, Any], Any] | None = None
    placeholder: str = ""
    #: longest text accepted, in characters (a pasted or uploaded file may need more)
    max_length: int = MAX_TEXT
    #: items a person may add to the list written in this field by picking them, offered
    #: beside it: (group, ((text added, what the pick says), ...)) each
    picks: tuple[tuple[str, tuple[tuple[str, str], ...]], ...] = ()
    #: what the pick list says before anything is picked
    pick_label: str = ""
    kind: str = field(default="text", init=False)

    def allowed(self) -> str:
        if self.parse is None:
            return f"text of at most {self.max_length:,} characters"
        example = self.placeholder or (self.initial if isinstance(self.initial, str) else "")
        return f"a value such as {example}" if example and len(example) <= 40 else "a value"

    def coerce(self, raw: Any) -> Any:
        if isinstance(raw, str):
            if len(raw) > self.max_length:
                raise InputError(self.name, f"is too long ({len(raw):,} characters); at most "
                                            f"{self.max_length:,} are accepted.")
            if not is_valid_unicode(raw):
                raise InputError(self.name, "contains a character that is not valid Unicode "
                                            "(a lone surrogate); retype or paste it again.")
        if self.parse is None:
            if not isinstance(raw, str):
                raise InputError(self.name, f"must be text; received {describe(raw)}.")
            return raw
        return self.parse(self.name, raw)

    def form(self) -> dict[str, Any]:
        picked = {"picks": [[group, [list(o) for o in options]] for group, options in self.picks],
                  "pick_label": self.pick_label} if self.picks else {}
        return {**super().form(), "placeholder": self.placeholder, **picked}


@dataclass(frozen=True)
class NameField(TextField):
    """A name: spaces collapsed, ``min_length`` to ``max_length`` characters, no control
    characters."""

    min_length: int = 1
    max_length: int = 80

    def allowed(self) -> str:
        return f"a name of {self.min_length} to {self.max_length} characters"

    def coerce(self, raw: Any) -> str:
        if not isinstance(raw, str):
            raise InputError(self.name, f"must be {self.allowed()}; received {describe(raw)}.")
        text = " ".join(raw.split())
        if len(text) < self.min_length:
            raise InputError(self.name, f"is empty: enter {self.allowed()}.")
        super().coerce(text)  # length and Unicode
        if any(ord(ch) < 32 or 0x7F <= ord(ch) < 0xA0 for ch in text):
            raise InputError(self.name, "contains control characters; use plain text.")
        return text


def initial_inputs(fields: tuple[Field, ...], overrides: Mapping[str, Any] | None = None
                   ) -> dict[str, Any]:
    """The inputs a widget starts with: each applicable field's starting value, or the
    override given for it (a page may start a widget on other inputs)."""
    overrides = overrides or {}
    values: dict[str, Any] = {}
    for f in fields:
        if not f.applies(values):
            if f.name in overrides:
                values[f.name] = overrides[f.name]  # validation will say it does not apply
            continue
        value = overrides.get(f.name, f.start)
        if value is not None:
            values[f.name] = value
    unknown = {k: v for k, v in overrides.items() if k not in {f.name for f in fields}}
    return {**values, **unknown}
