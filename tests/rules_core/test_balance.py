"""Make it a fair fight (issue 45): the search of one input of a whole fight, checked
against every value of the range worked out by the whole fight itself, its ``check``
re-run through the whole fight, and its refusals."""

from __future__ import annotations

import json
from typing import Any

import pytest

from rules_core import api
from rules_core.balance.search import LEVELS, Outcome, Search, field_variable
from rules_core.calculator import Calculator
from rules_core.cortex.calc_firefights_balance import SPEC as CORTEX
from rules_core.fields import IntField
from rules_core.gunplay.calc_bursts_balance import SPEC as GUNPLAY
from rules_core.heroic.calc_groups_balance import SPEC as HEROIC
from rules_core.phases.calc_momentum_balance import SPEC as PHASES
from rules_core.sucs.calc_actions_balance import SPEC as SUCS
from rules_core.sucs.calc_roster_balance import SPEC as ARMY
from rules_core.sucs.calc_roster_balance import scaled_counts
from rules_core.sucs.calc_roster_battle import GUNNERS, MAX_BATTLE_UNITS, RIFLES, VETERANS, starter


def engagement_chance(system: str, inputs: dict[str, Any], outcome: str) -> float:
    """The chance the whole fight gives ``outcome``: one of its own outcomes, or one it adds
    up (``summed``)."""
    result = api.run(SPECS[system].fight.name, inputs)
    assert result["ok"], result
    named = {**result["result"]["outcomes"], **result["result"].get("summed", {})}
    assert outcome in named, (outcome, sorted(named))
    return float(named[outcome])


def balance(system: str, fight: dict[str, Any], **given: Any) -> dict[str, Any]:
    reply = api.run(SPECS[system].name, {"fight": json.dumps(fight), **given})
    assert reply["ok"], reply
    return reply["result"]


def assert_nearest_and_checked(system: str, fight: dict[str, Any], vary: str, low: int,
                               high: int, **given: Any) -> dict[str, Any]:
    """The value found is the nearest of every value of the range, each worked out by the
    whole fight; its check holds when the whole fight is run on its inputs."""
    found = balance(system, fight, vary=vary, low=low, high=high, **given)
    check = found["check"]
    var = SPECS[system].variable(vary)
    put = var.put
    every = {v: engagement_chance(system, put(fight, v), check["outcome"])
             for v in range(low, high + 1, var.step)}
    wanted = found["wanted"]
    best = min(abs(p - wanted) for p in every.values())
    # nearest to within what the points' answers allow: exact ones exactly; a pruned walk
    # (a fight past the exact walk's budget) within its bound, for the value and its rival
    slack = 2 * max([p.get("error") or 0.0 for p in found["tried"] if p["method"] == "pruned"]
                    + [1e-12])
    assert slack <= 2e-6 + 1e-12
    assert abs(every[found["value"]] - wanted) <= best + slack, (found, every)
    # every point of the curve is the whole fight's own answer: exact ones exactly; a quick
    # simulation of the first curve (left as it is away from the line) within its error
    for point in found["tried"]:
        if point["method"] == "exact":
            assert point["chance"] == pytest.approx(every[point["value"]], abs=1e-12)
        elif point["method"] == "pruned":
            assert abs(point["chance"] - every[point["value"]]) <= point["error"], point
        else:
            # a simulation's 95% interval misses one time in twenty (a seeded one always
            # the same way); twice its half-width, about once in 15,000
            assert abs(point["chance"] - every[point["value"]]) <= 2 * point["error"], point
    assert found["curve"] == {str(p["value"]): p["chance"] for p in
                              sorted(found["tried"], key=lambda p: p["value"])}
    assert check["inputs"] == put(fight, found["value"])
    again = engagement_chance(system, check["inputs"], check["outcome"])
    assert abs(again - check["chance"]) <= check["precision"] + 1e-12
    return found


#: each balance by a short name: a system's engagement's, and the SUCS army battle's
SPECS = {"heroic": HEROIC, "sucs": SUCS, "gunplay": GUNPLAY, "cortex": CORTEX, "phases": PHASES,
         "sucs army": ARMY}
HEROIC_SMALL = {**api.spec("heroic.engagement")["initial"], "b_members": 2, "a_hp": 6, "b_hp": 8,
                "max_rounds": 6}


