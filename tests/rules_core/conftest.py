"""The rules core's tests run twice: in CPython, and again inside Pyodide (``make
test-pyodide``), where the browser's Python version is what is under test. A few tests each
play tens of thousands of fights or walk a budget to its end: over a second of CPU each in
CPython and about twice that in Pyodide, together most of the Pyodide run's time. They are
marked ``heavy`` here and run in CPython only (the Pyodide run deselects ``-m "not heavy"``);
every module they are in keeps its lighter tests in Pyodide, which run the same code on
smaller fights (``test_every_module_keeps_tests_inside_pyodide`` checks it)."""

from __future__ import annotations

import pytest

#: "module.py::test_name" (every parametrization) of each heavy test
HEAVY = frozenset({
    "test_sucs_battle.py::test_a_large_battle_is_a_labelled_seeded_simulation",
    "test_sucs_battle.py::test_a_middling_battle_is_exact_to_within_what_the_pruned_walk_dropped",
    "test_sucs_engagement_budget.py::test_the_worst_inputs_are_answered_with_every_walk_within_its_budget",
    "test_sucs_engagement_budget.py::test_one_unit_a_side_in_close_combat_for_100_turns_is_answered",
    "test_sucs_engagement.py::test_identical_units_share_their_activations_in_the_pruned_walk",
    "test_sucs_engagement.py::test_past_both_walks_a_fight_is_simulated_and_says_how_to_get_exact_odds",
    "test_sucs_engagement.py::test_close_combat_past_the_exact_walk_is_answered_to_within_a_millionth",
    "test_sucs_engagement.py::test_the_pruned_walk_is_below_the_exact_answer_by_at_most_what_it_dropped",
    "test_sucs_engagement.py::test_the_pruned_walk_dropping_nothing_is_the_exact_walk",
    "test_sucs_engagement.py::test_identical_units_are_merged_without_changing_the_answer",
    "test_cortex_engagement.py::test_every_attack_matches_enumeration_of_every_face",
    "test_heroic_engagement.py::test_a_fight_past_the_exact_walks_work_is_simulated_not_refused",
    "test_heroic_pruned.py::test_the_source_fight_with_carried_wounds_is_a_labelled_seeded_simulation",
    "test_heroic_pruned.py::test_five_orcs_against_four_knights_fit_the_walk_s_budget",
    "test_heroic_pruned.py::test_a_walk_dropping_more_than_an_answer_may_stops_and_is_simulated",
    "test_heroic_pruned.py::test_the_simulation_holds_the_pruned_answer_in_its_intervals",
    "test_phases_engagement.py::test_simulation_agrees_with_the_exact_answer",
})


def heavy_name(item: pytest.Item) -> str:
    """``module.py::test_name`` of a collected test, without its parametrization."""
    module = item.nodeid.split("::")[0].rsplit("/", 1)[-1]
    return f"{module}::{item.originalname if isinstance(item, pytest.Function) else item.name}"


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", "heavy: over a second of CPU; run in CPython only")


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    for item in items:
        if heavy_name(item) in HEAVY:
            item.add_marker(pytest.mark.heavy)
