"""The one exception type the core raises for bad input."""

from __future__ import annotations


class InputError(ValueError):
    """A user-supplied value is invalid.

    ``field`` names the input (dotted for nested values, e.g. ``members.2.cqb``);
    ``message`` says what was received, what is allowed and, where useful, a tip.
    """

    def __init__(self, field: str, message: str) -> None:
        super().__init__(f"{field}: {message}")
        self.field = field
        self.message = message
