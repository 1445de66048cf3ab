"""Snapshots: a first visit restores the site's own snapshot (made by the build in Node)
and keeps it; every later start restores the kept one (the worker says which path ran).
A kept snapshot that is damaged or refused is dropped quietly, the normal start runs, and
a new snapshot replaces it; a site snapshot that cannot be had, is damaged or is refused
gives way to the normal start, which makes and keeps its own."""

from __future__ import annotations

import json
from collections.abc import Iterator
from contextlib import contextmanager

import pytest
import zstandard
from playwright.sync_api import Browser, BrowserContext, Page

from calculators.layout import PACKED_SUFFIX, SNAPSHOT_SUFFIX
from rules_core import api
from tests.browser.support import (
    RUNTIME_TIMEOUT_MS,
    bridge_call,
    live_run,
    runtime_held,
    search_site,
    wait_settled,
    widget,
)

pytestmark = pytest.mark.browser

PAGE = "gunplay/difficulty/"
DIFFICULTY = "gunplay.difficulty"

#: the snapshot cache of this site (its name ends with the scoped key's name)
SNAPSHOT_CACHE = "(await caches.keys()).find(n => n.endsWith(':runtime-snapshot'))"


#: every calculation worker the page makes (when), every search worker of the theme (when),
#: when the page was parsed and when the runtime went live; the search worker waits for
#: the calculators or the reader only (not for the head's time limit)
COUNT_WORKERS = """
window.TCR_RUNTIME_LIMITS = { search: 600000 };
window.__workersMade = [];
window.__searchMade = [];
const Made = window.Worker;
window.Worker = function (url, ...rest) {
  if (String(url).includes('/assets/calculators/worker.')) window.__workersMade.push(performance.now());
  if (String(url).includes('/workers/search.')) window.__searchMade.push(performance.now());
  return new Made(url, ...rest);
};
document.addEventListener('DOMContentLoaded', () => { window.__parsed = performance.now(); });
new MutationObserver(() => {
  if (document.documentElement.dataset.runtime === 'ready' && !window.__live) window.__live = performance.now();
}).observe(document, { subtree: true, attributes: true, attributeFilter: ['data-runtime'] });
"""

#: what the page keeps for an early start (client.js keepEarlyStart)
EARLY_KEY = "Object.keys(localStorage).find(k => k.endsWith(':runtime-early'))"


def _profile(browser: Browser, site) -> tuple[BrowserContext, Page]:  # type: ignore[no-untyped-def]
    """A new browser profile (nothing kept) and its page, which records its errors."""
    context = browser.new_context(base_url=site.url, service_workers="block")
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.errors = errors  # type: ignore[attr-defined]
    return context, page


@pytest.fixture(scope="module")
def page(browser: Browser, site) -> Iterator[Page]:  # type: ignore[no-untyped-def]
    """One browser profile for the module: its Cache Storage outlives each page load."""
    context, page = _profile(browser, site)
    page.add_init_script(COUNT_WORKERS)
    yield page
    context.close()


def start(page: Page) -> str:
    """Load the calculator page; return which start ran once its widget is live."""
    page.goto(PAGE)
    page.wait_for_function("() => document.documentElement.dataset.runtime === 'ready'",
                           timeout=RUNTIME_TIMEOUT_MS)
    assert wait_settled(page, widget(page, DIFFICULTY)) == "ready"
    return page.evaluate("document.documentElement.dataset.runtimeStart")


def wait_saved(page: Page) -> None:
    page.wait_for_function("() => document.documentElement.dataset.runtimeSnapshot",
                           timeout=RUNTIME_TIMEOUT_MS)
    assert page.evaluate("document.documentElement.dataset.runtimeSnapshot") == "saved"


def snapshot_keys(page: Page) -> list[str]:
    return page.evaluate(f"""async () => {{
        const name = {SNAPSHOT_CACHE};
        if (!name) return [];
        return (await (await caches.open(name)).keys()).map(r => r.url);
    }}""")


