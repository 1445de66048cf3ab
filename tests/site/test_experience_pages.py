"""The site as a product: the calculators index lists every calculator with a working
link, quick-reference cards come from core data, the glossary and its tooltips, the
version in the footer, and search finding things by their usual names."""

from __future__ import annotations

import json
import re
import subprocess
import sys
import tomllib
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import unquote, urljoin, urlparse

import pytest

import rules_core
from rules_core.catalog import SYSTEMS, rules_tables

pytestmark = pytest.mark.site

ROOT = Path(__file__).resolve().parents[2]


class _Rows(HTMLParser):
    """Table rows of a page: each row's text and the links in it."""

    def __init__(self) -> None:
        super().__init__()
        self.rows: list[dict] = []
        self.ids: set[str] = set()
        self._row: dict | None = None
        self._code = False

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = dict(attrs)
        if a.get("id"):
            self.ids.add(a["id"] or "")
        if tag == "tr":
            self._row = {"links": [], "code": [], "text": ""}
        if self._row is not None and tag == "a" and a.get("href"):
            self._row["links"].append(a["href"])
        if tag == "code":
            self._code = True

    def handle_endtag(self, tag: str) -> None:
        if tag == "tr" and self._row is not None:
            self.rows.append(self._row)
            self._row = None
        if tag == "code":
            self._code = False

    def handle_data(self, data: str) -> None:
        if self._row is not None:
            self._row["text"] += data
            if self._code:
                self._row["code"].append(data)


def _page(site_dir: Path, url_path: str) -> Path:
    path = unquote(url_path).lstrip("/")
    target = site_dir / path
    return target / "index.html" if path.endswith("/") or path == "" or target.is_dir() else target


def _parse(path: Path) -> _Rows:
    rows = _Rows()
    rows.feed(path.read_text(encoding="utf-8"))
    return rows


def _app_engines() -> dict[str, set[str]]:
    """App slug -> calculator names its module calls (the roster builder, the tracker)."""
    found = {}
    for path in (ROOT / "calculators" / "assets" / "apps").glob("*.js"):
        found[path.stem] = set(re.findall(r'"([a-z]+\.[a-z_]+)"', path.read_text()))
    return found


def test_calculators_index_lists_every_calculator_with_a_working_link(site) -> None:  # type: ignore[no-untyped-def]
    listed = subprocess.run([sys.executable, "-m", "rules_core", "list"], cwd=ROOT,
                            capture_output=True, text=True, check=True).stdout
    names = [line.split("\t")[0] for line in listed.splitlines() if line.strip()]
    assert len(names) >= 25
    index = _parse(site.dir / "calculators" / "index.html")
    engines = _app_engines()
    problems = []
    for name in names:
        rows = [r for r in index.rows if name in r["code"]]
        if len(rows) != 1:
            problems.append(f"{name}: listed {len(rows)} times")
            continue
        link = rows[0]["links"][0]
        url = urljoin(site.url + "calculators/", link)
        target = _page(site.dir, urlparse(url).path)
        if not target.exists():
            problems.append(f"{name}: {link} does not exist")
            continue
        html = target.read_text(encoding="utf-8")
        apps = set(re.findall(r'data-app="([a-z_]+)"', html))
        here = f'data-calculator="{name}"' in html or any(name in engines.get(a, ()) for a in apps)
        if not here:
            problems.append(f"{name}: {link} has no widget or app for it")
        fragment = urlparse(url).fragment
        if fragment and fragment not in _parse(target).ids:
            problems.append(f"{name}: {link} has no such heading")
        if fragment and here and f'data-calculator="{name}"' in html:
            # the link lands on the section holding the widget (its own subsections are part
            # of it): nothing but text between, no other section of the same or a higher level
            before, section = html.split(f'id="{fragment}"', 1)
            level = int(before[before.rindex("<h") + 2])
            next_heading = re.search(rf"<h[1-{level}] ", section)
            body = section[: next_heading.start()] if next_heading else section
            if f'data-calculator="{name}"' not in body and not apps:
                problems.append(f"{name}: {link} is not the section with the widget")
    assert problems == []


