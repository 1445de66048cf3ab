"""SUCS army against army (issue 29 item 4): two rosters' battle is the whole-engagement
fight of their units, exact while small (checked against the engagement calculator and
against points counted by hand), a seeded simulation past that whose 95% intervals hold
the exact answer, the target reading as a switch, and every bad roster refused by name."""

from __future__ import annotations

import base64
import json
import subprocess
import time
import zlib
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest

from rules_core import api, solver
from rules_core.dice.distribution import one_in
from rules_core.sucs import calc_roster_battle as battle_calc
from rules_core.sucs import fight as sucs_fight
from rules_core.sucs.calc_roster_battle import BATTLE, MAX_BATTLE_UNITS, battle_of
from rules_core.sucs.fight import Fight
from rules_core.sucs.turn import Fighter, Rules
from tests.rules_core.support import refused

RIFLES = {"quality": 3, "attack": 1}
VETERANS = {"quality": 4, "attack": 1, "armor": 1}
TANK = {"quality": 4, "attack": 2, "armor": 1}
GUNNERS = {"quality": 3, "attack": 1, "targets": 2}
ROOT = Path(__file__).resolve().parents[2]


def army(name: str, *lines: tuple[str, int, dict[str, Any]]) -> dict[str, Any]:
    return {"format": "sucs-roster", "version": 1, "name": name, "points_limit": 0,
            "units": [{"name": n, "count": c, "stats": s} for n, c, s in lines]}


def battle(a: dict[str, Any], b: dict[str, Any], **inputs: Any) -> dict[str, Any]:
    reply = api.run("sucs.roster_battle", {"roster_a": a, "roster_b": b, **inputs})
    assert reply["ok"], reply
    return reply["result"]


def points(stats: dict[str, Any]) -> int:
    return int(api.run("sucs.unit_cost", stats)["result"]["cost"])


def test_a_small_battle_is_the_exact_engagement_of_its_units() -> None:
    """Two rifle squads against veterans and a gun team: the engagement calculator's exact
    odds, to the last digit, and its unit losses turned into points."""
    a = army("Riflemen", ("Rifle squad", 2, RIFLES))
    b = army("Raiders", ("Veterans", 1, VETERANS), ("Gun team", 1, GUNNERS))
    got = battle(a, b, turns=6, a_cover=1)
    same = api.run("sucs.engagement", {"side_a": "3/1/0 c1, 3/1/0 c1",
                                       "side_b": "4/1/1, 3/1x2/0", "max_rounds": 6})["result"]
    assert got["method"] == "exact" and got.get("error_bound", 0) == 0
    assert got["outcomes_exact"] == {"Riflemen holds the field": same["outcomes_exact"]["Side A wins"],
                                     "Raiders holds the field": same["outcomes_exact"]["Side B wins"],
                                     "Both still standing": same["outcomes_exact"]["Still fighting"]}
    assert got["end_round_exact"] == same["end_round_exact"]
    rifle = points(RIFLES)
    lost = {int(k): Fraction(v) for k, v in got["losses_a_exact"].items()}
    units = {int(k): Fraction(v) for k, v in same["losses_a_exact"].items()}
    assert lost == {n * rifle: p for n, p in units.items()}
    # the survivors' table agrees with the losses: fielded minus lost, on average
    rows = {(r["side"], tuple(r["names"])): r for r in got["survivors"]}
    assert rows[("a", ("Rifle squad",))]["expected"] == pytest.approx(
        2 - float(sum(n * p for n, p in units.items())))
    assert got["points"] == {"a": 2 * rifle, "b": points(VETERANS) + points(GUNNERS)}
    assert got["names"] == {"a": "Riflemen", "b": "Raiders"}


