"""2d6 combat phases: action roll odds against brute-force enumeration of 2d6 and 3d6,
the resolution function, the action-odds calculator and the random table pick."""

from __future__ import annotations

import itertools
import random
from collections import Counter
from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rules_core import api
from rules_core.phases.action import kept_dice, outcome_distribution, outcome_of, resolve
from rules_core.phases.calc_momentum import eligible, pick
from rules_core.phases.tables import EXAMPLE_TABLES, ExampleTable, Outcome, Phase


def brute_force(phase: Phase, dice: int) -> dict[Outcome, Fraction]:
    """Every ordered roll of ``dice`` d6, classified by hand from the rules text."""
    counts: Counter[Outcome] = Counter()
    for faces in itertools.product(range(1, 7), repeat=dice):
        ordered = sorted(faces, reverse=(phase is Phase.OFFENSE))
        a, b = ordered[:2]  # best two on offense, worst two on defence
        if a == b == 6:
            counts[Outcome.ULTRA] += 1
        elif a + b <= 6:
            counts[Outcome.FAILURE] += 1
        elif a + b <= 9:
            counts[Outcome.PARTIAL] += 1
        else:
            counts[Outcome.SUCCESS] += 1
    total = 6 ** dice
    return {o: Fraction(counts[o], total) for o in Outcome}


@pytest.mark.parametrize("phase", list(Phase))
@pytest.mark.parametrize("dice", [2, 3])
def test_distribution_matches_enumeration(phase: Phase, dice: int) -> None:
    assert outcome_distribution(phase, dice) == brute_force(phase, dice)


@pytest.mark.parametrize("phase", list(Phase))
def test_plain_2d6_is_15_15_5_1_in_36(phase: Phase) -> None:
    dist = outcome_distribution(phase, 2)
    assert [dist[o] * 36 for o in Outcome] == [15, 15, 5, 1]


def test_third_die_figures() -> None:
    off = outcome_distribution(Phase.OFFENSE, 3)
    dfn = outcome_distribution(Phase.DEFENCE, 3)
    assert [off[o] * 216 for o in Outcome] == [42, 97, 61, 16]
    assert [dfn[o] * 216 for o in Outcome] == [147, 58, 10, 1]
    # advantage helps and disadvantage hurts, outcome band by band from the top
    plain = outcome_distribution(Phase.OFFENSE, 2)
    assert off[Outcome.ULTRA] > plain[Outcome.ULTRA] > dfn[Outcome.ULTRA]
    assert off[Outcome.FAILURE] < plain[Outcome.FAILURE] < dfn[Outcome.FAILURE]


@given(st.sampled_from(list(Phase)), st.lists(st.integers(1, 6), min_size=2, max_size=3))
def test_resolve_keeps_two_and_classifies_them(phase: Phase, faces: list[int]) -> None:
    res = resolve(phase, faces)
    assert len(res.kept) == 2 and res.total == sum(res.kept)
    rest = sorted(faces)
    for kept in res.kept:
        rest.remove(kept)
    if rest:  # the dropped die is the worst on offense, the best on defence
        if phase is Phase.OFFENSE:
            assert rest[0] <= min(res.kept)
        else:
            assert rest[0] >= max(res.kept)
    assert res.outcome is outcome_of(res.kept)


def test_ultra_needs_two_kept_sixes() -> None:
    assert resolve(Phase.OFFENSE, [6, 1, 6]).outcome is Outcome.ULTRA
    assert resolve(Phase.DEFENCE, [6, 1, 6]).outcome is Outcome.PARTIAL  # keeps 1 and 6: 7
    assert kept_dice(Phase.DEFENCE, [6, 1, 6]) == (1, 6)
    assert resolve(Phase.DEFENCE, [6, 6, 6]).outcome is Outcome.ULTRA
    assert resolve(Phase.OFFENSE, [6, 5]).outcome is Outcome.SUCCESS  # 11: success, not ultra
    assert resolve(Phase.OFFENSE, [4, 3]).outcome is Outcome.PARTIAL
    assert resolve(Phase.OFFENSE, [3, 3]).outcome is Outcome.FAILURE
    assert resolve(Phase.OFFENSE, [5, 5]).outcome is Outcome.SUCCESS


