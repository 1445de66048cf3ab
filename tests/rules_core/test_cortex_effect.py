"""Effect dice against an NPC unit: the source's example and every ruling."""

from __future__ import annotations

import pytest

from rules_core import api
from rules_core.cortex.effect import Rules, assign


def test_source_example_part2_one_taken_out_one_injury_one_lost() -> None:
    """Part II, Attack and Defense: d8, d6, d6 against d8 grunts."""
    done = assign([8, 6, 6], [8, 8, 8, 8], rules=Rules.PART2)
    assert done.taken_out == (8,)
    assert done.injury == 6
    assert done.unused == (6,)
    assert done.standing == (8, 8, 8)
    assert [s.action for s in done.log] == ["take_out", "injury", "unused"]


def test_source_example_through_the_api() -> None:
    reply = api.run("cortex.effect_dice", {"effect_dice": [8, 6, 6], "unit": [8, 8, 8, 8],
                                           "rules": "part2"})
    assert reply["ok"]
    result = reply["result"]
    assert result["taken_out"] == [8] and result["injury"] == 6 and result["unused"] == [6]
    assert len(result["log"]) == 3


def test_same_dice_under_part1_step_the_complication_into_a_second_kill() -> None:
    done = assign([8, 6, 6], [8, 8, 8, 8], rules=Rules.PART1)
    assert done.taken_out == (8, 8) and done.injury is None and done.unused == ()
    assert "1 surplus step lost" in done.log[-1].text


def test_lower_quality_members_go_first() -> None:
    done = assign([10], [12, 6, 10, 8])
    assert done.taken_out == (6,) and done.standing == (8, 10, 12)


def test_an_effect_die_equal_to_the_quality_die_takes_the_member_out() -> None:
    assert assign([6], [6]).taken_out == (6,)
    assert assign([4], [6]).taken_out == () and assign([4], [6]).injury == 4


@pytest.mark.parametrize("complication, die, unit, taken, injury", [
    # Ruling: steps are ladder positions (d4 = 1 ... d12 = 5) and add up.
    (4, 4, [8], (), 6),     # 1 + 1 = 2 steps: a d6 injury, still short of d8 (3)
    (6, 4, [8], (8,), None),  # 2 + 1 = 3 steps reaches d8: member out, injury cleared
    (4, 6, [10], (), 8),    # 1 + 2 = 3 steps: d8 injury, short of d10 (4)
    (8, 8, [12, 12], (12,), None),  # 3 + 3 = 6 >= 5: out, 1 surplus step lost
])
def test_complication_step_arithmetic_part1(complication: int, die: int, unit: list[int],
                                            taken: tuple[int, ...], injury: int | None) -> None:
    done = assign([die], unit, injury=complication, rules=Rules.PART1)
    assert done.taken_out == taken and done.injury == injury


def test_part1_order_is_chosen_for_the_attacker() -> None:
    # d4 + d6 twice makes two 3-step kills; applying largest first would manage one.
    done = assign([6, 6, 4, 4], [8, 8, 8], rules=Rules.PART1)
    assert done.taken_out == (8, 8) and done.unused == ()


def test_part2_may_step_an_injury_from_an_earlier_attack_once() -> None:
    done = assign([6, 4], [8, 8, 8], injury=6, rules=Rules.PART2)
    assert done.taken_out == (8,) and done.injury is None and done.unused == (4,)


def test_part2_with_an_old_injury_and_no_slot_left() -> None:
    # the d4 steps the old d4 injury to d6; the second d4 may not touch it again
    done = assign([4, 4], [8, 8], injury=4, rules=Rules.PART2)
    assert done.taken_out == () and done.injury == 6 and done.unused == (4,)


def test_surplus_lost_as_written_and_carried_in_the_cinematic_variant() -> None:
    assert assign([12], [6, 6, 6]).taken_out == (6,)
    carried = assign([12], [6, 6, 6], carry_surplus=True)  # 5 - 2 = 3 >= 2, then 1 < 2
    assert carried.taken_out == (6, 6) and carried.standing == (6,)
    assert assign([12], [4, 4, 4, 4, 4], carry_surplus=True).taken_out == (4, 4, 4, 4, 4)


def test_dice_after_the_unit_is_gone_are_unused() -> None:
    done = assign([10, 8, 6], [6])
    assert done.taken_out == (6,) and done.unused == (8, 6) and done.injury is None


@pytest.mark.parametrize("name, inputs, words", [
    ("cortex.effect_dice", {"effect_dice": "d6", "unit": "d8 d8", "complication": 8},
     "d4, d6 or None"),
    ("cortex.effect_dice", {"effect_dice": "d6", "unit": "d4 d8", "complication": 4},
     "only None"),
    ("cortex.odds", {"attacker": "d8 d8", "defender": "d6 d6", "unit": "d6 d10",
                     "complication": 10}, "d4 or None"),
    ("cortex.odds", {"attacker": "d8 d8", "defender": "d6 d6", "unit": "", "complication": 6},
     "needs a unit"),
    ("cortex.odds", {"attacker": "d8 d8", "defender": "d6 d6", "complication": 6},
     "needs a unit"),
])
def test_impossible_complications_are_refused(name: str, inputs: dict, words: str) -> None:
    """A complication that reaches a member's die would already have taken them out."""
    reply = api.run(name, inputs)
    assert not reply["ok"] and reply["error"]["field"] == "complication"
    assert words in reply["error"]["message"]
    assert "Injury the unit already has" in reply["error"]["message"]


def test_empty_unit_means_no_target() -> None:
    reply = api.run("cortex.odds", {"attacker": "d8 d8", "defender": "d6 d6", "unit": ""})
    assert reply["ok"] and "taken_out" not in reply["result"]
    assert reply["result"] == api.run("cortex.odds", {"attacker": "d8 d8",
                                                      "defender": "d6 d6"})["result"]


@pytest.mark.parametrize("text", ["00d6", "0d8 d6", "d8, 0d4"])
def test_zero_dice_of_a_size_is_refused(text: str) -> None:
    reply = api.run("cortex.pool", {"pool": text})
    assert not reply["ok"] and reply["error"]["field"] == "pool"
    assert "no dice at all" in reply["error"]["message"]