def test_heroic_the_value_found_is_the_nearest_of_every_value() -> None:
    found = assert_nearest_and_checked("heroic", HEROIC_SMALL, "a_members", 1, 14,
                                       outcome="b", wanted="even")
    assert found["method"] == "exact" and found["check"]["precision"] == 0
    # a range wider than the first curve: the search halved gaps rather than try them all
    assert len(found["tried"]) < 14 and found["steady"]
    assert found["check"]["outcome"] == "Orcs beaten"
    fight = api.run("heroic.engagement", found["check"]["inputs"])["result"]
    assert fight["summed"]["Orcs beaten"] == pytest.approx(
        fight["outcomes"]["Orcs wiped out"] + fight["outcomes"]["Orcs broken"])
    assert [n["value"] for n in found["neighbours"]] == [found["value"] - 1, found["value"] + 1]


@pytest.mark.parametrize("wanted", ["hard", "deadly", "0.4", "30%"])
def test_heroic_other_wanted_chances(wanted: str) -> None:
    assert_nearest_and_checked("heroic", HEROIC_SMALL, "a_members", 1, 12, outcome="a",
                               wanted=wanted)


def test_heroic_default_search_is_simulated_said_so_and_checked() -> None:
    """The page's search: the source's knights, the orcs' number varied over 1-40, even."""
    spec = api.spec("heroic.balance")
    reply = api.run("heroic.balance", spec["initial"])
    assert reply["ok"], reply
    found = reply["result"]
    assert found["vary"] == "a_members" and found["low"] == 1 and found["high"] == 40
    check = found["check"]
    assert check["chance"] == pytest.approx(found["chance"])
    again = engagement_chance("heroic", check["inputs"], check["outcome"])
    assert abs(again - check["chance"]) <= check["precision"]
    assert found["method"] == "simulation" and 0 < check["precision"] < 0.02
    assert abs(found["chance"] - 0.5) < 0.1
    # the neighbours step over the line: one above the wanted chance, one below
    below, above = found["neighbours"]
    assert below["chance"] > 0.5 > above["chance"]
    assert "simulated" in reply["explanation"] and "first curve" in reply["explanation"]
    assert any(t["why"] == "halving the gap" for t in found["tried"])


def _toy(curve: dict[int, float]) -> Calculator:
    """A made-up exact "whole fight" whose chance of "yes" is ``curve`` of its input."""
    def compute(inputs: dict[str, Any]) -> dict[str, Any]:
        p = curve[inputs["x"]]
        return {"outcomes": {"yes": p, "no": 1 - p}, "method": "exact"}
    return Calculator(name="toy.engagement", title="Toy", summary="", fields=(
        IntField("x", "X", minimum=min(curve), maximum=max(curve)),),
        compute=compute, explain=lambda i, r: "", headline=lambda r: [])


def test_a_curve_that_turns_is_said_and_every_crossing_found() -> None:
    # rises over the line, falls under it, rises over it again: three crossings
    values = [0.1, 0.2, 0.35, 0.55, 0.7, 0.6, 0.45, 0.3, 0.2, 0.3, 0.45, 0.52, 0.6, 0.7, 0.8,
              0.85, 0.9, 0.92, 0.95, 0.97]
    curve = dict(enumerate(values, 1))
    calc = _toy(curve)
    search = Search(calc, {"x": 1}, field_variable(calc.fields, "x"), ("yes",), 0.5, 1, 20).settle()
    assert not search.steady()
    crossings = [(a.value, b.value) for a, b in search.crossings()]
    assert crossings == [(3, 4), (6, 7), (11, 12)]
    best = min(abs(p - 0.5) for p in curve.values())
    assert search.found is not None and abs(search.found.chance - 0.5) == pytest.approx(best)


def test_the_search_sharpens_step_by_step_and_each_answer_is_whole() -> None:
    """As the browser runs it: a first answer with a curve, then more points, then the
    settled answer with its check (the same protocol as a fight's refinement)."""
    started = api.begin("heroic.balance", {"fight": json.dumps(HEROIC_SMALL), "vary": "a_members",
                                           "low": 1, "high": 14})
    assert isinstance(started, api.Sharpening)
    replies = []
    while not started.done:
        reply = started.step(0.01)
        if reply is not None:
            assert reply["ok"], reply
            replies.append(reply)
    assert len(replies) >= 3
    sizes = [len(r["result"]["curve"]) for r in replies]
    assert sizes == sorted(sizes) and sizes[0] >= 1
    assert replies[0]["result"]["check"] is None and not replies[0]["result"]["settled"]
    last = replies[-1]["result"]
    assert last["settled"] and last["check"] is not None
    assert last == balance("heroic", HEROIC_SMALL, vary="a_members", low=1, high=14)


