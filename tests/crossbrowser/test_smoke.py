"""Smoke tests in Firefox ESR and WebKitGTK (Safari's engine), beside the Chromium suite.

Each engine, each test in a browser session of its own (a page that dies takes only its
own test with it): every page loads with no page error; every widget and app goes live,
and every calculator recomputes after an input change (one session: Pyodide starts once,
then instant navigation keeps it); the army builder and the tracker keep their data
through a reload; a battle played on the army builder's page is told with every action's
side and its own dice; a page visited once works offline (the server is stopped, the page
reloads from the service worker's cache and its widget goes live).

Widgets are taken one by one, each step a script of its own, and the engine is told what
the test is doing (``engine.where``): a page that dies is reported with the page, the
widget and the step it died on, the last result before it, what became of the browser's
processes and the engine's own log (``engines.PageCrashed``).
"""

from __future__ import annotations

import functools
import json
import threading
import warnings
from collections.abc import Callable, Iterator
from typing import Any

import pytest

from calculators import serve
from rules_core.sucs import roster
from tests.browser.roster_storage import ACTIVE, entry_items
from tests.browser.support import WASM, site_pages
from tests.browser.test_battle_links import BLUE as TEN_BLUE
from tests.browser.test_battle_links import RED as TEN_RED
from tests.browser.test_sucs_account import check_account
from tests.conftest import _free_port, served
from tests.crossbrowser import page_scripts as js
from tests.crossbrowser.engines import ENGINES, Engine, PageCrashed
from tests.rules_core.test_sucs_account import BLUE, RED

pytestmark = [pytest.mark.browser, pytest.mark.crossbrowser]

#: first start of Pyodide in WebKit is slow (about 25 s on a quiet machine): allow for load
LIVE_TIMEOUT_MS = 600_000
#: a link followed by instant navigation: its page is in well within this on a busy machine
NAVIGATE_TIMEOUT_MS = 120_000


@pytest.fixture(params=sorted(ENGINES))
def engine(request: pytest.FixtureRequest) -> Iterator[Engine]:
    browser = ENGINES[request.param]()
    yield browser
    browser.quit()


def retry_an_engine_crash_once(test: Callable[..., None]) -> Callable[..., None]:
    """Run ``test`` again, once, in a new browser session when WebKit's web process crashed
    under it (``PageCrashed`` of kind "crash": the process went away, WebKit's release log
    says reason=Crash, and nothing says memory or a service worker that would not stop),
    saying so as a warning with the whole report. A CI run saw WebKitGTK's web process die
    under the crawl once in four runs (issue 31); a page cannot crash a browser, so that
    is the engine's fault. Nothing else is retried: a page killed for its memory or for
    its service worker, a hang, a browser gone, a failure or a second crash fail the test."""

    @functools.wraps(test)
    def run(engine: Engine, *args: Any, **kwargs: Any) -> None:
        try:
            test(engine, *args, **kwargs)
            return
        except PageCrashed as crash:
            if engine.name != "webkit" or crash.kind != "crash":
                raise
            warnings.warn(pytest.PytestWarning(
                f"{test.__name__}[{engine.name}]: WebKit's web process crashed; "
                f"the test runs once more in a new session. The crash:\n{crash}"), stacklevel=1)
        engine.quit()
        again = ENGINES[engine.name]()
        try:
            test(again, *args, **kwargs)
        finally:
            again.quit()

    return run


def _errors(engine: Engine) -> list[str]:
    return engine.errors() + engine.run(js.ERRORS)


def _live(engine: Engine, path: str, recompute: bool) -> list[dict[str, Any]]:
    """Every widget and app of the page goes live (and, with ``recompute``, every
    calculator answers a change), one script a widget: their entries."""
    out = []
    for index, name in enumerate(engine.run(js.WIDGETS)):
        engine.where = f"/{path}: {name} going live"
        entry = engine.run(js.LIVE, [index, LIVE_TIMEOUT_MS])
        entry["recomputed"] = None
        if recompute:
            engine.where = f"/{path}: {name} recomputing after a change"
            entry["recomputed"] = engine.run(js.RECOMPUTE, [index, LIVE_TIMEOUT_MS])
        out.append(entry)
    return out


