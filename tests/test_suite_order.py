"""The suite's schedule: the longest modules start first (tests/conftest.py LONGEST_FIRST)."""

from __future__ import annotations

import subprocess
import sys

import pytest

from tests.conftest import LONGEST_FIRST, ROOT


def test_every_module_named_longest_first_exists() -> None:
    missing = [path for path in LONGEST_FIRST if not (ROOT / path).is_file()]
    assert not missing, f"LONGEST_FIRST names modules that are gone: {missing}"
    assert len(set(LONGEST_FIRST)) == len(LONGEST_FIRST)


def test_the_longest_browser_modules_are_collected_first_and_handed_out_in_that_order() -> None:
    listed = subprocess.run(
        [sys.executable, "-m", "pytest", "--collect-only", "-q", "-m", "browser", "-p", "no:cacheprovider"],
        cwd=ROOT, capture_output=True, text=True, check=True).stdout.splitlines()
    modules: list[str] = []
    for line in listed:
        if "::" in line and (module := line.split("::", 1)[0]) not in modules:
            modules.append(module)
    browser_longest = [path for path in LONGEST_FIRST if path in modules]
    assert len(browser_longest) >= 5
    assert modules[:len(browser_longest)] == browser_longest, modules[:8]


def test_pytest_xdist_hands_modules_out_in_that_order(pytestconfig: pytest.Config) -> None:
    """Not sorted by their number of tests, as pytest-xdist would (tests/conftest.py
    pytest_configure, run for this session too)."""
    assert pytestconfig.option.loadscopereorder is False
