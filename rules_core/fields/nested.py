"""Nested fields and the collecting validator: objects and lists of fields, every
problem listed with its path, and paths turned into words.

Built on :mod:`rules_core.fields` (import the names from there). Positions in paths count
from 1 (``units.2.stats.armor`` is the 2nd unit's armor), as the words say.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from rules_core.errors import InputError
from rules_core.fields.base import INVALID, REQUIRED, ChoiceField, Field
from rules_core.messages import (
    MAX_DEPTH,
    describe,
    humanize,
    parse_json,
    plural,
    position,
    safe_text,
    sentence,
    value_depth,
)


def _collect_object(fields: tuple[Field, ...], raw: Mapping[str, Any], prefix: str,
                    errors: list[InputError], unknown: str) -> dict[str, Any]:
    """Every field of an object checked, problems appended to ``errors``; ``prefix`` is
    the object's path ("" at the top). Unknown keys are errors unless ``unknown`` is
    "ignore" (data from a newer version)."""
    known = {f.name: f for f in fields}
    if unknown != "ignore":
        for key in raw:
            if key not in known:
                names = ", ".join(known) or "none"
                shown = safe_text(str(key)).strip()
                path = f"{prefix}.{shown}" if prefix else shown or "inputs"
                if prefix:
                    errors.append(InputError(path, "is not part of this data; remove it (the "
                                                   "data may come from a newer version)."))
                elif not shown:
                    errors.append(InputError(path, f"has an input with a blank name; the inputs "
                                                   f"are: {names}."))
                else:
                    errors.append(InputError(path, f"is not an input of this calculator; the "
                                                   f"inputs are: {names}."))
    clean: dict[str, Any] = {}
    failed: set[str] = set()
    for f in fields:  # fields are declared so that controlling fields come first
        path = f"{prefix}.{f.name}" if prefix else f.name
        value = raw.get(f.name)
        if f.shown_if is not None:
            other, values = f.shown_if
            if other in failed:
                failed.add(f.name)
                continue
            if not f.applies(clean):
                if value is not None:
                    control = known.get(other)
                    shown = " or ".join(
                        "left empty" if v is None else
                        f'"{control.label_of(v)}"' if isinstance(control, ChoiceField)
                        else describe(v)
                        for v in values)
                    what = control.label if control else humanize(other)
                    errors.append(InputError(path, f'applies only when "{what}" is {shown}; '
                                                   "leave it out otherwise."))
                    failed.add(f.name)
                clean[f.name] = None
                continue
        if value is None:
            if f.optional:
                clean[f.name] = None
                continue
            if f.default is REQUIRED:
                errors.append(InputError(path, f"is required: enter {f.allowed()}."))
                failed.add(f.name)
                continue
            value = f.default  # checked and parsed as a value given would be
        result = f.collect(value, path, errors)
        if result is INVALID:
            failed.add(f.name)
        else:
            clean[f.name] = result
    return clean


@dataclass(frozen=True)
class _Nested(Field):
    """A field holding other values: ``collect`` does the work and lists every problem;
    ``coerce`` raises the first."""

    def coerce(self, raw: Any) -> Any:
        errors: list[InputError] = []
        clean = self.collect(raw, self.name, errors)
        if errors:
            raise errors[0]
        return clean


@dataclass(frozen=True)
class ObjectField(_Nested):
    """A JSON object (or its JSON text when ``text`` is set) of named ``fields``.

    ``unknown="ignore"`` tolerates keys it does not know (data written by a newer
    version); otherwise each unknown key is an error."""

    fields: tuple[Field, ...] = ()
    unknown: str = "error"
    text: bool = False
    max_depth: int = MAX_DEPTH
    kind: str = field(default="object", init=False)

    def allowed(self) -> str:
        return "an object"

    def collect(self, raw: Any, path: str, errors: list[InputError]) -> Any:
        if isinstance(raw, str) and self.text:
            try:
                raw = parse_json(raw, path, self.max_depth)
            except InputError as err:
                errors.append(err)
                return INVALID
        if not isinstance(raw, Mapping):
            errors.append(InputError(path, f"must be {self.allowed()}; received {describe(raw)}."))
            return INVALID
        before = len(errors)
        clean = _collect_object(self.fields, raw, path, errors, self.unknown)
        return INVALID if len(errors) > before else clean

    def words(self, rest: list[str]) -> list[str]:
        if not rest:
            return []
        sub = next((f for f in self.fields if f.name == rest[0]), None)
        if sub is None:
            return [humanize(rest[0])] + Field.words(self, rest[1:])
        if len(rest) > 1 and isinstance(sub, (ObjectField, ListField)):
            return sub.words(rest[1:])  # "the 2nd unit, Armor", not "Units, the 2nd unit"
        return [sub.label] + sub.words(rest[1:])


@dataclass(frozen=True)
class ListField(_Nested):
    """A JSON list of ``min_items`` to ``max_items`` values, each checked by ``of`` (a
    field whose own name is not used); ``item`` names one entry in messages."""

    of: Field | None = None
    min_items: int = 0
    max_items: int = 100
    kind: str = field(default="list", init=False)

    def allowed(self) -> str:
        return f"a list of {self.min_items} to {self.max_items} {plural(self.noun())}"

    def collect(self, raw: Any, path: str, errors: list[InputError]) -> Any:
        if not isinstance(raw, (list, tuple)):
            errors.append(InputError(path, f"must be {self.allowed()}; received {describe(raw)}."))
            return INVALID
        if not self.min_items <= len(raw) <= self.max_items:
            errors.append(InputError(path, f"must be {self.allowed()}; received "
                                           f"{describe(raw)}."))
            return INVALID
        if self.of is None:
            return list(raw)
        before = len(errors)
        items = [self.of.collect(value, f"{path}.{i}", errors)
                 for i, value in enumerate(raw, start=1)]
        return INVALID if len(errors) > before else items

    def words(self, rest: list[str]) -> list[str]:
        if not rest:
            return []
        if not rest[0].isdigit():
            return Field.words(self, rest)
        inner = self.of.words(rest[1:]) if self.of is not None else Field.words(self, rest[1:])
        return [position(rest[0], self.noun())] + inner


def validate_all(fields: tuple[Field, ...], raw: Any) -> tuple[dict[str, Any] | None,
                                                              list[InputError]]:
    """Check a raw JSON object against ``fields``: (clean values, []) or (None, every
    problem in field order).

    Unknown fields are errors. A field whose ``shown_if`` condition is not met must be
    absent or null; its value is then ``None``. Absent (or null) means: ``None`` for
    an optional field, the default where there is one (checked and parsed as a value
    given: a text field's default reaches the calculator parsed), else an error.
    """
    if not isinstance(raw, Mapping):
        return None, [InputError("inputs", f"must be a JSON object of inputs; received "
                                           f"{describe(raw)}.")]
    depth = value_depth(raw)
    if depth > MAX_DEPTH:
        return None, [InputError("inputs", f"are nested more than {MAX_DEPTH} levels deep; "
                                           "no calculator takes inputs that deep.")]
    errors: list[InputError] = []
    clean = _collect_object(fields, raw, "", errors, "error")
    return (None, errors) if errors else (clean, [])


def validate(fields: tuple[Field, ...], raw: Any) -> dict[str, Any]:
    """Clean values, or the first problem :func:`validate_all` finds raised."""
    clean, errors = validate_all(fields, raw)
    if errors:
        raise errors[0]
    assert clean is not None
    return clean


#: places that are not a field, in words
_PLACES = {"inputs": "the inputs", "name": "the calculator's name", "request": "the request",
           "op": "the operation", "file": "the file"}


def where(fields: tuple[Field, ...], path: str) -> str:
    """A path in words: ``attacker.2`` -> "Attacker dice, the 2nd die"."""
    head, *rest = path.split(".")
    top = next((f for f in fields if f.name == head), None)
    if top is None:
        return _PLACES.get(path) or f'the input "{safe_text(path)}"'
    return ", ".join([top.label, *top.words(rest)])


def in_words(fields: tuple[Field, ...], err: InputError) -> InputError:
    """The same error with its message as a sentence that names the place in words
    (as it is, when the message already starts with the place or the field's label,
    "(optional)" and other notes in brackets left out)."""
    place = where(fields, err.field)
    bare = re.sub(r"\s*\([^)]*\)", "", place)
    if err.message.lower().startswith((place.lower(), bare.lower())):
        return err
    return InputError(err.field, sentence(place, err.message))