def test_every_system_has_a_printable_card_built_from_core_tables(site) -> None:  # type: ignore[no-untyped-def]
    known = set(rules_tables())
    for system in SYSTEMS:
        path = site.dir / "quick-reference" / system / "index.html"
        html = path.read_text(encoding="utf-8")
        assert 'class="qr-card"' in html, system
        used = re.findall(r'data-rules-table="([a-z_.]+)"', html)
        assert len(used) >= 3, system
        assert set(used) <= known and all(u.startswith(system + ".") for u in used), system
        source = (ROOT / "docs" / "quick-reference" / f"{system}.md").read_text()
        assert "| ---" not in source, f"{system}: tables on a card must come from core data"
    hub = (site.dir / "quick-reference" / "index.html").read_text(encoding="utf-8")
    for system in SYSTEMS:
        assert f'href="{system}/"' in hub


def test_glossary_terms_have_headings_and_tooltips_and_link_back(site) -> None:  # type: ignore[no-untyped-def]
    glossary = _parse(site.dir / "glossary" / "index.html")
    for term in ("effect-die", "hitch", "quality-die", "speed-factor", "margin-of-victory",
                 "target-number", "suppression", "action-dice", "difficulty-dc",
                 "ultra-success", "quick-contest", "threat-level"):
        assert term in glossary.ids, term
    # each system's overview links into the glossary (anchors resolve: tests/site/test_site.py)
    for system in SYSTEMS:
        html = (site.dir / system / "index.html").read_text(encoding="utf-8")
        assert re.search(r'href="\.\./glossary/#[a-z-]+"', html), system
    # tooltips: the abbreviations file is appended to every page, and is not a page itself
    rolls = (site.dir / "cortex" / "rolls" / "index.html").read_text(encoding="utf-8")
    assert re.search(r'<abbr title="Cortex: [^"]+">effect die</abbr>', rolls)
    melee = (site.dir / "heroic" / "melee" / "index.html").read_text(encoding="utf-8")
    assert '">Speed Factor</abbr>' in melee
    assert not (site.dir / "includes").exists()
    abbreviations = (ROOT / "includes" / "abbreviations.md").read_text()
    assert "*[" in abbreviations
    # one tooltip per term and page (its first use): Material mounts a component for each
    for page in site.dir.rglob("*.html"):
        titles = re.findall(r'<abbr title="([^"]+)"', page.read_text(encoding="utf-8"))
        assert len(titles) == len(set(titles)), page


def test_prerendered_widgets_carry_no_tooltips_and_stay_out_of_search(site) -> None:  # type: ignore[no-untyped-def]
    html = (site.dir / "cortex" / "rolls" / "index.html").read_text(encoding="utf-8")
    widgets = re.findall(r'<div class="calc" .*?<noscript>', html, re.S)
    assert widgets and not any("<abbr" in w for w in widgets)
    assert all("data-search-exclude" in w for w in widgets)


def test_footer_shows_the_rules_version_and_the_changelog_has_it(site) -> None:  # type: ignore[no-untyped-def]
    version = rules_core.__version__
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["version"]
    assert version == project
    for rel in ("index.html", "sucs/attacks/index.html", "glossary/index.html"):
        html = (site.dir / rel).read_text(encoding="utf-8")
        match = re.search(r'<a href="([^"]+)" class="tcr-version__link">version ([^<]+)</a>', html)
        assert match and match.group(2) == version, rel
        assert _page(site.dir, urlparse(urljoin(site.url + rel, match.group(1))).path) == \
            site.dir / "changelog" / "index.html"
    changelog = (ROOT / "docs" / "changelog.md").read_text()
    assert f"## {version}" in changelog


@pytest.mark.parametrize("query,location", [
    ("effect die", "glossary/#effect-die"),
    ("hitch", "cortex/rolls/#hitches"),
    ("speed factor", "heroic/melee/#speed-factor"),
    ("margin of victory", "glossary/#margin-of-victory"),
    ("target number", "glossary/#target-number"),
    ("suppression", "sucs/actions/#suppression"),
    ("action dice", "phases/tracker/#action-dice"),
    ("hit odds", "gunplay/bursts/#hit-odds"),
    ("attack odds", "sucs/attacks/#attack-odds"),
    ("army builder", "sucs/roster/"),
    ("morale roller", "heroic/morale/#the-morale-roller"),
    ("quick reference", "quick-reference/"),
    ("glossary", "glossary/"),
])
def test_search_finds_rules_calculators_and_terms_by_name(site, query: str, location: str) -> None:  # type: ignore[no-untyped-def]
    """Material's search ranks section titles far above text: a term or calculator is
    found by its usual name when a section of that name exists."""
    docs = json.loads((site.dir / "search" / "search_index.json").read_text())["docs"]
    titled = {d["location"] for d in docs if query in re.sub(r"<[^>]+>", "", d["title"]).lower()}
    assert location in titled
