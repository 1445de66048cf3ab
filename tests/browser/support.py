"""Helpers for browser tests: wait for widgets, navigate without reloading Pyodide."""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any
from urllib.parse import urlparse

import pytest
from playwright.sync_api import Browser, BrowserContext, Dialog, Locator, Page, Route

from calculators.layout import PACKED_SUFFIX
from rules_core.dice.distribution import percent
from tests.crossbrowser.page_scripts import NAVIGATE

RUNTIME_TIMEOUT_MS = 120_000  # Pyodide's first start on a busy 2-core machine

#: how a download of Pyodide's WebAssembly ends: the file, or the file packed (what a first
#: visit downloads: worker.js precompile)
WASM = (".wasm", ".wasm" + PACKED_SUFFIX)
#: the same, as globs a route takes
WASM_GLOBS = tuple("**/*" + suffix for suffix in WASM)

#: where browser tests keep screenshots and printed PDFs to look at
SHOTS = Path(__file__).resolve().parents[2] / "test-results" / "screenshots"

#: JavaScript for the URL of the calculators' entry module the page loaded (its name is
#: content-hashed at build time)
ENTRY_MODULE_URL = ("[...document.scripts].find("
                    "s => s.src.includes('/assets/calculators/calculators.')).src")

#: an init script that makes every localStorage write fail as a full store does, until
#: the page sets ``window.__storageFull = false``
FULL_STORAGE = """(() => {
  const real = Storage.prototype.setItem;
  window.__storageFull = true;
  Storage.prototype.setItem = function (key, value) {
    if (window.__storageFull) throw new DOMException('The quota has been exceeded.', 'QuotaExceededError');
    return real.call(this, key, value);
  };
})()"""


@contextmanager
def runtime_held(page: Page) -> Iterator[None]:
    """Inside, the runtime's WebAssembly download never answers (the runtime stays
    loading); the held requests are aborted on leaving."""
    held: list[Route] = []

    def hold(route: Route) -> None:
        held.append(route)

    for glob in WASM_GLOBS:
        page.route(glob, hold)
    try:
        yield
    finally:
        for route in held:
            route.abort()
        for glob in WASM_GLOBS:
            page.unroute(glob, hold)


def site_pages(site, widgets_only: bool = False) -> list[str]:  # type: ignore[no-untyped-def]
    """Every page of the built site as a path relative to its root ("" for the home
    page, "gunplay/bursts/"), optionally only those with a calculator or an app."""
    pages = []
    for path in sorted(site.dir.rglob("index.html")):
        rel = path.parent.relative_to(site.dir).as_posix()
        if rel.startswith(("assets/", "search/")):
            continue
        if widgets_only:
            text = path.read_text(encoding="utf-8")
            if "data-calculator=" not in text and 'class="calc-app"' not in text:
                continue
        pages.append("" if rel == "." else rel + "/")
    return pages


def opened(page: Page, site, rel: str) -> Page:  # type: ignore[no-untyped-def]
    """``page`` loaded afresh at the site page ``rel``."""
    page.goto(site.url + rel)
    return page


def prerendered(site, rel: str, calculator: str) -> str:  # type: ignore[no-untyped-def]
    """The built HTML of the site page ``rel``, which must hold the widget ``calculator``
    with the result the build computed."""
    html = (site.dir / rel / "index.html").read_text()
    assert f'data-calculator="{calculator}"' in html
    assert 'data-status="prerendered"' in html
    return html


def widget(page: Page, calculator: str, index: int = 0) -> Locator:
    return page.locator(f'.calc[data-calculator="{calculator}"]').nth(index)


def wait_settled(page: Page, root: Locator, timeout: int = RUNTIME_TIMEOUT_MS) -> str:
    """Wait until a widget or app is neither loading nor busy; return its status."""
    handle = root.element_handle()
    page.wait_for_function(
        "el => el.dataset.status !== 'loading' && el.dataset.status !== 'prerendered' && !el._busy",
        arg=handle, timeout=timeout,
    )
    return root.get_attribute("data-status") or ""


def goes_live_unchanged(page: Page, root: Locator) -> None:
    """The prerendered widget ``root`` goes live and shows the same headline the build
    wrote into the page."""
    before = root.locator(".calc-headline").inner_text()
    assert wait_settled(page, root) == "ready"
    assert root.locator(".calc-headline").inner_text() == before