def rolls(page: Page, n: int = 6) -> list[str]:
    """Roll a 10-dice burst ``n`` times in the page's worker; the rolls' summaries."""
    return bridge_call(page, """
             const root = document.querySelector('.calc[data-calculator]');
             const out = [];
             for (let i = 0; i < arg; i++) {
               const reply = await bridge.roll(root, 'gunplay.hit_odds',
                                               { dc: 16, bonus: 3, rounds: 10, recoil: 1 });
               if (!reply.ok) throw new Error(JSON.stringify(reply.error));
               out.push(JSON.stringify(reply.result));
             }
             return out;""", n)


def damage_snapshot(page: Page, body: str) -> None:
    """Run ``body`` (JavaScript that sees ``cache``, the snapshot cache, and ``request``,
    its one entry) to damage the kept snapshot."""
    page.evaluate(f"""async () => {{
        const cache = await caches.open({SNAPSHOT_CACHE});
        const [request] = await cache.keys();
        {body}
    }}""")


def falls_back_then_snapshots(page: Page) -> None:
    """The next start is cold, keeps a good snapshot, and the one after starts from it."""
    assert start(page) == "cold"
    wait_saved(page)
    assert start(page) == "snapshot"


def early(page: Page) -> bool:
    return page.evaluate("document.documentElement.dataset.runtimeEarly") == "yes"


def test_first_visit_restores_the_sites_snapshot_and_keeps_it(page: Page) -> None:
    assert start(page) == "shipped"
    # nothing kept yet: the page's head started the worker all the same (at the first
    # paint, or when the calculators bound), from what the build wrote on its meta tag,
    # and the page took it over: one worker
    assert early(page) and page.evaluate(f"{EARLY_KEY} === undefined")
    assert len(page.evaluate("window.__workersMade")) == 1
    wait_saved(page)
    assert page.evaluate(f"{EARLY_KEY} !== undefined")  # the next visit can start at once
    keys = snapshot_keys(page)
    assert len(keys) == 1
    bundle = widget(page, DIFFICULTY).get_attribute("data-bundle") or ""
    pyodide = widget(page, DIFFICULTY).get_attribute("data-pyodide") or ""
    assert keys[0].endswith(f"/_snapshot/{pyodide}/{bundle.rsplit('/', 1)[-1]}")


def test_reloads_start_from_the_snapshot_compute_right_and_roll_fresh_dice(page: Page) -> None:
    assert start(page) == "snapshot"
    inputs = {"size": "tiny", "band": "maximum", "target_movement": "fast",
              "shooter_movement": "slow", "stance": "prone", "aim_actions": 2}
    reply = live_run(page, DIFFICULTY, inputs)
    assert reply["result"] == json.loads(json.dumps(api.run(DIFFICULTY, inputs)["result"]))
    first = rolls(page)
    assert start(page) == "snapshot"
    second = rolls(page)
    # two restores of the same memory must not replay the same dice
    assert first != second
    assert len(set(first + second)) > 1
    assert page.errors == []  # type: ignore[attr-defined]


def test_a_return_visit_starts_the_worker_from_the_pages_head(page: Page) -> None:
    """With this build's snapshot kept, the page's head starts the worker before the page
    is even parsed, and the calculators take that worker over (no second one)."""
    assert start(page) == "snapshot"
    assert early(page)
    made = page.evaluate("window.__workersMade")
    assert len(made) == 1 and made[0] < page.evaluate("window.__parsed")
    inputs = {"size": "large", "band": "far", "target_movement": "still",
              "shooter_movement": "subtle", "stance": "standing", "aim_actions": 1}
    reply = live_run(page, DIFFICULTY, inputs)
    assert reply["result"] == json.loads(json.dumps(api.run(DIFFICULTY, inputs)["result"]))


def test_an_early_worker_started_differently_is_ended_and_the_page_starts_its_own(page: Page) -> None:
    # what was kept no longer matches the page's runtime (here: another site root)
    page.evaluate(f"""() => {{
        const key = {EARLY_KEY};
        const kept = JSON.parse(localStorage.getItem(key));
        kept.init.root += 'elsewhere/';
        localStorage.setItem(key, JSON.stringify(kept));
    }}""")
    assert start(page) == "snapshot"  # the page's own start, from the snapshot
    assert not early(page)
    assert len(page.evaluate("window.__workersMade")) == 2  # the head's, ended, and the page's
    assert start(page) == "snapshot" and early(page)  # what is kept was written afresh
    assert len(page.evaluate("window.__workersMade")) == 1
    assert page.errors == []  # type: ignore[attr-defined]


