"""Cortex dice: the step ladder and typed or JSON pools with precise errors."""

from __future__ import annotations

import pytest

from rules_core.cortex.dice import (
    DieField,
    from_steps,
    parse_die,
    parse_pool,
    step_up,
    steps,
)
from rules_core.errors import InputError


def test_ladder_steps() -> None:
    assert [steps(s) for s in (4, 6, 8, 10, 12)] == [1, 2, 3, 4, 5]
    assert [from_steps(n) for n in (1, 2, 3, 4, 5, 9)] == [4, 6, 8, 10, 12, 12]
    assert step_up(6) == 8 and step_up(10) == 12 and step_up(12) == 12


@pytest.mark.parametrize("raw", ["d8 d6 d6", "8,6,6", "8, 6, 6", "d8+2d6", "2d6 d8", "[8, 6, 6]",
                                 [8, 6, 6], [6, "d8", "6"], "D8;D6;d6"])
def test_pool_accepts_text_and_json(raw: object) -> None:
    assert parse_pool("attacker", raw) == [8, 6, 6]


@pytest.mark.parametrize("raw, field, words", [
    ([8, 6, 6, 7], "attacker.4", "received 7"),
    ("d8 d6 d6 d20", "attacker.4", "d12 is the largest"),
    ("d8 d5", "attacker.2", "even sizes"),
    ([8, True], "attacker.2", "received true"),
    ("d8 x", "attacker", '"x"'),
    ("", "attacker", "at least 1"),
    ([], "attacker", "at least 1"),
    (8, "attacker", "a list of dice"),
    ("13d6", "attacker", "at most 12"),
    ("[8, 6", "attacker", "could not read"),
])
def test_pool_errors_name_the_field_and_position(raw: object, field: str, words: str) -> None:
    with pytest.raises(InputError) as err:
        parse_pool("attacker", raw)
    assert err.value.field == field
    assert words in err.value.message


def test_die_field_accepts_form_text() -> None:
    f = DieField("tactics", "Tactics")
    assert f.coerce("8") == 8 and f.coerce("d10") == 10 and f.coerce(12) == 12
    with pytest.raises(InputError) as err:
        f.coerce("9")
    assert err.value.field == "tactics" and "d4, d6" in err.value.message
    assert parse_die("x", "D6") == 6
