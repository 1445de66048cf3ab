"""The army builder's limits and its old store (issue 46, items 1 and 2; issue 43, item 4),
in Chromium with real localStorage (a quota of 5 MiB characters): a roster of 100 lines
refuses Add a blank unit, Copy and Add unit with a message and keeps its 100 lines; a
saved roster of 103 lines (an earlier version let Copy run past the limit) is shown,
exported and imported back whole; an old single-key store of 70 rosters of 100 published
units (3.2 MB) moves whole, and rosters deleted after the move stay deleted; an old store
with no room to move says which rosters are left and why, a later save does not hide it,
and they move once room is freed; 202 rosters exported import whole into a fresh browser,
where New is then refused."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page

from rules_core.sucs import roster as core
from tests.browser.roster_storage import (  # noqa: F401 (the two fixtures)
    APP,
    ENTRY,
    LEGACY,
    builder_fixture,
    entries,
    kept,
    names,
    no_page_errors_fixture,
    settle,
    unit,
)
from tests.browser.support import (
    RUNTIME_TIMEOUT_MS,
    download,
    errors_of,
    guarded_context,
    guarded_page,
    instant_goto,
    put_storage,
)
from tests.browser.test_roster_saving import army, reopen
from tests.browser.test_roster_travel import roster

pytestmark = pytest.mark.browser

PRESETS = ["tl5-7/officer", "tl5-7/light-tank", "tl5-7/machine-gun", "tl12-15/grav-tank",
           "tl0-2/crossbowman", "tl8-11/air-raft", "tl5-7/light-infantry"]


def lines(size: int, name: str = "Full") -> dict:
    """A roster of ``size`` lines, each a line of its own (named apart)."""
    return roster(name, [{**unit(PRESETS[k % len(PRESETS)], 1 + k % 3), "name": f"Line {k + 1}"}
                         for k in range(size)], limit=5000)


def saved(r: dict, key: str = "full") -> dict[str, str]:
    return {ENTRY + key: json.dumps({"id": key, "rev": 1, "order": 0, "roster": r})}


def notice(page: Page) -> str:
    return page.locator(f"{APP} .sucs-notice-text").inner_text()


def line_count(page: Page) -> int:
    return page.locator(f"{APP} .sucs-line").count()


def import_file(page: Page, path: Path, says: str) -> None:
    page.set_input_files(f"{APP} .sucs-import", str(path))
    page.wait_for_function("says => document.querySelector('.sucs-notice-text').textContent.includes(says)",
                           arg=says, timeout=RUNTIME_TIMEOUT_MS)
    settle(page)


# ---- 1. the line limit where the GM acts ---------------------------------------------------

def test_a_roster_of_100_lines_refuses_another_line_and_says_why(builder: Page) -> None:
    page = builder
    assert core.MAX_UNITS == 100
    reopen(page, saved(lines(100)))
    assert line_count(page) == 100
    refusals = {
        "add-blank": lambda: page.click(f'{APP} [data-sucs="add-blank"]'),
        "copy": lambda: page.locator(f"{APP} .sucs-line").first.get_by_role("button", name="Copy").click(),
        "add": lambda: (page.select_option(f"{APP} .sucs-add-list", "tl5-7"),
                        page.select_option(f"{APP} .sucs-add-unit", "tl5-7/light-tank"),
                        page.click(f'{APP} [data-sucs="add"]')),
    }
    for what, press in refusals.items():
        page.evaluate("() => { document.querySelector('.sucs-notice-text').textContent = ''; }")
        press()
        settle(page)
        text = notice(page)
        assert "No line was added" in text and "a roster takes at most 100" in text, (what, text)
        assert line_count(page) == 100, what
        assert len(entries(page)[0]["roster"]["units"]) == 100, what
        assert page.locator(f"{APP} .sucs-editor").is_hidden(), what
    # one line removed: a line may be added again
    page.locator(f"{APP} .sucs-line").last.get_by_role("button", name="Remove").click()
    settle(page)
    page.click(f'{APP} [data-sucs="add-blank"]')
    settle(page)
    assert line_count(page) == 100 and page.locator(f"{APP} .sucs-editor").is_visible()
    assert entries(page)[0]["roster"]["units"][-1]["name"] == "Custom unit"


def test_an_addition_storage_has_no_room_for_is_refused_before_it_is_full(builder: Page, tmp_path: Path) -> None:
    page = builder
    reopen(page, saved(lines(3)))
    used = page.evaluate("() => Object.keys(localStorage).reduce((n, k) => n + k.length + localStorage.getItem(k).length, 0)")
    page.evaluate("n => localStorage.setItem('filler', 'x'.repeat(n))", core.STORAGE_CHARS - used - 40_000)
    page.click(f'{APP} [data-sucs="add-blank"]')
    settle(page)
    text = notice(page)
    assert "The unit was not added" in text and "nearly full" in text, text
    assert "About 39 kB is left" in text or "About 38 kB is left" in text, text
    assert line_count(page) == 3 and len(entries(page)[0]["roster"]["units"]) == 3
    assert page.locator(f"{APP} .sucs-save-problem").is_hidden()  # refused before, not failed after
    path = tmp_path / "one.json"
    path.write_text(json.dumps(army(3)))
    page.set_input_files(f"{APP} .sucs-import", str(path))
    problems = page.locator(f"{APP} .sucs-problems")
    problems.wait_for(timeout=RUNTIME_TIMEOUT_MS)
    settle(page)
    assert "was not imported; nothing was changed" in problems.inner_text() and "kB is left" in problems.inner_text()
    assert names(page) == ["Full"]
    page.evaluate("() => localStorage.removeItem('filler')")
    page.click(f'{APP} [data-sucs="add-blank"]')
    settle(page)
    assert len(entries(page)[0]["roster"]["units"]) == 4


# ---- 2. a saved roster over the limit: shown, exported, imported ------------------------------

def test_a_saved_roster_of_103_lines_shows_exports_and_imports_whole(builder: Page, tmp_path: Path) -> None:
    page = builder
    big = lines(103, "Horde")
    reopen(page, {**saved(big, "horde"), **saved(army(1), "small")})
    assert names(page) == ["Horde", "Army 01"]
    page.select_option(f"{APP} .sucs-pick", "horde")
    settle(page)
    assert line_count(page) == 103
    assert page.locator(f"{APP} .sucs-damage").is_hidden() and kept(page) == {}
    page.click(f'{APP} [data-sucs="add-blank"]')
    settle(page)
    assert "has 103 lines" in notice(page) and line_count(page) == 103
    one = download(page, page.locator(f"{APP} .sucs-files").get_by_role("button", name="Export roster"),
                   tmp_path / "horde.json")
    every = download(page, page.locator(f"{APP} .sucs-files").get_by_role("button", name="Export all rosters"),
                     tmp_path / "all.json")
    assert json.loads(one.read_text()) == big
    assert big in json.loads(every.read_text())["rosters"]
    for path, says in ((one, "1 roster added"), (every, "2 rosters added")):
        reopen(page, {})
        import_file(page, path, says)
        assert page.locator(f"{APP} .sucs-problems").is_hidden()
        back = next(e["roster"] for e in entries(page) if e["roster"]["name"] == "Horde")
        assert back == big  # whole, line for line


# ---- 3. the old single-key store, whatever its size ---------------------------------------------

def old_store(count: int) -> tuple[str, list[str]]:
    rosters = [roster(f"Army {i:02d}", [unit(PRESETS[(i + k) % len(PRESETS)], 1 + k % 3) for k in range(100)],
                      limit=5000) for i in range(count)]
    raw = json.dumps({"schema": "sucs-roster-store", "version": 1, "active": "old0",
                      "rosters": [{"id": f"old{i}", "rev": 1, "roster": r} for i, r in enumerate(rosters)]},
                     separators=(",", ":"))
    return raw, [r["name"] for r in rosters]


def visit_again(page: Page) -> None:
    instant_goto(page, "../")
    instant_goto(page, "roster/")
    settle(page)


def test_an_old_store_of_3_mb_moves_whole_and_deleted_rosters_stay_deleted(builder: Page) -> None:
    page = builder
    raw, all_names = old_store(70)
    assert len(raw) > 3_000_000, len(raw)
    reopen(page, {LEGACY: raw})
    assert sorted(names(page)) == all_names
    assert page.locator(f"{APP} .sucs-pick option").count() == 70
    assert page.evaluate(f"() => localStorage.getItem('{LEGACY}')") is None
    assert page.locator(f"{APP} .sucs-storage").is_hidden()
    for _ in range(10):
        page.click(f'{APP} [data-sucs="delete"]')
        settle(page)
    left = sorted(names(page))
    assert len(left) == 60
    visit_again(page)
    assert sorted(names(page)) == left  # none of the ten comes back
    assert page.locator(f"{APP} .sucs-pick option").count() == 60


def test_an_old_store_without_room_says_what_is_left_until_it_moves(builder: Page) -> None:
    page = builder
    raw, all_names = old_store(70)
    # the site's other saved data leaves no room for one roster beside the old store
    filler = "x" * (core.STORAGE_CHARS - len(raw) - len(LEGACY) - 40_000)
    reopen(page, {LEGACY: raw, "filler": filler})
    problem = page.locator(f"{APP} .sucs-move-problem")
    assert problem.is_visible()
    text = problem.inner_text()
    assert "70 of the 70 rosters saved by an earlier version" in text and "storage is full" in text
    assert "“Army 00”" in text and "and 62 more" in text and "not lost" in text
    assert names(page) == ["My first army"]
    assert page.evaluate(f"() => localStorage.getItem('{LEGACY}')") == raw  # untouched
    # a change saved afterwards does not hide it
    page.click(f'{APP} [data-sucs="add"]')
    settle(page)
    assert "Saved again" not in notice(page)
    assert problem.is_visible() and "could not be moved" in problem.inner_text()
    # room freed (the other data gone, a roster deleted here): the rest moves at once
    page.evaluate("() => localStorage.removeItem('filler')")
    page.click(f'{APP} [data-sucs="delete"]')
    page.wait_for_function("() => document.querySelectorAll('.sucs-pick option').length >= 70",
                           timeout=RUNTIME_TIMEOUT_MS)
    settle(page)
    assert sorted(n for n in names(page) if n != "My first army") == all_names
    assert problem.is_hidden()
    assert page.evaluate(f"() => localStorage.getItem('{LEGACY}')") is None
    put_storage(page, {})


# ---- 4. more rosters than the builder adds: exported, imported whole ------------------------------

def test_202_rosters_exported_import_whole_into_a_fresh_browser(browser: Browser, site, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    rosters = [army(i, size=1) for i in range(202)]
    for i, r in enumerate(rosters):
        r["name"] = f"Army {i:03d}"
    items = {ENTRY + f"a{i}": json.dumps({"id": f"a{i}", "rev": 1, "order": i, "roster": r})
             for i, r in enumerate(rosters)}
    context = guarded_context(browser, site)
    try:
        page = context.new_page()
        errors = errors_of(page)
        page.goto(site.url)
        put_storage(page, items)
        page.goto(site.url + "sucs/roster/")
        settle(page)
        assert page.locator(f"{APP} .sucs-pick option").count() == 202
        path = download(page, page.locator(f"{APP} .sucs-files").get_by_role("button", name="Export all rosters"),
                        tmp_path / "all.json")
        assert json.loads(path.read_text())["rosters"] == rosters
        assert not errors, errors
    finally:
        context.close()
    with guarded_page(browser, site, "sucs/roster/", APP) as (page, errors):
        import_file(page, path, "202 rosters added")
        assert [e["roster"] for e in entries(page)][1:] == rosters  # whole, in order
        page.click(f'{APP} [data-sucs="new"]')
        settle(page)
        assert "the builder keeps at most 200" in notice(page)
        assert len(entries(page)) == 203
        assert not errors, errors