def test_the_search_worker_starts_once_the_calculators_are_live(page: Page) -> None:
    """The theme's search worker (its index build takes the processor for about a second)
    is held back by the head until the runtime is live; search then works."""
    assert start(page) == "snapshot"
    page.wait_for_function("() => window.__searchMade.length > 0", timeout=RUNTIME_TIMEOUT_MS)
    made = page.evaluate("window.__searchMade")
    assert len(made) == 1 and made[0] >= page.evaluate("window.__live")
    search_site(page)
    assert page.errors == []  # type: ignore[attr-defined]


def test_a_search_opened_while_the_runtime_loads_answers_at_once(page: Page) -> None:
    with runtime_held(page):
        page.goto(PAGE)
        page.wait_for_function("() => document.documentElement.dataset.runtime === 'loading'",
                               timeout=RUNTIME_TIMEOUT_MS)
        page.wait_for_timeout(500)
        assert page.evaluate("window.__searchMade") == []  # held back meanwhile
        search_site(page)  # the reader's click starts it
        assert len(page.evaluate("window.__searchMade")) == 1


def test_the_search_worker_stand_in_keeps_listeners_as_the_dom_does(page: Page) -> None:
    """While the head holds the search worker back, its stand-in keeps the listeners the
    theme adds and drops one only when type, function and capture flag all match, as a
    real worker does; the real worker then gets them (here an echo worker of our own)."""
    page.route("**/workers/search.echo.js", lambda route: route.fulfill(
        content_type="text/javascript", body="onmessage = (e) => postMessage(e.data);"))
    with runtime_held(page):
        page.goto(PAGE)
        page.wait_for_function("() => document.documentElement.dataset.runtime === 'loading'",
                               timeout=RUNTIME_TIMEOUT_MS)
        heard = page.evaluate("""() => new Promise((resolve) => {
          const w = new Worker(new URL('assets/workers/search.echo.js', document.baseURI));
          const heard = [];
          const a = () => heard.push('added with capture');
          const b = () => heard.push('added without');
          w.addEventListener('message', a, true);
          w.addEventListener('message', b);
          w.removeEventListener('message', a);  // capture differs: another listener, a stays
          w.removeEventListener('message', b, { capture: false });  // this one goes
          w.addEventListener('message', () => resolve(heard));  // called after a
          w.postMessage('hello');
          dispatchEvent(new Event('pointerdown'));  // the reader acts: the real worker starts
        })""")
    assert heard == ["added with capture"]
    page.unroute("**/workers/search.echo.js")


def test_a_page_without_calculators_starts_no_worker(page: Page) -> None:
    assert page.evaluate(f"{EARLY_KEY} !== undefined")
    page.goto("rulings/")
    page.wait_for_load_state("load")
    assert page.evaluate("window.__workersMade") == []
    # and its search worker starts with the page, as the theme starts it
    page.wait_for_function("() => window.__searchMade.length === 1", timeout=RUNTIME_TIMEOUT_MS)


def test_a_damaged_snapshot_falls_back_and_is_replaced(page: Page) -> None:
    # flip bytes in the middle, keep the stored checksum: the check must catch it
    damage_snapshot(page, """
        const response = await cache.match(request);
        const bytes = new Uint8Array(await response.arrayBuffer());
        for (let i = 0; i < 64; i++) bytes[(bytes.length >> 1) + i] ^= 0xff;
        await cache.put(request, new Response(bytes, { headers: response.headers }));
    """)
    falls_back_then_snapshots(page)