@pytest.mark.parametrize("faces", [[6], [1, 2, 3, 4], [0, 3], [7, 1], [True, 2], ["6", 2]])
def test_resolve_refuses_bad_faces(faces: list) -> None:
    from rules_core.errors import InputError

    with pytest.raises(InputError):
        resolve(Phase.OFFENSE, faces)


# --- the calculator -------------------------------------------------------------------

def test_action_odds_api_contract() -> None:
    reply = api.run("phases.action_odds", {"phase": "offense", "dice": 2})
    result = reply["result"]
    assert [result[o + "_exact"] for o in ("failure", "partial", "success", "ultra")] == \
        ["5/12", "5/12", "5/36", "1/36"]
    assert result["ultra"] == pytest.approx(1 / 36)
    assert set(result["meaning"]) == {"failure", "partial", "success", "ultra"}
    assert "removed" in result["meaning"]["failure"]
    defence = api.run("phases.action_odds", {"phase": "defence", "dice": 3})["result"]
    assert defence["ultra_exact"] == "1/216" and "offense phase" in defence["meaning"]["ultra"]


@pytest.mark.parametrize("faces,outcome", [("6 4 2", "success"), ("6,6,1", "ultra"),
                                           ([1, 2, 6], "partial")])
def test_action_odds_reads_the_tables_roll(faces: object, outcome: str) -> None:
    reply = api.run("phases.action_odds", {"phase": "offense", "dice": 3, "faces": faces})
    assert reply["ok"] and reply["result"]["roll"]["outcome"] == outcome


@pytest.mark.parametrize("faces", ["6 4", "6 4 12", "a b c", [1, 2, 9]])
def test_action_odds_refuses_a_mismatched_roll(faces: object) -> None:
    reply = api.run("phases.action_odds", {"phase": "offense", "dice": 3, "faces": faces})
    assert not reply["ok"] and reply["error"]["field"] == "faces"


def test_action_roll_uses_the_resolution_function() -> None:
    rng = random.Random(7)
    for _ in range(200):
        reply = api.roll("phases.action_odds", {"phase": "defence", "dice": 3}, rng)
        faces = [d["face"] for d in reply["result"]["dice"]]
        assert reply["result"]["outcome"] == resolve(Phase.DEFENCE, faces).outcome.value


# --- complications and ultra successes ------------------------------------------------

def test_example_tables_have_seven_entries_each() -> None:
    assert {t: len(e) for t, e in EXAMPLE_TABLES.items()} == {ExampleTable.COMPLICATIONS: 7,
                                                              ExampleTable.ULTRA: 7}


def test_free_attack_only_on_defence() -> None:
    assert "A free attack" in eligible(ExampleTable.ULTRA, Phase.DEFENCE)
    assert "A free attack" not in eligible(ExampleTable.ULTRA, Phase.OFFENSE)
    reply = api.run("phases.table_pick", {"table": "ultra", "phase": "offense"})
    assert reply["result"]["die"] == "d6"
    assert sum(Fraction(p) for p in reply["result"]["chances_exact"].values()) == 1


def test_pick_goes_through_the_roll_and_covers_every_entry() -> None:
    rng = random.Random(3)
    seen = set()
    for _ in range(300):
        reply = api.roll("phases.table_pick", {"table": "complications", "phase": "defence"}, rng)
        face = reply["result"]["dice"][0]["face"]
        assert reply["result"]["entry"] == pick(ExampleTable.COMPLICATIONS, Phase.DEFENCE, face)
        seen.add(reply["result"]["entry"])
    assert len(seen) == 7
