"""The architecture page (docs/architecture.md) stays true: every file it names exists, the
solver's ways of answering a fight it names are the solver's, and its "How to add a system"
lists every place outside a system's package that names every system, each of which names
every system in the catalog."""

from __future__ import annotations

import os
import re
from collections.abc import Callable
from functools import cache
from pathlib import Path

import pytest

from rules_core import api, solver
from rules_core.catalog import SYSTEMS

ROOT = Path(__file__).resolve().parents[1]
PAGE = ROOT / "docs" / "architecture.md"
#: folders that are not the project's source (set-up, builds, caches)
NOT_SOURCE = {".venv", "node_modules", "site", "build", ".git", "__pycache__", ".pytest_cache",
              ".hypothesis", ".mypy_cache", ".ruff_cache"}
TEXT = {".py", ".js", ".mjs", ".md", ".yml", ".toml", ".json", ".j2", ".html", ".css", ".txt"}
#: files the build writes (named on the page, not in the source)
BUILT = {"sw.js"}


@cache
def source_files() -> tuple[Path, ...]:
    out = []
    for folder, dirs, files in os.walk(ROOT):
        dirs[:] = [d for d in dirs if d not in NOT_SOURCE and not d.endswith(".egg-info")]
        out += [Path(folder, f).relative_to(ROOT) for f in files
                if Path(f).suffix in TEXT or f == "Makefile"]
    return tuple(sorted(out))


def _text(path: Path) -> str:
    return (ROOT / path).read_text(encoding="utf-8", errors="replace")


def _section(title: str) -> str:
    text = PAGE.read_text(encoding="utf-8")
    start = text.index(f"\n## {title}\n")
    end = text.find("\n## ", start + 1)
    return text[start:end if end >= 0 else None]


FILE = re.compile(r"`([\w./<>-]+\.(?:py|js|mjs|md|yml|toml|json))`")


def test_every_file_the_page_names_exists() -> None:
    """A file named in backticks is a path from the root, or the end of one
    (``widget.js`` is calculators/assets/widget.js); ``<system>`` stands for each system."""
    names = {str(p) for p in source_files()}
    missing = []
    for token in sorted(set(FILE.findall(PAGE.read_text(encoding="utf-8")))):
        if token in BUILT or re.search(r"\.[0-9a-f]{12}\.", token):
            continue
        expanded = [token.replace("<system>", s) for s in SYSTEMS] if "<system>" in token \
            else [token]
        for path in expanded:
            if "<" in path:  # another placeholder (<page>, <hash>): the part before it
                prefix = path.split("<", 1)[0]
                found = any(n.startswith(prefix) or f"/{prefix}" in n for n in names)
            else:
                found = path in names or any(n.endswith("/" + path) for n in names)
            if not found:
                missing.append(path)
    assert not missing, f"docs/architecture.md names files that do not exist: {missing}"


def test_the_solvers_ways_to_answer_a_fight_are_named_and_exist() -> None:
    layers = _section("The rules core's layers")
    for name in ("solve", "play", "solve_pruned", "simulated"):
        assert f"`{name}`" in layers, f"the page does not say what solver.{name} does"
        assert callable(getattr(solver, name, None)), f"the page names solver.{name}"


# ---- how to add a system ---------------------------------------------------------------


@cache
def titles() -> dict[str, str]:
    """Each system's name, as the navigation gives it (the section holding its index)."""
    nav = (ROOT / "mkdocs.yml").read_text(encoding="utf-8")
    out = {}
    for key in SYSTEMS:
        found = re.search(rf"^\s*- ([^:\n]+):\n\s*- {key}/index\.md$", nav, re.M)
        assert found, f"mkdocs.yml has no navigation section for {key}/index.md"
        out[key] = found[1].strip()
    return out


def _has_engagement(key: str) -> bool:
    return f"{key}.engagement" in api.names()


