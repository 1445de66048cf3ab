"""The architecture page (docs/architecture.md) stays true: every file it names exists, and
the solver's ways of answering a fight it names are the solver's."""

from __future__ import annotations

import os
import re
from functools import cache
from pathlib import Path

from rules_core import solver
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