#: worker.js's snapshot checksum, written out again (the test's own copy of the rule)
CHECKSUM_JS = """(bytes) => {
    const words = new Uint32Array(bytes.buffer, bytes.byteOffset, bytes.length >>> 2);
    let a = 0x811c9dc5 | 0, b = 0x9747b28c | 0;
    for (const w of words) {
      a = Math.imul(a ^ w, 16777619);
      b = Math.imul(b ^ w, 0x5bd1e995) ^ (b >>> 15);
    }
    for (let i = words.length << 2; i < bytes.length; i++) a = Math.imul(a ^ bytes[i], 16777619);
    const hex = (n) => (n >>> 0).toString(16).padStart(8, '0');
    return `${hex(a)}${hex(b)}-${bytes.length}`;
}"""


def test_the_kept_snapshot_carries_the_checksum_the_start_checks(page: Page) -> None:
    # the stored checksum is the one the test's copy of the rule computes from the bytes
    if start(page) != "snapshot":
        wait_saved(page)
    assert page.evaluate(f"""async () => {{
        const cache = await caches.open({SNAPSHOT_CACHE});
        const [request] = await cache.keys();
        const response = await cache.match(request);
        const bytes = new Uint8Array(await response.arrayBuffer());
        return response.headers.get('x-tcr-checksum') === ({CHECKSUM_JS})(bytes);
    }}""")


def test_a_snapshot_python_refuses_falls_back_and_is_replaced(page: Page) -> None:
    # bytes that pass the checksum but are no snapshot of this build: Pyodide refuses them
    damage_snapshot(page, f"""
        const bytes = new Uint8Array(1 << 16).fill(7);
        const sum = ({CHECKSUM_JS})(bytes);
        await cache.put(request, new Response(bytes, {{ headers: {{ 'x-tcr-checksum': sum }} }}));
    """)
    falls_back_then_snapshots(page)


def test_a_stale_snapshot_is_dropped_and_replaced(page: Page) -> None:
    # another build's snapshot (an older bundle) is all there is
    damage_snapshot(page, """
        const response = await cache.match(request);
        await cache.delete(request);
        const stale = request.url.replace(/python-[0-9a-f]+\\.zip$/, 'python-000000000000.zip');
        await cache.put(stale, response);
    """)
    assert any(k.endswith("python-000000000000.zip") for k in snapshot_keys(page))
    assert start(page) == "shipped"  # as on a first visit
    wait_saved(page)
    keys = snapshot_keys(page)
    assert len(keys) == 1 and not keys[0].endswith("python-000000000000.zip")
    assert start(page) == "snapshot"
    assert page.errors == []  # type: ignore[attr-defined]


#: Pyodide's WebAssembly, as the worker asks for it (packed where nothing is kept)
WASM = ("**/pyodide.asm.wasm", "**/pyodide.asm.wasm" + PACKED_SUFFIX)
#: a cache of the site's, as its service worker keeps the runtime in one (this module's
#: profile blocks the service worker: the test keeps the file itself)
KEEP_WASM = f"""async (body) => {{
    const kept = JSON.parse(localStorage.getItem({EARLY_KEY}));
    const url = kept.init.pyodide + 'pyodide.asm.wasm';
    const bytes = body === null ? await (await fetch(url)).arrayBuffer() : new TextEncoder().encode(body);
    const cache = await caches.open('tcr-test:files');
    await cache.put(url, new Response(bytes, {{ headers: {{ 'content-type': 'application/wasm' }} }}));
}}"""


def test_the_webassembly_the_site_keeps_is_compiled_from_storage_and_one_that_fails_is_downloaded(
        page: Page) -> None:
    """A start compiles Pyodide's WebAssembly from the copy the service worker keeps, read
    from Cache Storage by the worker itself: nothing is downloaded. A kept copy that does
    not compile gives way to the download, and the start goes on from the snapshot."""
    asked: list[str] = []

    def count(route) -> None:  # type: ignore[no-untyped-def]
        asked.append(route.request.url)
        route.continue_()

    for glob in WASM:
        page.context.route(glob, count)
    try:
        assert start(page) == "snapshot"
        assert len(asked) == 1  # nothing kept: downloaded
        page.evaluate(KEEP_WASM, None)
        asked.clear()
        assert start(page) == "snapshot"
        assert asked == []
        inputs = {"size": "tiny", "band": "close", "target_movement": "still",
                  "shooter_movement": "still", "stance": "standing", "aim_actions": 0}
        reply = live_run(page, DIFFICULTY, inputs)
        assert reply["result"] == json.loads(json.dumps(api.run(DIFFICULTY, inputs)["result"]))
        page.evaluate(KEEP_WASM, "not WebAssembly")
        assert start(page) == "snapshot"
        assert len(asked) == 1  # the kept copy did not compile: downloaded
        assert page.errors == []  # type: ignore[attr-defined]
    finally:
        for glob in WASM:
            page.context.unroute(glob, count)
        page.evaluate("caches.delete('tcr-test:files')")