def test_many_units_of_one_kind_against_few_are_still_exact() -> None:
    """Five rifle squads against a tank: past a few units a side, but the exact walk fits
    (identical units are merged), so the answer is exact, the engagement's own."""
    tank = {"quality": 5, "attack": 3, "armor": 2}
    got = battle(army("Platoon", ("Rifle squad", 5, RIFLES)), army("Armour", ("Tank", 1, tank)),
                 turns=10)
    same = api.run("sucs.engagement", {"side_a": ", ".join(["3/1/0"] * 5), "side_b": "5/3/2",
                                       "max_rounds": 10})["result"]
    assert got["method"] == "exact"
    assert got["outcomes_exact"]["Platoon holds the field"] == same["outcomes_exact"]["Side A wins"]


def test_points_lost_are_counted_by_hand_for_units_of_different_costs() -> None:
    """One tank against a veteran and two rifle squads: every end state's points, counted
    by hand from the exact walk of the same fight with plain fighters."""
    a = army("Armour", ("Tank", 1, TANK))
    b = army("Infantry", ("Veterans", 1, VETERANS), ("Rifle squad", 2, RIFLES))
    got = battle(a, b, turns=5)
    fight = Fight((Fighter("T", 4, 2, 1, 1),),
                  (Fighter("V", 4, 1, 1, 1), Fighter("R", 3, 1, 1, 0), Fighter("R", 3, 1, 1, 0)))

    class ByPoints:
        outcome_order = fight.outcome_order
        start, step, outcome, sample = fight.start, fight.step, fight.outcome, fight.sample

        def losses(self, rnd):  # type: ignore[no-untyped-def]
            cost = (points(VETERANS), points(RIFLES), points(RIFLES))
            return {"b": sum(c for c, u in zip(cost, rnd[1][1]) if u is None)}

    odds = solver.solve(ByPoints(), max_rounds=5)  # type: ignore[arg-type]
    assert {int(k): Fraction(v) for k, v in got["losses_b_exact"].items()} == odds.losses["b"]


def test_the_target_reading_is_a_switch_with_the_rulings_numbers() -> None:
    a = army("Armour", ("Tank", 1, TANK))
    b = army("Infantry", ("Veterans", 1, VETERANS), ("Rifle squad", 2, RIFLES))
    likeliest = battle(a, b, turns=6)["outcomes"]["Armour holds the field"]
    listed = battle(a, b, turns=6, targeting="list")["outcomes"]["Armour holds the field"]
    assert (round(100 * likeliest, 2), round(100 * listed, 2)) == (12.21, 13.06)
    # the same fight by hand: list order is the tank firing at the veterans first
    first = Fight((Fighter("T", 4, 2, 1, 1),),
                  (Fighter("V", 4, 1, 1, 1), Fighter("R", 3, 1), Fighter("R", 3, 1)),
                  Rules(targeting="list"))
    assert first.start() and solver.solve(first, max_rounds=6).outcomes["Side A wins"] == \
        Fraction(battle(a, b, turns=6, targeting="list")["outcomes_exact"]["Armour holds the field"])


BIG_TANK = {"quality": 5, "attack": 3, "armor": 2}
SCOUTS = {"quality": 4, "attack": 2, "armor": 1, "stealth": True}
FOUR = army("Four", ("Tank", 1, BIG_TANK), ("Scouts", 1, SCOUTS), ("Gun team", 1, GUNNERS),
            ("Veterans", 1, VETERANS))


def test_a_middling_battle_is_exact_to_within_what_the_pruned_walk_dropped() -> None:
    """Four different units a side: past the exact try, inside the pruned walk's budget.
    The exact walk of the same battle with no limits (about a second of CPython) is at
    most the reported bound above each figure shown, never below it."""
    got = battle(FOUR, FOUR, turns=6)
    assert got["method"] == "pruned" and 0 < got["error_bound"] <= sucs_fight.MAX_ERROR
    assert "outcomes_exact" not in got  # floating point: no fraction is claimed
    inputs = {"roster_a": FOUR, "roster_b": FOUR, "a_cover": 0, "b_cover": 0, "turns": 6,
              "targeting": "likeliest", "no_commander": "organized"}
    tried = battle_of(inputs, sucs_fight.EXACT_TRY_WORK)
    assert sucs_fight.plan(tried, 6, max_work=sucs_fight.limits(6)[1]).limit is not None
    exact = solver.solve(battle_of(inputs), max_rounds=6, max_states=10**6, max_work=10**9)
    bound = got["error_bound"] + 1e-12
    shown_as = battle_calc.outcome_names(battle_of(inputs))  # the rosters' names
    for name, p in exact.outcomes.items():
        shown = got["outcomes"][shown_as[name]]
        assert shown - 1e-12 <= p <= shown + bound, name
    for side in "ab":
        dist = {str(n): float(p) for n, p in exact.losses[side].items()}
        assert got[f"losses_{side}"] == pytest.approx(dist, abs=bound)
    assert got == battle(FOUR, FOUR, turns=6)  # no randomness: the same figures again