def wait_result(page: Page, root: Locator, change: Any) -> dict:
    """Run ``change()`` and return the next computed reply (the ``calc:result`` event)."""
    handle = root.element_handle()
    page.evaluate(
        "el => { el._lastReply = null; el.addEventListener('calc:result',"
        " e => { el._lastReply = e.detail; }, { once: false }); }",
        handle,
    )
    change()
    page.wait_for_function("el => el._lastReply && !el._busy", arg=handle,
                           timeout=RUNTIME_TIMEOUT_MS)
    return page.evaluate("el => el._lastReply", handle)


def bridge_call(page: Page, body: str, arg: Any) -> Any:
    """Run ``body`` (JavaScript statements that see ``bridge``, the calculator bridge of
    the module the site loaded, and ``arg``) in the page and return what it returns."""
    return page.evaluate(
        f"async (arg) => {{ const {{ bridge }} = await import({ENTRY_MODULE_URL});\n{body}\n}}",
        arg)


def live_run(page: Page, name: str, inputs: dict) -> dict:
    """``api.run`` in the page's own worker, through the module the site loaded."""
    return bridge_call(page, """const root = document.querySelector('.calc[data-calculator], .calc-app');
             return bridge.run(root, arg[0], arg[1]);""", [name, inputs])


def wait_app_ready(page: Page, app: str) -> None:
    """Until the app matched by the selector ``app`` is ready and idle."""
    page.wait_for_function(
        f"() => {{ const el = document.querySelector('{app}');"
        " return el && el.dataset.status === 'ready' && !el._busy; }",
        timeout=RUNTIME_TIMEOUT_MS)


def put_storage(page: Page, items: dict[str, str]) -> None:
    """Clear the page's localStorage and write ``items`` into it."""
    page.evaluate("items => { localStorage.clear(); for (const [k, v] of Object.entries(items))"
                  " localStorage.setItem(k, v); }", items)


def guarded_context(browser: Browser, site) -> BrowserContext:  # type: ignore[no-untyped-def]
    """A fresh browser profile (its own localStorage) that may not leave the site."""
    context = browser.new_context(base_url=site.url, viewport={"width": 1280, "height": 900},
                                  service_workers="block")
    host = urlparse(site.url).netloc
    context.route("**/*", lambda route: route.abort() if urlparse(route.request.url).netloc
                  not in (host, "") else route.continue_())
    return context


@contextmanager
def guarded_page(browser: Browser, site, path: str, app: str,  # type: ignore[no-untyped-def]
                 init_script: str = "") -> Iterator[tuple[Page, list[str]]]:
    """A page of a fresh :func:`guarded_context` with ``init_script`` run before the page's
    own, opened at ``path`` with the app ``app`` ready, and the list :func:`errors_of` fills
    for it; the context is closed afterwards."""
    context = guarded_context(browser, site)
    try:
        page = context.new_page()
        errors = errors_of(page)
        if init_script:
            page.add_init_script(init_script)
        page.goto(site.url + path)
        wait_app_ready(page, app)
        yield page, errors
    finally:
        context.close()


@contextmanager
def two_tabs_at(browser: Browser, site, path: str, app: str,  # type: ignore[no-untyped-def]
                prepare: Callable[[Page], None] | None = None
                ) -> Iterator[tuple[Page, Page, list[str]]]:
    """Two tabs of one fresh :func:`guarded_context` (so one localStorage), both open at
    ``path`` with the app ``app`` ready, and the list :func:`errors_of` fills for both;
    ``prepare`` runs on the first tab before either opens the page."""
    context = guarded_context(browser, site)
    try:
        first, second = context.new_page(), context.new_page()
        errors = errors_of(first, second)
        if prepare:
            prepare(first)
        for page in (first, second):
            page.goto(site.url + path)
        for page in (first, second):
            wait_app_ready(page, app)
        yield first, second, errors
    finally:
        context.close()


def download(page: Page, button: Locator, path: Path) -> Path:
    """Click ``button`` and save the file it downloads as ``path``."""
    with page.expect_download() as info:
        button.click()
    info.value.save_as(path)
    return path


def errors_of(*pages: Page) -> list[str]:
    """One list that collects every page error (with its stack) and every dialog (each
    dismissed) of ``pages`` from now on."""
    found: list[str] = []

    def dialog(d: Dialog) -> None:
        found.append(f"dialog: {d.message}")
        d.dismiss()

    for page in pages:
        page.on("pageerror", lambda e: found.append(f"{e}\n{e.stack or ''}"))
        page.on("dialog", dialog)
    return found


def shot_path(rel: str, suffix: str, folder: str = "") -> Path:
    """The screenshot file for the site page ``rel`` (``home`` for the front page) under
    :data:`SHOTS` (in ``folder`` if given), its directory made."""
    where = SHOTS / folder if folder else SHOTS
    where.mkdir(parents=True, exist_ok=True)
    return where / f"{(rel.strip('/').replace('/', '_') or 'home')}-{suffix}.png"


