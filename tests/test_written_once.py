"""Every rule number is written once, in a system's ``tables.py`` (or, for a calculator's
limit, beside the calculator): the pages that state one in prose are checked against the
core here, and a copy of the rules core with the numbers changed shows the explanations,
labels and help texts following them with no other edit. (CPython only: the changed copy
runs in a new process.)"""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from rules_core.cortex import tables as cortex
from rules_core.gunplay import tables as gunplay
from rules_core.gunplay.tables import RangeBand, Size
from rules_core.heroic import fight as heroic_fight
from rules_core.heroic import tables as heroic
from rules_core.sucs import tables as sucs

ROOT = Path(__file__).resolve().parents[1]

#: (page, what it says with each core number as a group, the core's numbers in order)
STATED: tuple[tuple[str, str, Callable[[], tuple[int, ...]]], ...] = (
    # SUCS, the attack
    ("sucs/attacks.md", r"\| \+(\d+) armor \| the target is dug in or in a fortification, or a "
                        r"support unit gave it \+(\d+) armor \|",
     lambda: (sucs.DUG_IN_ARMOR, sucs.SUPPORT_BONUS)),
    ("sucs/attacks.md", r"\| \+(\d+) \| the attacker is outside every friendly commander's range",
     lambda: (sucs.OUT_OF_COMMAND,)),
    ("sucs/attacks.md", r"A suppressed unit fighting in melee has -(\d+) on its roll",
     lambda: (sucs.MELEE_PENALTY,)),
    ("sucs/attacks.md", r"\(\+(\d+) if a support unit boosted it\)\. If the dice beat the number "
                        r"needed \*\*by (\d+) or more\*\*, add (\d+) more damage",
     lambda: (sucs.SUPPORT_BONUS, sucs.SUCCESS_BY, sucs.SUCCESS_DAMAGE)),
    ("sucs/attacks.md", r"On 1-(\d+) the target is suppressed, on (\d+)-6 destroyed",
     lambda: (sucs.EQUAL_ARMOR_DESTROYS - 1, sucs.EQUAL_ARMOR_DESTROYS)),
    ("sucs/attacks.md", r"## Beating the number by (\d+)", lambda: (sucs.SUCCESS_BY,)),
    ("quick-reference/sucs.md", r"\(\+(\d+) dug in or supported\)", lambda: (sucs.DUG_IN_ARMOR,)),
    ("quick-reference/sucs.md", r"and \+(\d+) when", lambda: (sucs.OUT_OF_COMMAND,)),
    ("quick-reference/sucs.md", r"\+(\d+) if the dice beat the number by (\d+) or more",
     lambda: (sucs.SUCCESS_DAMAGE, sucs.SUCCESS_BY)),
    ("quick-reference/sucs.md", r"Equal: d6, 1-(\d+) suppressed, (\d+)-6 destroyed",
     lambda: (sucs.EQUAL_ARMOR_DESTROYS - 1, sucs.EQUAL_ARMOR_DESTROYS)),
    ("quick-reference/sucs.md", r"A suppressed unit has -(\d+) in melee",
     lambda: (sucs.MELEE_PENALTY,)),
    ("sucs/actions.md", r"\(removing a suppression marker\), \+(\d+) armor, or \+(\d+) attack",
     lambda: (sucs.SUPPORT_BONUS, sucs.SUPPORT_BONUS)),
    ("sucs/actions.md", r"from the next turn it has \*\*\+(\d+) armor\*\*",
     lambda: (sucs.DUG_IN_ARMOR,)),
    ("sucs/actions.md", r"A suppressed unit in melee has \*\*-(\d+)\*\* on its attacks",
     lambda: (sucs.MELEE_PENALTY,)),
    # SUCS, altitude
    ("sucs/units.md", r"counts as \*\*(\d+) inches of range\*\*",
     lambda: (sucs.ALTITUDE_RANGE_INCHES,)),
    ("sucs/units.md", r"Climbing or diving one level costs (\d+) inches of movement",
     lambda: (sucs.ALTITUDE_CHANGE_INCHES,)),
    ("sucs/units.md", r'The altitude adds (\d+)"', lambda: (sucs.ALTITUDE_RANGE_INCHES,)),
    ("sucs/units.md", r'The level between them adds (\d+)"', lambda: (sucs.ALTITUDE_RANGE_INCHES,)),
    # Heroic, the round and the Speed Factor
    ("quick-reference/heroic.md", r"\*\*A round \((\d+) seconds\)\*\*",
     lambda: (heroic.ROUND_SECONDS,)),
    ("heroic/melee.md", r"SF is (\d+) by default\. Weapons so unwieldy that they must be readied "
                        r"again after every attack have SF (\d+)",
     lambda: (heroic.DEFAULT_SF, heroic.UNWIELDY_SF)),
    ("quick-reference/heroic.md", r"\((\d+), or (\d+) for unwieldy weapons\)",
     lambda: (heroic.DEFAULT_SF, heroic.UNWIELDY_SF)),
    # Heroic, the whole fight's exact limits (the names are read where they live now)
    ("heroic/groups.md", r"Up to (\d+) pairs of HP totals the odds are exact",
     lambda: (_heroic_limit("MAX_CARRY_STATES"),)),
    ("heroic/groups.md", r"past (\d+) pairs of member counts",
     lambda: (_heroic_limit("MAX_MEMBER_PAIRS"),)),
    ("rulings.md", r"every pair of HP totals: exact up to (\d+) pairs",
     lambda: (_heroic_limit("MAX_CARRY_STATES"),)),
    # d10 ranged combat
    ("gunplay/size-and-range.md", r"Added to the base difficulty of (\d+), these give (-?\d+) and "
                                  r"(-?\d+)",
     lambda: (gunplay.BASE_DIFFICULTY,
              gunplay.BASE_DIFFICULTY + gunplay.SIZE_RANGE[Size.SMALL][RangeBand.FAR],
              gunplay.BASE_DIFFICULTY + gunplay.SIZE_RANGE[Size.LARGE][RangeBand.MEDIUM])),
)