def test_the_pruned_answer_says_so_with_the_rulings_figure() -> None:
    """The headline and the explanation give the bound; the Rulings page's figure for this
    battle (ten turns) is the calculator's."""
    reply = api.run("sucs.roster_battle", {"roster_a": FOUR, "roster_b": FOUR, "turns": 10})
    bound = one_in(reply["result"]["error_bound"])
    assert ["Precision", f"exact to within {bound}"] in [list(r) for r in reply["display"]["headline"]]
    assert f"**Exact to within {bound}.**" in reply["explanation"]
    rulings = " ".join((ROOT / "docs" / "rulings.md").read_text().split())
    assert f"for ten turns lose {bound} to the pruning" in rulings


def test_a_large_battle_is_a_labelled_seeded_simulation() -> None:
    a = army("Ten", ("Rifle squad", 4, RIFLES), ("Veterans", 3, VETERANS), ("Gun team", 2, GUNNERS),
             ("Tank", 1, TANK))
    b = army("Ten more", ("Rifle squad", 5, RIFLES), ("Veterans", 5, VETERANS))
    cpu = time.process_time()
    got = battle(a, b, turns=10)
    print(f"\ntwo 10-unit armies: {time.process_time() - cpu:.2f} s CPU")
    assert got["method"] == "simulation" and got["settled"] and got["stopped"] == "precision"
    assert max(h - lo for lo, h in got["intervals"].values()) / 2 <= 0.005
    assert sum(got["outcomes"].values()) == pytest.approx(1)
    for name, (low, high) in got["intervals"].items():
        assert low <= got["outcomes"][name] <= high
    assert got == battle(a, b, turns=10)  # the same seed: the same figures
    explained = api.run("sucs.roster_battle", {"roster_a": a, "roster_b": b, "turns": 10})
    assert "A simulation, not exact odds" in explained["explanation"]


def test_the_simulation_holds_the_exact_answer_in_its_intervals(monkeypatch) -> None:  # type: ignore[no-untyped-def]
    a = army("Riflemen", ("Rifle squad", 2, RIFLES))
    b = army("Raiders", ("Veterans", 1, VETERANS), ("Gun team", 1, GUNNERS))
    exact = battle(a, b, turns=6)
    monkeypatch.setattr(sucs_fight, "EXACT_TRY_WORK", 0)
    monkeypatch.setattr(sucs_fight, "PRUNED_TRY_WORK", 0)
    simulated = battle(a, b, turns=6)
    assert simulated["method"] == "simulation"
    for name, p in exact["outcomes"].items():
        low, high = simulated["intervals"][name]
        assert low <= p <= high, (name, p, low, high)
    for side in "ab":
        assert simulated[f"expected_losses_{side}"] == pytest.approx(
            exact[f"expected_losses_{side}"], rel=0.15)


@pytest.mark.parametrize("roster_a,field,words", [
    (army("Empty"), "roster_a", ["no units"]),
    (army("Horde", ("Rifle squad", MAX_BATTLE_UNITS + 1, RIFLES)), "roster_a",
     [f"at most {MAX_BATTLE_UNITS} units", f"has {MAX_BATTLE_UNITS + 1}"]),
    ("{not json", "roster_a", ["not valid JSON"]),
    ({"format": "sucs-roster"}, "roster_a", ["not a valid roster"]),
])
def test_bad_rosters_are_refused_by_name(roster_a, field, words) -> None:  # type: ignore[no-untyped-def]
    refused("sucs.roster_battle", {"roster_a": roster_a, "roster_b": army("B", ("R", 1, RIFLES))},
            field, *words)