def test_levels_are_named_once() -> None:
    assert set(LEVELS) == {"even", "hard", "deadly"}
    assert all(0 < p < 1 for p, _ in LEVELS.values())


@pytest.mark.parametrize(("given", "field", "words"), [
    ({"vary": "a_name"}, "vary", "Input to vary"),
    ({"low": 9, "high": 3}, "high", "range is empty"),
    ({"wanted": "1.5"}, "wanted", "from 0 to 1"),
    ({"wanted": "-0.2"}, "wanted", "from 0 to 1"),
    ({"wanted": "often"}, "wanted", "even, hard, deadly"),
    ({"vary": "a_dr", "low": 0, "high": 100}, "high", "narrow the range"),
    ({"vary": "a_skill", "low": 1}, "low", "own range"),
    ({"fight": "{\"a_members\": 0}"}, "fight", "Side A: members"),
    ({"fight": "not json"}, "fight", "The fight"),
    ({"fight": "{\"zz\": 1}"}, "fight", "not an input"),
])
def test_bad_inputs_are_refused_naming_the_field(given: dict[str, Any], field: str, words: str) -> None:
    inputs = {**api.spec("heroic.balance")["initial"], **given}
    reply = api.run("heroic.balance", inputs)
    assert not reply["ok"]
    assert reply["error"]["field"] == field, reply
    assert words.lower() in reply["error"]["message"].lower(), reply


def test_the_command_line_runs_a_search(capsys: pytest.CaptureFixture[str]) -> None:
    from rules_core.__main__ import main
    code = main(["run", "heroic.balance", json.dumps({"fight": json.dumps(HEROIC_SMALL), "vary": "a_members",
                                                      "low": 1, "high": 6})])
    out = json.loads(capsys.readouterr().out)
    assert code == 0 and out["ok"] and out["result"]["check"]["inputs"]["a_members"] == out["result"]["value"]


def test_toy_outcome_of_several_names() -> None:
    calc = _toy({1: 0.2, 2: 0.4, 3: 0.6})
    out = Outcome("yes", "Yes", lambda fight: ("yes",))
    search = Search(calc, {"x": 1}, field_variable(calc.fields, "x"), out.names({}), 0.45, 1, 3).settle()
    assert search.found is not None and search.found.value == 2
    assert search.check() == {"inputs": {"x": 2}, "outcome": "yes", "chance": 0.4, "precision": 0.0}


SUCS_FIGHT = api.spec("sucs.engagement")["initial"]


@pytest.mark.parametrize(("vary", "outcome", "wanted"), [
    ("a_units", "a", "even"), ("b_units", "a", "hard"), ("a_quality", "b", "deadly"),
    ("b_cover", "a", "0.3"), ("a_markers", "a", "even"), ("b_markers", "b", "40%"),
])
def test_sucs_the_value_found_is_the_nearest_of_every_value(vary: str, outcome: str, wanted: str) -> None:
    var = SUCS.variable(vary)
    found = assert_nearest_and_checked("sucs", SUCS_FIGHT, vary, var.minimum, var.maximum,
                                       outcome=outcome, wanted=wanted)
    assert found["method"] == "exact" and found["check"]["outcome"] in ("Side A wins", "Side B wins")


def test_sucs_the_varied_units_are_written_as_the_engagement_reads_them() -> None:
    fight = {**SUCS_FIGHT, "side_a": "3/1/0 c1, 4/2x2/1 d"}
    assert SUCS.variable("a_units").put(fight, 3)["side_a"] == "3/1/0 c1, 4/2x2/1 d, 3/1/0 c1"
    assert SUCS.variable("a_units").put(fight, 1)["side_a"] == "3/1/0 c1"
    assert SUCS.variable("a_quality").put(fight, 5)["side_a"] == "5/1/0 c1, 5/2x2/1 d"
    assert SUCS.variable("a_cover").put(fight, 2)["side_a"] == "3/1/0 c2, 4/2x2/1 d c2"
    assert SUCS.variable("a_cover").put(fight, 0)["side_a"] == "3/1/0, 4/2x2/1 d"


def test_sucs_default_search_and_refusals() -> None:
    reply = api.run("sucs.balance", api.spec("sucs.balance")["initial"])
    assert reply["ok"], reply
    check = reply["result"]["check"]
    assert engagement_chance("sucs", check["inputs"], check["outcome"]) == pytest.approx(check["chance"])
    bad = api.run("sucs.balance", {**api.spec("sucs.balance")["initial"], "vary": "a_units", "high": 7})
    assert not bad["ok"] and bad["error"]["field"] == "high" and "own range" in bad["error"]["message"]
    bad = api.run("sucs.balance", {**api.spec("sucs.balance")["initial"], "vary": "side_a"})
    assert not bad["ok"] and bad["error"]["field"] == "vary"
    bad = api.run("sucs.balance", {**api.spec("sucs.balance")["initial"], "wanted": 2})
    assert not bad["ok"] and bad["error"]["field"] == "wanted"


