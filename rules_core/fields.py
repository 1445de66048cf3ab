"""Input fields: one declaration drives validation, the command line and the widget form.

Each calculator lists its fields; :func:`validate` turns a raw JSON object into clean
values or raises :class:`InputError` naming the field, what was received and what is
allowed. The widget form is rendered from the same declarations, so the page and the
core cannot disagree about names, ranges or choices.
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from rules_core.errors import InputError

MAX_TEXT = 2000  # longest text input accepted, in characters


class _Required:
    """Marker: the field has no default and must be given."""

    def __repr__(self) -> str:
        return "REQUIRED"


REQUIRED: Any = _Required()


def number(value: float) -> str:
    """A number for messages: 1000000 rather than 1e+06, 12.5 as is."""
    if float(value).is_integer() and abs(value) < 1e15:
        return str(int(value))
    return f"{value:g}"


def describe(value: Any) -> str:
    """A short, safe rendering of a received value for error messages."""
    if value is None:
        return "nothing (null)"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        shown = value if len(value) <= 40 else value[:37] + "..."
        return f'the text "{shown}"'
    if isinstance(value, (int, float)):
        return repr(value)
    if isinstance(value, list):
        return f"a list of {len(value)} items"
    if isinstance(value, dict):
        return "an object"
    return f"a value of type {type(value).__name__}"


@dataclass(frozen=True)
class Field:
    """Base declaration of one input.

    ``default`` is used when the field is absent (``REQUIRED``: it must be given);
    ``initial`` is the value the widget form starts with (falls back to ``default``).
    ``shown_if`` names another field and the values for which this one applies; the
    form hides it otherwise and the core treats it as absent.
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
    kind: str = field(default="text", init=False)

    def coerce(self, raw: Any) -> Any:  # pragma: no cover - overridden
        raise NotImplementedError

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

    def coerce(self, raw: Any) -> int:
        if isinstance(raw, bool) or not isinstance(raw, (int, float)):
            raise InputError(
                self.name,
                f"expected a whole number from {self.minimum} to {self.maximum}, "
                f"received {describe(raw)}.",
            )
        if isinstance(raw, float):
            if not math.isfinite(raw) or raw != int(raw):
                raise InputError(
                    self.name,
                    f"expected a whole number from {self.minimum} to {self.maximum}, "
                    f"received {describe(raw)}.",
                )
            raw = int(raw)
        if not self.minimum <= raw <= self.maximum:
            raise InputError(
                self.name,
                f"must be from {self.minimum} to {self.maximum}, received {raw}.",
            )
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

    def _allowed(self) -> str:
        low = "more than" if self.exclusive_minimum else "at least"
        unit = f" {self.unit}" if self.unit else ""
        return f"a number {low} {number(self.minimum)} and at most {number(self.maximum)}{unit}"

    def coerce(self, raw: Any) -> float:
        if isinstance(raw, bool) or not isinstance(raw, (int, float)):
            raise InputError(self.name, f"expected {self._allowed()}, received {describe(raw)}.")
        if not math.isfinite(raw):
            raise InputError(self.name, f"expected {self._allowed()}, received {describe(raw)}.")
        too_low = raw <= self.minimum if self.exclusive_minimum else raw < self.minimum
        if too_low or raw > self.maximum:
            raise InputError(self.name, f"must be {self._allowed()}, received {number(raw)}.")
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

    def coerce(self, raw: Any) -> Any:
        for value in self.values():
            if raw == value and type(raw) is type(value):
                return value
        allowed = ", ".join(str(v) for v in self.values())
        raise InputError(self.name, f"must be one of {allowed}; received {describe(raw)}.")

    def form(self) -> dict[str, Any]:
        numeric = all(isinstance(v, int) and not isinstance(v, bool) for v in self.values())
        return {**super().form(), "choices": [[v, label] for v, label in self.choices],
                "none_label": self.none_label, "numeric": numeric}


@dataclass(frozen=True)
class BoolField(Field):
    """Yes or no."""

    kind: str = field(default="bool", init=False)

    def coerce(self, raw: Any) -> bool:
        if not isinstance(raw, bool):
            raise InputError(self.name, f"expected true or false, received {describe(raw)}.")
        return raw