@retry_an_engine_crash_once
def test_every_page_loads_and_every_widget_goes_live_and_recomputes(engine: Engine, site) -> None:  # type: ignore[no-untyped-def]
    engine.where = "loading the home page"
    engine.goto(site.url)
    assert engine.run(js.ERRORS) == []  # installs the page's error record
    widgets = recomputed = calculators = 0
    starts = []
    for path in site_pages(site):
        engine.where = f"following a link to /{path}"
        if engine.run(js.NAVIGATE, ["/" + path, NAVIGATE_TIMEOUT_MS]) != "/" + path:
            # the theme's instant navigation did not take the link: a full page load
            engine.where = f"loading /{path} in full"
            engine.goto(site.url + path)
            assert engine.run(js.ERRORS) == [], f"{engine.name} /{path}"
        for entry in _live(engine, path, recompute=True):
            where = f"{engine.name} /{path} {entry['name']}"
            assert entry["status"] == "ready", (where, entry)
            starts.append(entry["runtime"])
            widgets += 1
            if entry["recomputed"] is not None:
                assert entry["recomputed"]["answered"], (where, entry["recomputed"])
                recomputed += entry["recomputed"]["ok"]
                calculators += 1
        engine.where = f"/{path}: reading its errors"
        assert _errors(engine) == [], f"{engine.name} /{path}"
    # the visit's first start restored the site's own snapshot (a new profile keeps none)
    assert starts[0] == "ready shipped", (engine.name, starts[:3])
    # every calculator page's widgets answered a change; most changes give a new result
    assert widgets >= 30 and calculators >= 25 and recomputed >= calculators * 3 // 4, \
        (widgets, calculators, recomputed)


@retry_an_engine_crash_once
def test_the_army_builder_and_the_tracker_keep_their_data_through_a_reload(engine: Engine, site) -> None:  # type: ignore[no-untyped-def]
    # the army builder last: its page then plays a battle, and is not left afterwards
    for path, action, count in (("phases/tracker/", js.TRACKER_ROLL, js.TRACKER_COUNT),
                                ("sucs/roster/", js.ROSTER_ADD, js.ROSTER_COUNT)):
        engine.where = f"/{path}: loading it and using the app"
        engine.goto(site.url + path)
        engine.run(js.ERRORS)
        before = engine.run(action, LIVE_TIMEOUT_MS)
        assert before >= 1, (engine.name, path)
        engine.where = f"/{path}: reloading it and counting what the app kept"
        engine.reload()
        engine.run(js.ERRORS)
        assert engine.run(count, LIVE_TIMEOUT_MS) == before, (engine.name, path)
        assert _errors(engine) == [], (engine.name, path)
        if path == "sucs/roster/":
            # the same page, live: two rosters of the same kinds of unit fight, and the
            # account read off the page names the side of every action, each die sits with
            # its action, and the time word is "turn" (the checks of the Chromium suite's
            # test_sucs_account.py, at the engine's own window size)
            engine.where = "/sucs/roster/: playing a battle between two rosters of the same kinds"
            blocks = engine.run(js.BATTLE_ACCOUNT, [{"roster_a": RED, "roster_b": BLUE}, LIVE_TIMEOUT_MS])
            assert check_account(blocks, "") >= 2, (engine.name, blocks)
            assert _errors(engine) == [], engine.name


@retry_an_engine_crash_once
def test_a_page_visited_once_works_offline(engine: Engine, site) -> None:  # type: ignore[no-untyped-def]
    port = _free_port()
    url = f"http://127.0.0.1:{port}/gunplay/difficulty/"
    with served(site.dir, port):
        engine.where = "loading /gunplay/difficulty/ online"
        engine.goto(url)
        engine.run(js.ERRORS)
        live = _live(engine, "gunplay/difficulty/", recompute=False)
        assert all(e["status"] == "ready" for e in live), (engine.name, live)
        engine.where = "/gunplay/difficulty/: waiting for the service worker to hold the page"
        assert engine.run(js.OFFLINE_READY, LIVE_TIMEOUT_MS), engine.name
    engine.where = "reloading /gunplay/difficulty/ offline"
    engine.reload()  # the server is gone: only the service worker can answer
    engine.run(js.ERRORS)
    live = _live(engine, "gunplay/difficulty/", recompute=False)
    assert live and all(e["status"] == "ready" for e in live), (engine.name, live)
    assert _errors(engine) == [], engine.name


