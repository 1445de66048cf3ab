"""How the army builder's saved rosters are read in browser tests: one localStorage key
per roster, scoped by the site's base path (site.js ``scopedKey``; the test site is served
at ``/``), holding ``{id, rev, order, roster}``."""

from __future__ import annotations

import json
from collections.abc import Iterator

import pytest
from playwright.sync_api import Page

from rules_core.sucs.calc_tech_levels import preset_json
from rules_core.sucs.presets import by_id
from tests.browser.support import put_storage, wait_app_ready

SCOPE = "tcr:/:"
ENTRY = SCOPE + "sucs-roster:"
ACTIVE = SCOPE + "sucs-rosters:active"
KEPT = SCOPE + "sucs-rosters:kept:"
LEGACY = "sucs-rosters:v1"  # the single-key store of earlier versions
APP = '.calc-app[data-app="sucs_roster"]'
#: everything the page keeps in localStorage but what the runtime writes on its own time
#: (client.js keepEarlyStart: once its snapshot is saved, whenever the page is quiet)
SNAPSHOT = ("() => JSON.stringify(Object.keys(localStorage).filter(k => !k.endsWith(':runtime-early'))"
            ".sort().map(k => [k, localStorage.getItem(k)]))")


def unit(preset_id: str, count: int = 1, **changes: object) -> dict:
    """A roster line of ``count`` models of a preset, with ``changes`` to its stats."""
    data = preset_json(by_id()[preset_id])
    return {"name": data["name"], "count": count, "preset": preset_id,
            "stats": {**data["stats"], **changes}}


def entries(page: Page) -> list[dict]:
    """Every saved roster entry, in the builder's order."""
    raw = page.evaluate(f"""() => Object.keys(localStorage).filter(k => k.startsWith('{ENTRY}'))
        .map(k => localStorage.getItem(k))""")
    found = [json.loads(text) for text in raw]
    return sorted(found, key=lambda e: (e["order"], e["id"]))


def names(page: Page) -> list[str]:
    return [e["roster"]["name"] for e in entries(page)]


def active_roster(page: Page) -> dict:
    active = page.evaluate(f"() => localStorage.getItem('{ACTIVE}')")
    return next(e["roster"] for e in entries(page) if e["id"] == active)


def entry(page: Page, roster_id: str) -> dict:
    return next(e for e in entries(page) if e["id"] == roster_id)


def kept(page: Page) -> dict[str, str]:
    return page.evaluate(f"""() => Object.fromEntries(Object.keys(localStorage)
        .filter(k => k.startsWith('{KEPT}')).map(k => [k, localStorage.getItem(k)]))""")


def legacy_text(*rosters: dict, ids: tuple[str, ...] = (), **header: object) -> str:
    """The old single-key store holding these rosters."""
    ids = ids or tuple(f"r{i}" for i in range(len(rosters)))
    data = {"schema": "sucs-roster-store", "version": 1, "active": ids[0] if ids else None,
            "rosters": [{"id": i, "rev": 1, "roster": r} for i, r in zip(ids, rosters)]}
    data.update(header)
    return json.dumps(data)


def entry_items(rosters: tuple[dict, ...] | list[dict], ids: tuple[str, ...] | list[str]) -> dict[str, str]:
    """Rosters as the builder saves them: one localStorage key each, in this order."""
    return {ENTRY + i: json.dumps({"id": i, "rev": 1, "order": n, "roster": r})
            for n, (i, r) in enumerate(zip(ids, rosters))}


def put_entries(page: Page, *rosters: dict, ids: tuple[str, ...] = ()) -> None:
    """Write rosters as the builder saves them (one key each), after clearing storage."""
    ids = ids or tuple(f"r{i}" for i in range(len(rosters)))
    items = entry_items(rosters, ids)
    if ids:
        items[ACTIVE] = ids[0]
    put_storage(page, items)


def settle(page: Page) -> None:
    """Until the army builder is ready and idle."""
    wait_app_ready(page, APP)


@pytest.fixture(scope="module", name="builder")
def builder_fixture(module_page: Page, site) -> Page:  # type: ignore[no-untyped-def]
    """The module's page on the army builder; a dialog is an error (it asks in the page)."""
    module_page.on("dialog", lambda d: (module_page.log.page_errors.append(  # type: ignore[attr-defined]
        f"unexpected dialog: {d.message}"), d.dismiss()))
    module_page.goto(site.url + "sucs/roster/")
    settle(module_page)
    return module_page


@pytest.fixture(autouse=True, name="no_page_errors")
def no_page_errors_fixture(request) -> Iterator[None]:  # type: ignore[no-untyped-def]
    """After each test on ``builder``: no page error and no request off the site."""
    yield
    if "builder" in request.fixturenames:
        page = request.getfixturevalue("builder")
        assert not page.log.page_errors, page.log.page_errors
        assert not page.log.external_requests, page.log.external_requests