DUEL = {**api.spec("gunplay.engagement")["initial"], "duel": "turns", "b_dc": 12, "b_bonus": 4,
        "b_burst": 3, "b_recoil": 2, "b_ammo": 30, "b_magazine": 0, "b_reload_actions": 1,
        "b_hits_needed": 3, "b_bursts_per_round": 1, "b_aim": 0}


@pytest.mark.parametrize(("system", "fight", "vary", "low", "high", "outcome", "wanted"), [
    ("gunplay", None, "ammo", 1, 30, "stopped", "even"),
    ("gunplay", None, "bonus", -10, 20, "stopped", "hard"),
    ("gunplay", None, "hits_needed", 1, 12, "not", "deadly"),
    ("gunplay", DUEL, "b_bonus", -5, 15, "stopped", "even"),
    ("cortex", None, "a_members", 1, 6, "a", "even"),
    ("cortex", None, "b_cover", 4, 12, "a", "hard"),
    ("cortex", None, "a_plot_points", 0, 3, "b", "0.1"),
    ("phases", None, "goal_spaces", 1, 20, "goal", "even"),
    ("phases", None, "offense_dice", 2, 7, "goal", "0.9"),
    ("phases", {"damage_limit": 5}, "damage_limit", 1, 12, "worn", "even"),
    ("phases", None, "damage_limit", 1, 12, "worn", "hard"),  # an optional input left empty
])
def test_exact_fights_the_value_found_is_the_nearest_of_every_value(
        system: str, fight: dict[str, Any] | None, vary: str, low: int, high: int, outcome: str,
        wanted: str) -> None:
    start = {**api.spec(f"{system}.engagement")["initial"], **(fight or {})}
    found = assert_nearest_and_checked(system, start, vary, low, high, outcome=outcome,
                                       wanted=wanted)
    assert found["method"] == "exact" and found["check"]["precision"] == 0
    step = SPECS[system].variable(vary).step
    assert all(int(v) % step == low % step for v in found["curve"])


def test_a_search_of_an_optional_input_left_empty_starts_at_its_smallest() -> None:
    reply = api.run("phases.balance", {**api.spec("phases.balance")["initial"], "vary": "damage_limit"})
    assert reply["ok"], reply
    assert reply["result"]["low"] == 1 and reply["result"]["check"]["inputs"]["damage_limit"] == reply["result"]["value"]


@pytest.mark.parametrize(("system", "given", "field"), [
    ("gunplay", {"vary": "ammo", "low": 1, "high": 200}, "high"),
    ("gunplay", {"vary": "b_ammo"}, "low"),  # the second shooter only in a duel
    ("cortex", {"vary": "a_cover", "low": 5}, "low"),  # not a die size
    ("cortex", {"vary": "a_members", "low": 4, "high": 2}, "high"),
    ("phases", {"vary": "goal_spaces", "wanted": "150%"}, "wanted"),
    ("phases", {"vary": "max_rounds", "low": 1, "high": 100}, "high"),
])
def test_exact_fights_refuse_bad_searches(system: str, given: dict[str, Any], field: str) -> None:
    reply = api.run(f"{system}.balance", {**api.spec(f"{system}.balance")["initial"], **given})
    assert not reply["ok"] and reply["error"]["field"] == field, reply


def test_a_side_beaten_is_one_outcome_of_the_heroic_fight_with_its_own_interval() -> None:
    """The Heroic balance's outcome is one name of the whole fight's result (its ``summed``):
    exact, the sum of the two outcomes it adds up; simulated, with its own 95% interval."""
    exact = api.run("heroic.engagement", HEROIC_SMALL)["result"]
    for side in ("Orcs", "Knights"):
        assert exact["summed"][f"{side} beaten"] == pytest.approx(
            exact["outcomes"][f"{side} wiped out"] + exact["outcomes"][f"{side} broken"])
    assert "summed_intervals" not in exact
    big = api.run("heroic.engagement", {**HEROIC_SMALL, "a_members": 40, "b_members": 40,
                                        "max_rounds": 100})["result"]
    assert big["method"] == "simulation"
    for name, p in big["summed"].items():
        low, high = big["summed_intervals"][name]
        assert low <= p <= high and high - low < 0.03