@pytest.mark.parametrize("name,value", [("turns", 3), ("turns", 11), ("a_cover", 7),
                                        ("targeting", "nearest")])
def test_the_other_inputs_are_checked(name, value) -> None:  # type: ignore[no-untyped-def]
    one = army("A", ("R", 1, RIFLES))
    refused("sucs.roster_battle", {"roster_a": one, "roster_b": one, name: value}, name)


def test_the_page_default_is_answered_exactly_and_the_builder_json_is_read() -> None:
    defaults = {f.name: f.initial for f in BATTLE.fields}
    reply = api.run("sucs.roster_battle", defaults)
    assert reply["ok"] and reply["result"]["method"] == "exact"
    text = {k: json.dumps(v) if isinstance(v, dict) else v for k, v in defaults.items()}
    assert api.run("sucs.roster_battle", text)["result"] == reply["result"]


def test_a_played_battle_says_what_happened() -> None:
    a = army("Riflemen", ("Rifle squad", 2, RIFLES))
    b = army("Raiders", ("Veterans", 1, VETERANS))
    reply = api.roll("sucs.roster_battle", {"roster_a": a, "roster_b": b, "turns": 4})
    assert reply["ok"], reply
    played = reply["result"]
    assert played["outcome"] in ("Riflemen holds the field", "Raiders holds the field",
                                 "Both still standing")
    assert [block["heading"] for block in played["account"]] == [
        f"Turn {n}" for n in range(1, played["rounds"] + 1)]
    assert "points" in played["summary"]


def packed(roster_json: str) -> str:
    """A roster as the army builder's share link carries it, packed by the site's own
    JavaScript (sharelink.js, under Node): raw deflate in base64url behind "z."."""
    script = ('import { pack } from "./calculators/assets/sharelink.js"; '
              "process.stdout.write(await pack(JSON.parse(process.argv[1])));")
    done = subprocess.run(["node", "--no-warnings", "--input-type=module", "-e", script, "--",
                           roster_json], cwd=ROOT, capture_output=True, text=True, check=True)
    return done.stdout


def test_a_share_link_from_the_army_builder_is_read() -> None:
    """The enemy as another player shares it: the whole address, or what follows
    "#roster=", in the compressed format and the first (plain base64url) one."""
    a = army("Riflemen", ("Rifle squad", 2, RIFLES))
    b = army("Raiders", ("Veterans", 1, VETERANS), ("Gun team", 1, GUNNERS))
    want = battle(a, b, turns=6)
    code = packed(json.dumps(b))
    assert code.startswith("z.")
    plain = base64.urlsafe_b64encode(json.dumps(b).encode()).decode().rstrip("=")
    for link in (f"https://example.org/tcr/sucs/roster/#roster={code}", f"roster={code}", code,
                 f"  https://example.org/sucs/roster/#roster={plain}\n"):
        assert battle(a, link, turns=6)["outcomes_exact"] == want["outcomes_exact"], link


@pytest.mark.parametrize("link", [
    "https://example.org/sucs/roster/#roster=z.q1ZKVLIyrAU",  # cut short, as chat apps do
    "https://example.org/sucs/roster/#roster=z.AAAA",
    "https://example.org/sucs/roster/",
    "z." + base64.urlsafe_b64encode(zlib.compress(b"[" * 10_000_000)[2:-4]).decode(),
])
def test_a_cut_damaged_or_huge_share_link_is_refused(link: str) -> None:
    one = army("A", ("R", 1, RIFLES))
    message = refused("sucs.roster_battle", {"roster_a": one, "roster_b": link}, "roster_b",
                      "share link is cut off or damaged")
    assert message.startswith("Side B roster")