#: the site's first-visit snapshot, as the page asks for it
SHIPPED = "**/assets/calculators/python-*" + SNAPSHOT_SUFFIX


def _half(body: bytes) -> bytes:
    """The first half of a real snapshot (a download that ended early, with no error)."""
    assert len(body) > 1 << 20 and body[:4] == b"\x28\xb5\x2f\xfd"  # a Zstandard frame
    return body[: len(body) // 2]


@contextmanager
def first_visit(browser: Browser, site, answer=None) -> Iterator[Page]:  # type: ignore[no-untyped-def]
    """A new profile (nothing kept); ``answer(route)``, when given, answers the page's
    request for the site's snapshot instead of the server."""
    context, page = _profile(browser, site)
    if answer is not None:
        context.route(SHIPPED, answer)
    try:
        yield page
    finally:
        context.close()


def test_a_first_visit_from_the_sites_snapshot_computes_right_and_rolls_its_own_dice(
        browser: Browser, site) -> None:  # type: ignore[no-untyped-def]
    """The site's snapshot was made once, by the build: two first visits restore the same
    memory, and must still compute as CPython does and roll different dice."""
    inputs = {"size": "small", "band": "far", "target_movement": "fast",
              "shooter_movement": "still", "stance": "kneeling", "aim_actions": 1}
    seen = []
    for _ in range(2):
        with first_visit(browser, site) as fresh:
            assert start(fresh) == "shipped"
            reply = live_run(fresh, DIFFICULTY, inputs)
            assert reply["result"] == json.loads(json.dumps(api.run(DIFFICULTY, inputs)["result"]))
            seen.append(rolls(fresh))
            assert fresh.errors == []  # type: ignore[attr-defined]
    assert seen[0] != seen[1]


@pytest.mark.parametrize("answer", [
    pytest.param(lambda route: route.fulfill(status=404, body="gone"), id="missing"),
    pytest.param(lambda route: route.abort("connectionreset"), id="cut-off"),
    # not Zstandard at all (gzip's magic): the unpacking fails
    pytest.param(lambda route: route.fulfill(body=b"\x1f\x8b" + bytes(4096),
                                             content_type="application/zstd"), id="damaged"),
    # the real snapshot's first half, ended cleanly: its frame is not whole
    pytest.param(lambda route: route.fulfill(body=_half(route.fetch().body()),
                                             content_type="application/zstd"), id="half"),
    # whole Zstandard of bytes that are no snapshot of this build: Pyodide refuses them
    pytest.param(lambda route: route.fulfill(body=zstandard.ZstdCompressor().compress(bytes([7]) * (1 << 16)),
                                             content_type="application/zstd"), id="refused"),
])
def test_a_site_snapshot_that_cannot_be_used_gives_way_to_the_normal_start(
        browser: Browser, site, answer) -> None:  # type: ignore[no-untyped-def]
    with first_visit(browser, site, answer) as fresh:
        assert start(fresh) == "cold"  # live all the same
        wait_saved(fresh)  # and it keeps a snapshot of its own
        inputs = {"size": "large", "band": "close", "target_movement": "still",
                  "shooter_movement": "still", "stance": "standing", "aim_actions": 0}
        reply = live_run(fresh, DIFFICULTY, inputs)
        assert reply["result"] == json.loads(json.dumps(api.run(DIFFICULTY, inputs)["result"]))
        assert start(fresh) == "snapshot"
        assert fresh.errors == []  # type: ignore[attr-defined]