# ---- the army battle: a roster scaled --------------------------------------------------

@pytest.mark.parametrize("counts", [[1], [3], [2, 1], [4, 3, 2, 1], [1, 1, 5], [7, 1, 1, 1]])
def test_a_roster_scaled_keeps_its_own_size_its_lines_and_its_proportions(counts: list[int]) -> None:
    total, lines = sum(counts), len(counts)
    assert scaled_counts(counts, total) == counts
    for units in range(1, MAX_BATTLE_UNITS + 1):
        got = scaled_counts(counts, units)
        assert sum(got) == units and len(got) == lines
        # every line kept while there are units enough, else one unit at most a line
        assert min(got) >= 1 if units >= lines else set(got) <= {0, 1}
        # in proportion: a larger line never has fewer units than a smaller one
        assert all(k >= j for k, c in zip(got, counts) for j, d in zip(got, counts) if c > d)
        # scaled up, no line shrinks; scaled down, none grows; one unit more adds to one line
        assert all((k >= c) if units >= total else (k <= c) for k, c in zip(got, counts))
        if units > 1:
            assert sum(k - j for k, j in zip(got, scaled_counts(counts, units - 1))) == 1
            assert all(k >= j for k, j in zip(got, scaled_counts(counts, units - 1)))


def _army_fight(a: list[tuple[str, int, dict[str, Any]]], b: list[tuple[str, int, dict[str, Any]]],
                **over: Any) -> dict[str, Any]:
    return {**api.spec("sucs.roster_battle")["initial"], "roster_a": starter("Red", a),
            "roster_b": starter("Blue", b), **over}


SMALL_ARMIES = _army_fight([("Rifle squad", 2, RIFLES)], [("Veterans", 1, VETERANS), ("Gun team", 1, GUNNERS)],
                           turns=4)


@pytest.mark.parametrize(("vary", "low", "high", "outcome", "wanted"), [
    ("a_units", 1, 5, "a", "even"),
    ("b_units", 1, 4, "a", "hard"),
    ("a_cover", 0, 3, "b", "deadly"),
    ("turns", 4, 10, "a", "0.3"),
])
def test_army_battle_the_value_found_is_the_nearest_of_every_value(
        vary: str, low: int, high: int, outcome: str, wanted: str) -> None:
    found = assert_nearest_and_checked("sucs army", SMALL_ARMIES, vary, low, high, outcome=outcome,
                                       wanted=wanted)
    assert found["check"]["outcome"] in ("Red holds the field", "Blue holds the field")


def test_army_battle_the_roster_scaled_is_offered_to_the_builder() -> None:
    found = balance("sucs army", SMALL_ARMIES, vary="b_units", low=1, high=6, outcome="a", wanted="deadly")
    s = found["suggestion"]
    was = json.loads(SMALL_ARMIES["roster_b"])
    assert s["side"] == "b" and s["name"] == "Blue"
    assert s["lines"] == [[u["name"], u["count"]] for u in was["units"]]
    assert sum(s["counts"]) == s["units"] == found["value"]
    # the counts, put on the roster fought, give the roster of the fight found
    fought = json.loads(found["check"]["inputs"]["roster_b"])
    assert [[u["name"], u["count"]] for u in fought["units"]] == [
        [u["name"], k] for u, k in zip(was["units"], s["counts"]) if k]
    assert s["summary"].startswith(f"“Blue” with {found['value']} unit")
    assert f"{s['points']} point" in s["summary"]
    # a value that scales no roster offers nothing
    assert balance("sucs army", SMALL_ARMIES, vary="turns", low=4, high=6)["suggestion"] is None


@pytest.mark.parametrize(("given", "field"), [
    ({"vary": "b_units", "low": 1, "high": MAX_BATTLE_UNITS + 1}, "high"),
    ({"vary": "a_units", "low": 4, "high": 2}, "high"),
    ({"vary": "a_units", "low": "many"}, "low"),
    ({"vary": "a_units", "wanted": "-0.5"}, "wanted"),
    ({"vary": "roster_a"}, "vary"),
    ({"fight": json.dumps({**SMALL_ARMIES, "roster_b": "{}"})}, "fight"),
])
def test_army_battle_refuses_bad_searches(given: dict[str, Any], field: str) -> None:
    reply = api.run("sucs.roster_balance", {**api.spec("sucs.roster_balance")["initial"],
                                            "fight": json.dumps(SMALL_ARMIES), **given})
    assert not reply["ok"] and reply["error"]["field"] == field, reply