@dataclass(frozen=True)
class TextField(Field):
    """Free text (or structured JSON) turned into a value by ``parse``.

    ``parse`` receives the raw value (a string typed in the form, or the structured
    JSON a program sends) and raises :class:`InputError` for this field's name.
    """

    parse: Callable[[str, Any], Any] | None = None
    placeholder: str = ""
    #: longest text accepted, in characters (a pasted or uploaded file may need more)
    max_length: int = MAX_TEXT
    kind: str = field(default="text", init=False)

    def coerce(self, raw: Any) -> Any:
        if isinstance(raw, str) and len(raw) > self.max_length:
            raise InputError(
                self.name,
                f"is too long ({len(raw)} characters); at most {self.max_length} are accepted.",
            )
        if self.parse is None:
            if not isinstance(raw, str):
                raise InputError(self.name, f"expected text, received {describe(raw)}.")
            return raw
        return self.parse(self.name, raw)

    def form(self) -> dict[str, Any]:
        return {**super().form(), "placeholder": self.placeholder}


def list_items(field: str, raw: Any, what: str) -> list[Any]:
    """A list typed into a text input or sent as JSON: a JSON list, a JSON list written
    as text, or text separated by commas (or semicolons). ``what`` names the items in
    the error message ("members", "names")."""
    items = raw
    if isinstance(raw, str):
        text = raw.strip()
        if text.startswith("["):
            try:
                items = json.loads(text)
            except ValueError:
                raise InputError(field, f"could not read {describe(raw)} as JSON.") from None
        else:
            items = [p.strip() for p in text.replace(";", ",").split(",") if p.strip()]
    if not isinstance(items, list):
        raise InputError(field, f"expected a list of {what}, received {describe(raw)}.")
    return items


def validate(fields: tuple[Field, ...], raw: Any) -> dict[str, Any]:
    """Check a raw JSON object against ``fields``; return clean values.

    Unknown fields are errors. A field whose ``shown_if`` condition is not met must be
    absent or null; its value is then ``None``. Absent (or null) means: ``None`` for
    an optional field, the default where there is one, else an error.
    """
    if not isinstance(raw, Mapping):
        raise InputError("inputs", f"expected a JSON object of inputs, received {describe(raw)}.")
    known = {f.name: f for f in fields}
    for key in raw:
        if key not in known:
            names = ", ".join(known) or "none"
            shown = key if isinstance(key, str) and len(key) <= 40 else str(key)[:37] + "..."
            if not str(shown).strip():
                raise InputError("inputs", f"has an input with a blank name; the inputs are: {names}.")
            raise InputError(str(shown), f"is not an input of this calculator; the inputs are: {names}.")
    clean: dict[str, Any] = {}
    for f in fields:  # fields are declared so that controlling fields come first
        value = raw.get(f.name)
        if f.shown_if is not None:
            other, values = f.shown_if
            if clean.get(other) not in values:
                if value is not None:
                    raise InputError(
                        f.name,
                        f"applies only when {other} is "
                        f"{' or '.join('empty' if v is None else str(v) for v in values)}; "
                        f"leave it out otherwise.",
                    )
                clean[f.name] = None
                continue
        if value is None:
            if f.optional:
                clean[f.name] = None
            elif f.default is REQUIRED:
                raise InputError(f.name, f"is required: {f.label.lower()} was not given.")
            else:
                clean[f.name] = f.default
            continue
        clean[f.name] = f.coerce(value)
    return clean


def initial_inputs(fields: tuple[Field, ...], overrides: Mapping[str, Any] | None = None
                   ) -> dict[str, Any]:
    """The inputs a widget starts with: each applicable field's starting value, or the
    override given for it (a page may start a widget on other inputs)."""
    overrides = overrides or {}
    values: dict[str, Any] = {}
    for f in fields:
        if f.shown_if is not None and values.get(f.shown_if[0]) not in f.shown_if[1]:
            if f.name in overrides:
                values[f.name] = overrides[f.name]  # validation will say it does not apply
            continue
        value = overrides.get(f.name, f.start)
        if value is not None:
            values[f.name] = value
    unknown = {k: v for k, v in overrides.items() if k not in {f.name for f in fields}}
    return {**values, **unknown}