def goto_once(page: Page, site, rel: str) -> None:  # type: ignore[no-untyped-def]
    """Instant navigation to the site page ``rel``, unless it is already open (Material
    does not reload the page for a link to itself)."""
    if page.url.split("#")[0].split("?")[0] != site.url + rel:
        instant_goto(page, site.url + rel)


def instant_goto(page: Page, path: str) -> None:
    """Follow a link the way a reader does: Material's instant navigation keeps the
    JavaScript context (and so the one Pyodide worker) alive. ``path`` is resolved
    against the current page, as the site's own links are. Returns once Material has
    swapped in the new page; fails if the theme did not take the link (a full load would
    start the runtime afresh, not what the caller tests) or its page did not come."""
    target = page.evaluate("path => new URL(path, location.href).pathname", path)
    arrived = page.evaluate(NAVIGATE, [path, RUNTIME_TIMEOUT_MS])
    assert arrived == target, f"instant navigation to {path}: {arrived}"


def sw_manifest(site_dir) -> dict:  # type: ignore[no-untyped-def]
    """The manifest the post-build step wrote into the site's service worker."""
    import json
    import re

    text = (site_dir / "sw.js").read_text(encoding="utf-8")
    return json.loads(re.search(r"const MANIFEST = (\{.*?\});\n", text, re.S).group(1))  # type: ignore[union-attr]


def wait_offline_copy(page: Page, site_dir, base_url: str) -> None:  # type: ignore[no-untyped-def]
    """Until the service worker of the site at ``base_url`` holds every file of the build
    in ``site_dir`` (pages and assets fetched ahead, the runtime kept on first use), each
    with the content hash the manifest lists."""
    files = sw_manifest(site_dir)["files"]
    # polled from here: a predicate that returns a promise would count as true at once
    missing_js = """async ([base, files]) => {
             const scope = new URL(base).pathname;
             const have = new Map();
             for (const name of ['files', 'pages']) {
               const cache = await caches.open(`tcr:${scope}:${name}`);
               for (const request of await cache.keys()) {
                 have.set(request.url, (await cache.match(request)).headers.get('x-tcr-hash'));
               }
             }
             return Object.entries(files).filter(([url, hash]) => have.get(new URL(url, base).href) !== hash)
               .map(([url]) => url);
           }"""
    deadline = time.monotonic() + RUNTIME_TIMEOUT_MS / 1000
    missing = page.evaluate(missing_js, [base_url, files])
    while missing and time.monotonic() < deadline:
        page.wait_for_timeout(500)
        missing = page.evaluate(missing_js, [base_url, files])
    assert not missing, f"the offline copy lacks {len(missing)} files, e.g. {missing[:5]}"


def search_site(page: Page, query: str = "morale") -> None:
    """Search the site as a reader does (the theme's search box); wait for results."""
    box = page.locator("input.md-search__input")
    box.click()
    box.press_sequentially(query)
    page.wait_for_function("() => document.querySelectorAll('.md-search-result__item').length > 0",
                           timeout=RUNTIME_TIMEOUT_MS)


def simulation_shown(page: Page, root: Locator, got: dict, expected: dict, outcome: str,
                     height: int) -> str:
    """The widget ``root`` answered with CPython's simulation ``expected`` (``got``: the
    browser's reply): the same fights from the same seed (sums of floats may differ in
    their last place: the browser's newer Python adds them with compensation), the
    ``outcome``'s 95% interval in the headline, which is in a viewport ``height`` px high,
    and the explanation saying it is a simulation. Returns the widget's text."""
    assert got["method"] == "simulation" and got["trials"] == expected["trials"]
    for key in ("outcomes", "intervals", "by_round", "end_round", "losses_a", "losses_b",
                "simulated_because"):
        assert got.get(key) == expected.get(key), key
    for key in ("expected_losses_a", "expected_losses_b", "expected_rounds"):
        assert got[key] == pytest.approx(expected[key], rel=1e-12), key
    wait_settled(page, root)
    shown = root.locator(".calc-headline").first
    low, high = expected["intervals"][outcome]
    assert f"({percent(low)} to {percent(high)})" in shown.inner_text()
    shown.scroll_into_view_if_needed()
    box = shown.bounding_box()
    assert box is not None and 0 <= box["y"] and box["y"] + box["height"] <= height
    text = " ".join((root.text_content() or "").split())
    assert "A simulation, not exact odds." in text
    return text

