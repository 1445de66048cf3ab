"""Input fields: one declaration drives validation, the command line and the widget form.

:mod:`rules_core.fields.base` holds the single-value fields (numbers, choices, text) and
the starting inputs; :mod:`rules_core.fields.nested` the nested fields (objects and lists,
used by the stored-data readers) and the validator that collects every problem. This
package re-exports both, so ``rules_core.fields`` is the one API; ``nested`` imports
``base``, never the other way.
"""

from rules_core.fields.base import (
    INVALID,
    MAX_TEXT,
    REQUIRED,
    BoolField,
    ChoiceField,
    Field,
    IntField,
    NameField,
    NumberField,
    TextField,
    initial_inputs,
    noun_of,
)
from rules_core.fields.nested import ListField, ObjectField, in_words, validate, validate_all, where

__all__ = [
    "INVALID", "MAX_TEXT", "REQUIRED", "BoolField", "ChoiceField", "Field", "IntField",
    "ListField", "NameField", "NumberField", "ObjectField", "TextField",
    "in_words", "initial_inputs", "noun_of", "validate", "validate_all", "where",
]
