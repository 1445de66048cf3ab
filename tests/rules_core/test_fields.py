"""The one validation layer: nested objects and lists, every problem collected with its
path, positions counted from 1, paths in words, and the same number rule everywhere."""

from __future__ import annotations

import pytest

from rules_core.errors import InputError
from rules_core.fields import (
    BoolField,
    ChoiceField,
    IntField,
    ListField,
    NameField,
    NumberField,
    ObjectField,
    TextField,
    in_words,
    validate,
    validate_all,
    where,
)
from rules_core.messages import describe, digits, nesting_depth, value_depth

MEMBER = ObjectField("member", "Member", fields=(
    NameField("name", "Member name", max_length=10),
    IntField("skill", "Skill", minimum=3, maximum=18),
    BoolField("leader", "Leader", default=False),
))
FIELDS = (
    ChoiceField("side", "Side", choices=(("red", "Red team"), ("blue", "Blue team"))),
    ListField("members", "Members", of=MEMBER, min_items=1, max_items=4, item="member"),
    ListField("rolls", "Rolls", of=IntField("roll", "Roll", minimum=1, maximum=6),
              default=[], item="die"),
)


def test_every_problem_is_collected_with_its_path() -> None:
    clean, errors = validate_all(FIELDS, {
        "side": "green",
        "members": [{"name": "Ann", "skill": 12}, {"name": "", "skill": 40, "extra": 1}],
        "rolls": [1, 7, True],
    })
    assert clean is None
    assert [e.field for e in errors] == ["side", "members.2.extra", "members.2.name",
                                         "members.2.skill", "rolls.2", "rolls.3"]


def test_paths_read_as_words() -> None:
    assert where(FIELDS, "members.2.skill") == "Members, the 2nd member, Skill"
    assert where(FIELDS, "rolls.3") == "Rolls, the 3rd die"
    assert where(FIELDS, "members") == "Members"
    _, errors = validate_all(FIELDS, {"side": "red", "members": [{"name": "A", "skill": 2}]})
    assert in_words(FIELDS, errors[0]).message == (
        "Members, the 1st member, Skill must be a whole number from 3 to 18; received 2.")


def test_valid_nested_data_comes_back_clean_with_defaults() -> None:
    clean = validate(FIELDS, {"side": "blue", "members": [{"name": "  Bo   Lee ", "skill": 9.0}]})
    assert clean == {"side": "blue", "members": [{"name": "Bo Lee", "skill": 9, "leader": False}],
                     "rolls": []}


def test_unknown_keys_from_a_newer_version_can_be_tolerated() -> None:
    tolerant = ObjectField("state", "State", unknown="ignore",
                           fields=(IntField("round", "Round", minimum=1, maximum=9),))
    assert tolerant.coerce({"round": 2, "added_later": True}) == {"round": 2}
    strict = ObjectField("state", "State", fields=tolerant.fields)
    with pytest.raises(Exception, match="not part of this data"):
        strict.coerce({"round": 2, "added_later": True})


def test_json_text_is_read_with_limits() -> None:
    as_text = ObjectField("state", "State", text=True, max_depth=3,
                          fields=(IntField("round", "Round", minimum=1, maximum=9),))
    assert as_text.coerce('{"round": 3}') == {"round": 3}
    for bad, words in [("{not json", "not valid JSON"), ('{"round": [[[[1]]]]}', "nested"),
                       ('{"round": ' + "9" * 5000 + "}", "digits")]:
        with pytest.raises(Exception, match=words):
            as_text.coerce(bad)


@pytest.mark.parametrize("field", [IntField("n", "N", minimum=0, maximum=10),
                                   NumberField("x", "X", minimum=0, maximum=10)])
def test_numbers_bool_text_and_huge(field) -> None:  # type: ignore[no-untyped-def]
    for bad in (True, False, "5", "", "abc", None, [1], 10**5000, -(10**5000), float("nan")):
        _, errors = validate_all((field,), {field.name: bad})
        assert errors, bad
    assert validate((field,), {field.name: 3.0}) == {field.name: 3.0}


def test_descriptions_never_fail() -> None:
    assert describe(10**5000) == "a 5,001-digit number"
    assert describe("\ud800x") == 'the text "\ufffdx"'
    assert describe("") == "empty text" and describe("  ") == "only spaces"
    assert describe(float("inf")) == "infinity" and describe(float("nan")).startswith("NaN")
    assert [digits(n) for n in (0, 9, 10, 10**15 - 1, 10**15, 10**5000)] == [1, 1, 2, 15, 16, 5001]


def test_depth_is_measured_without_recursion() -> None:
    # 5,000 deep: five times the recursion limit, and small enough that Pyodide's own
    # stack frees it (make test-pyodide runs this test too)
    value: object = 1
    for _ in range(5_000):
        value = [value]
    assert value_depth(value) == 33  # stops once past the limit
    assert nesting_depth('{"a": "[[[[", "b": [[1]]}') == 3


def test_a_default_is_checked_and_parsed_as_a_value_given() -> None:
    """A text field's default reaches the calculator parsed, as a typed value does (no
    calculator has to parse its own default), and a default that does not parse is a
    problem named like any other."""
    def numbers(name: str, raw: object) -> tuple[int, ...]:
        if not isinstance(raw, str) or not all(p.strip().isdigit() for p in raw.split(",")):
            raise InputError(name, f"Numbers: could not read {describe(raw)}.")
        return tuple(int(p) for p in raw.split(","))

    good = (TextField("n", "Numbers", default="1, 2", parse=numbers),)
    assert validate(good, {}) == {"n": (1, 2)} == validate(good, {"n": "1, 2"})
    bad = (TextField("n", "Numbers", default="x", parse=numbers),)
    _, errors = validate_all(bad, {})
    assert [(e.field, e.message) for e in errors] == [("n", "Numbers: could not read the text \"x\".")]