#: (page, what it says with each core number in words as a group, the core's numbers)
STATED_IN_WORDS: tuple[tuple[str, str, Callable[[], tuple[int, ...]]], ...] = (
    ("heroic/index.md", r"each round covers about (\w+) seconds", lambda: (heroic.ROUND_SECONDS,)),
    ("cortex/enemies.md", r"Put ordinary enemies in groups of \*\*one to (\w+)\*\*",
     lambda: (cortex.MAX_GROUP,)),
    ("cortex/fireteams.md", r"A player group of (\w+) to (\w+) characters forms one fireteam",
     lambda: (cortex.PC_TEAM_MIN, cortex.PC_TEAM_MAX)),
)
WORDS = {"three": 3, "five": 5, "six": 6, "twenty": 20}


def _heroic_limit(name: str) -> int:
    value = getattr(heroic_fight, name)
    assert isinstance(value, int)
    return value


def _page(page: str) -> str:
    return " ".join((ROOT / "docs" / page).read_text(encoding="utf-8").split())


@pytest.mark.parametrize(("page", "pattern", "core"), STATED,
                         ids=[f"{p}:{i}" for i, (p, _, _) in enumerate(STATED)])
def test_a_page_states_the_cores_number(page: str, pattern: str,
                                        core: Callable[[], tuple[int, ...]]) -> None:
    found = re.search(pattern, _page(page))
    assert found, f"docs/{page} no longer says {pattern!r}: update this test with it"
    assert tuple(int(g) for g in found.groups()) == core(), (page, pattern)


@pytest.mark.parametrize(("page", "pattern", "core"), STATED_IN_WORDS,
                         ids=[p for p, _, _ in STATED_IN_WORDS])
def test_a_page_states_the_cores_number_in_words(page: str, pattern: str,
                                                 core: Callable[[], tuple[int, ...]]) -> None:
    found = re.search(pattern, _page(page))
    assert found, f"docs/{page} no longer says {pattern!r}: update this test with it"
    assert tuple(WORDS[g] for g in found.groups()) == core(), (page, pattern)


def test_the_heroic_examples_of_the_member_limit_sit_either_side_of_it() -> None:
    found = re.search(r"\((\w+) against (\w+) still fits; (\w+) against (\w+) does not\)",
                      _page("heroic/groups.md"))
    assert found
    words = {**WORDS, "nine": 9, "twelve": 12, "thirteen": 13}
    fits, past = (words[found[1]] * words[found[2]], words[found[3]] * words[found[4]])
    assert fits <= _heroic_limit("MAX_MEMBER_PAIRS") < past


# ---- a copy of the core with the numbers changed ------------------------------------

#: (file under rules_core, the line as written, the line changed)
CHANGES = (
    ("sucs/tables.py", "OUT_OF_COMMAND = 1", "OUT_OF_COMMAND = 2"),
    ("sucs/tables.py", "MELEE_PENALTY = 1", "MELEE_PENALTY = 2"),
    ("sucs/tables.py", "SUCCESS_BY = 3", "SUCCESS_BY = 4"),
    ("sucs/tables.py", "EQUAL_ARMOR_DESTROYS = 4", "EQUAL_ARMOR_DESTROYS = 5"),
    ("sucs/tables.py", "DUG_IN_ARMOR = 1", "DUG_IN_ARMOR = 2"),
    ("sucs/tables.py", "SUPPORT_BONUS = 1", "SUPPORT_BONUS = 3"),
    ("sucs/tables.py", "ALTITUDE_RANGE_INCHES = 12", "ALTITUDE_RANGE_INCHES = 10"),
    ("heroic/tables.py", "UNWIELDY_SF = 6", "UNWIELDY_SF = 7"),
    ("sucs/unitfields.py", "MAX_TARGETS = 10", "MAX_TARGETS = 8"),
)