class _HeldRuntime(serve.QuietSiteHandler):
    """The site, with the runtime's WebAssembly held back until :attr:`go` is set (a
    slow link): pages load, their engine stays loading."""

    go = threading.Event()

    def send_head(self):  # type: ignore[no-untyped-def]
        if self.path.split("?")[0].endswith(WASM):  # the file, or packed (a first visit's)
            self.go.wait(timeout=LIVE_TIMEOUT_MS / 1000)
        return super().send_head()


def _early_fight_cut_link_and_export(engine: Engine, base: str) -> tuple[str, list[dict]]:
    """The steps of the test below on the server at ``base`` whose runtime is held back:
    the file Export all wrote, and the rosters it holds."""
    engine.where = "writing two ten-unit rosters into storage"
    engine.goto(base)
    engine.run(js.ERRORS)
    engine.run(js.PUT_STORAGE, entry_items((TEN_RED, TEN_BLUE), ("red", "blue")) | {ACTIVE: "red"})
    engine.where = "/sucs/roster/: Fight this roster before the engine is live"
    engine.goto(base + "sucs/roster/")
    engine.run(js.ERRORS)
    early = engine.run(js.FIGHT_EARLY, ["blue", LIVE_TIMEOUT_MS])
    assert early["early"], (engine.name, early)
    assert "as soon as the rules engine is ready" in early["note"], (engine.name, early)
    _HeldRuntime.go.set()
    engine.where = "/sucs/roster/: the early fight, once the engine is live"
    done = engine.run(js.FIGHT_DONE, LIVE_TIMEOUT_MS)
    assert "“Red platoon” (side A) against “Blue company” (side B)" in done["note"], (engine.name, done)
    link = done["link"]
    assert len(link) < 2_000, (engine.name, len(link))
    assert _errors(engine) == [], engine.name
    for cut in (link[:300], link[:1_000], link[:-1]):
        engine.where = f"opening the battle's link cut at {len(cut)} characters"
        engine.goto(cut)
        engine.run(js.ERRORS)
        note = engine.run(js.LINK_NOTE, LIVE_TIMEOUT_MS)
        assert note.startswith("This link is cut off"), (engine.name, len(cut), note)
    engine.where = "/sucs/roster/: exporting 202 rosters"
    rosters = [roster.normalize_roster({**roster.blank(f"Army {i:03d}", 0),
                                        "units": TEN_RED["units"][:1]})[0] for i in range(202)]
    engine.run(js.PUT_STORAGE, entry_items(rosters, [f"a{i}" for i in range(len(rosters))]))
    engine.goto(base + "sucs/roster/")
    engine.run(js.ERRORS)
    text = engine.run(js.EXPORT_ALL, LIVE_TIMEOUT_MS)
    assert json.loads(text)["rosters"] == rosters, engine.name
    assert _errors(engine) == [], engine.name
    return text, rosters


@retry_an_engine_crash_once
def test_a_battle_fought_early_shared_cut_and_every_roster_exported_to_a_fresh_browser(engine: Engine, site) -> None:  # type: ignore[no-untyped-def]
    """The army builder in the engine: Fight this roster pressed before the engine is live
    says it will fight, and fights once the engine is ready; the battle's link between two
    ten-unit rosters is under 2,000 characters, and cut at 300 and 1,000 characters and one
    short of its end says plainly that it is cut off; 202 rosters exported with Export all
    come back whole when imported into a fresh browser."""
    port = _free_port()
    _HeldRuntime.go.clear()
    base = f"http://127.0.0.1:{port}/"
    with served(site.dir, port, _HeldRuntime):
        try:
            text, rosters = _early_fight_cut_link_and_export(engine, base)
        finally:
            _HeldRuntime.go.set()
    fresh = ENGINES[engine.name]()
    try:
        fresh.where = "a fresh browser: importing the 202 rosters"
        fresh.goto(site.url + "sucs/roster/")
        fresh.run(js.ERRORS)
        got = fresh.run(js.IMPORT_TEXT, [text, "202 rosters added", LIVE_TIMEOUT_MS])
        assert got["rosters"][1:] == rosters, (engine.name, got["notice"], len(got["rosters"]))
        assert _errors(fresh) == [], engine.name
    finally:
        fresh.quit()