#: each place the how-to lists outside the packages -> what it must hold for a system
#: (its key, its name, the file's text)
PLACES: dict[str, Callable[[str, str, str], bool]] = {
    "rules_core/catalog.py": lambda k, t, text: f'"{k}"' in text,
    "mkdocs.yml": lambda k, t, text: f"- {k}/index.md" in text and f"quick-reference/{k}.md" in text,
    "docs/index.md": lambda k, t, text: f"]({k}/index.md)" in text
    and f"](quick-reference/{k}.md)" in text,
    "docs/quick-reference/index.md": lambda k, t, text: f"]({k}.md)" in text,
    "docs/calculators.md": lambda k, t, text: f"\n## {t}\n" in text and all(
        f"`{n}`" in text for n in api.names() if n.startswith(k + ".")),
    "docs/rulings.md": lambda k, t, text: f"\n## {t.rsplit(' ', 1)[0]}" in text,
    "docs/credits.md": lambda k, t, text: f"\n| {t} |" in text,
    "docs/glossary.md": lambda k, t, text: f"]({k}/index.md)" in text,
    "README.md": lambda k, t, text: f"`{k}`" in text,
    "benchmarks/site_speed.py": lambda k, t, text: f'"{k}.' in text,
    "benchmarks/lighthouse.py": lambda k, t, text: f'"{k}/' in text,
    "benchmarks/anytime.py": lambda k, t, text: f'"{k}.engagement"' in text,
    "benchmarks/balance.py": lambda k, t, text: not _has_engagement(k) or f'"{k}"' in text,
    "tests/rules_core/test_balance.py":
        lambda k, t, text: not _has_engagement(k) or f"rules_core.{k}.calc_" in text,
    "tests/calculators/test_fight_account.py":
        lambda k, t, text: not _has_engagement(k) or f'"{k}.engagement"' in text,
    "tests/calculators/test_readable_numbers.py":
        lambda k, t, text: not _has_engagement(k) or f'"{k}.engagement"' in text,
}
#: files outside the packages that name every system without being a list of them
NOT_A_LIST = {
    "docs/changelog.md": "the history of the site",
    "docs/architecture.md": "this page",
    "tests/rules_core/test_hostile.py": "hostile inputs to a few calculators",
    "tests/site/test_experience_pages.py": "search queries and the pages they find",
}


def _listed() -> set[str]:
    """The places the how-to names (those with ``<system>`` are the system's own files)."""
    return {p for p in FILE.findall(_section("How to add a system")) if "<" not in p}


def test_the_how_to_and_this_test_list_the_same_places() -> None:
    listed = _listed()
    assert set(PLACES) == listed - {"calculators.py", "tables.py", "fight.py", "inputs.py",
                                    "reference.py", "tests/browser/every_page.py",
                                    "tests/rules_core/test_layout_names.py",
                                    "tests/test_architecture_page.py"}


@pytest.mark.parametrize("place", sorted(PLACES))
def test_each_place_of_the_how_to_names_every_system_in_the_catalog(place: str) -> None:
    text = _text(Path(place))
    missing = [key for key in SYSTEMS if not PLACES[place](key, titles()[key], text)]
    assert not missing, f"{place} lacks systems of rules_core.catalog.SYSTEMS: {missing}"


def test_every_file_that_names_every_system_is_a_place_of_the_how_to() -> None:
    """A new list of the systems (a page, a benchmark, a test) outside the packages fails
    here until the how-to names it, so the next system is not forgotten there."""
    own = {("rules_core", s) for s in SYSTEMS} | {("docs", s) for s in SYSTEMS}
    naming_all = []
    for path in source_files():
        if tuple(path.parts[:2]) in own or re.match(r"test_(" + "|".join(SYSTEMS) + ")", path.name):
            continue
        text = _text(path)
        if all(re.search(rf"\b{key}\b", text) for key in SYSTEMS):
            naming_all.append(str(path))
    unlisted = sorted(set(naming_all) - set(PLACES) - set(NOT_A_LIST))
    assert not unlisted, f"add these to docs/architecture.md, How to add a system: {unlisted}"