SCRIPT = """
import json
from rules_core import api
from rules_core.catalog import rules_tables
def run(name, **inputs):
    reply = api.run(name, dict(api.spec(name)["initial"], **inputs))
    assert reply["ok"], reply
    return reply
labels = {f["name"]: f["label"] for f in api.spec("sucs.attack")["fields"]}
print(json.dumps({
    "out": run("sucs.attack", quality=3, out_of_command=True),
    "plain10": run("sucs.attack", target_number=10),
    "equal": run("sucs.attack", quality=3, attack=1, armor=1, roll_2d6=12),
    "reach": run("sucs.reach", attacker_altitude="0", target_altitude="1", distance=3, range=24),
    "labels": labels,
    "unit_labels": {f["name"]: f["label"] for f in api.spec("sucs.unit_cost")["fields"]},
    "tables": {name: rules_tables()[name]()["rows"] for name in ("sucs.terrain", "sucs.costs")},
    "sf_help": [f["help"] for f in api.spec("heroic.melee")["fields"]
                if f["name"] == "speed_factor"],
    "max_targets": api.app_data("sucs.roster")["rules"]["max_targets"],
    "targets_max": [f["max"] for f in api.spec("sucs.unit_cost")["fields"]
                    if f["name"] == "targets"],
}))
"""


@pytest.fixture(scope="module")
def changed(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    """What the calculators say with every number of :data:`CHANGES` changed in its one
    place, in a copy of the rules core run in a new process."""
    copy = tmp_path_factory.mktemp("core")
    shutil.copytree(ROOT / "rules_core", copy / "rules_core",
                    ignore=shutil.ignore_patterns("__pycache__"))
    for path, old, new in CHANGES:
        file = copy / "rules_core" / path
        text = file.read_text(encoding="utf-8")
        assert text.count(f"\n{old}\n") == 1, f"rules_core/{path} no longer has {old!r}"
        file.write_text(text.replace(f"\n{old}\n", f"\n{new}\n"), encoding="utf-8")
    done = subprocess.run([sys.executable, "-c", SCRIPT], cwd=copy, capture_output=True,
                          text=True, check=False)
    assert done.returncode == 0, done.stderr
    result: dict[str, Any] = json.loads(done.stdout)
    return result


def test_being_out_of_command_follows_the_number_in_the_odds_and_the_explanation(
        changed: dict[str, Any]) -> None:
    out, plain = changed["out"], changed["plain10"]
    assert out["result"]["needed"] == 8 + 2 == plain["result"]["needed"]
    assert out["result"]["outcomes_exact"] == plain["result"]["outcomes_exact"]
    assert re.search(r"\| Attacker's target number \| 8 \|", out["explanation"])
    assert re.search(r"\| Out of command range \| \+2 \|", out["explanation"])
    assert "(+2 target number)" in changed["labels"]["out_of_command"]


def test_the_other_attack_numbers_follow_in_the_labels_and_the_explanation(
        changed: dict[str, Any]) -> None:
    labels = changed["labels"]
    assert "(-2 to the roll)" in labels["suppressed_melee"]
    assert "(+2 armor)" in labels["dug_in"]
    assert "+3 armor" in labels["armor_support"] and "+3 attack" in labels["attack_support"]
    units = changed["unit_labels"]
    assert (units["support_armor"], units["support_attack"]) == ("Support: +3 armor",
                                                                 "Support: +3 attack")
    terrain = {row[0]: row[-1] for row in changed["tables"]["sucs.terrain"]}
    assert terrain["Fortification"] == "units inside count as dug in (+2 armor)"
    costs = dict(changed["tables"]["sucs.costs"])
    assert costs["Support action"].endswith("(reorganize, +3 armor, +3 attack)")
    assert labels["bonus_over"] == "+1 damage for beating by 4"
    explanation = changed["out"]["explanation"]
    assert "when the dice show 14 or more" in explanation  # 10 needed, a success by 4
    assert "a d6 (1-4 suppressed, 5-6 destroyed)" in explanation
    # armor 1, attack 1, a 12: damage equals the armor, and the d6 is asked for
    assert "roll the d6 (1-4 suppressed, 5-6 destroyed)" in changed["equal"]["result"]["given"]["text"]


def test_altitude_the_speed_factor_and_the_weapons_limit_follow(changed: dict[str, Any]) -> None:
    reach = changed["reach"]
    assert reach["result"]["counted_distance"] == 3 + 10
    assert '(1 x 10")' in reach["explanation"] and 'adds 10"' in reach["explanation"]
    assert changed["sf_help"] == ["4 normally; 7 for unwieldy weapons that must be readied "
                                  "after each attack."]
    assert changed["max_targets"] == 8 and changed["targets_max"] == [8]
