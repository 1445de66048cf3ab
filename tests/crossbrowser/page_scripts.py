"""Async functions the smoke tests run inside the page, in any engine.

Each is the source of one ``async (arg) => ...`` function; ``engines.Engine.run`` calls it.
They act as a reader does (follow a link, change an input, press a button) and wait for
states, never for durations.
"""

_WAIT = """
  const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
  const until = async (cond, what, timeout) => {
    const end = Date.now() + timeout;
    while (!cond()) {
      if (Date.now() > end) throw new Error(`${location.pathname}: timed out waiting for ${what}`);
      await sleep(100);
    }
  };
  const settled = (el) => !["loading", "prerendered"].includes(el.dataset.status) && !el._busy;
"""

#: install the page's error record (once per page load) and return what it caught so far.
#: "ResizeObserver loop completed with undelivered notifications" is the browser saying a
#: layout settled over two frames (the spec's own benign report), not a script failing.
#: It also lifts the runtime's watchdogs (client.js ``limits``: a download with no progress
#: for 20 s, a start over 4 min, one calculation over 60 s) to ten minutes each: they are
#: for a reader's device, and on a CI machine shared with other jobs WebKit, several times
#: slower than Chromium at Pyodide, crosses them (seen at a load of 30 on two cores:
#: heroic.engagement "stopped responding and has been restarted", cortex.on_fire going
#: live with an error). These tests check that every page works in the engine, not the
#: machine's speed; the Chromium suite tests the watchdogs (test_runtime_recovery.py).
ERRORS = """async () => {
  window.TCR_RUNTIME_LIMITS = { stall: 600000, starting: 600000, hang: 600000, ...window.TCR_RUNTIME_LIMITS };
  if (!window.__tcrErrors) {
    window.__tcrErrors = [];
    addEventListener("error", (e) => {
      const text = String(e.message || e);
      const where = e.filename ? ` (${e.filename}:${e.lineno}:${e.colno})` : "";
      if (!/^ResizeObserver loop/.test(text)) window.__tcrErrors.push(text + where);
    });
    addEventListener("unhandledrejection", (e) => window.__tcrErrors.push(
      "unhandled rejection: " + String((e.reason && e.reason.stack) || (e.reason && e.reason.message) || e.reason)));
  }
  return window.__tcrErrors.splice(0);
}"""

#: follow a link (an address, with any query) with Material's instant navigation; resolves
#: with its path once the new page is in, or with "not taken: ..." when the theme did not
#: take the link or its page did not come within the time given; the smoke tests then load
#: the page themselves (the Chromium tests' instant_goto fails instead). The theme takes a
#: link's click only once it has read the site's sitemap (it drops clicks until then), which
#: a busy machine may deliver after the page's load event: the click waits until the
#: sitemap's download is in, and is made again (a few times, 200 ms apart) while the theme
#: still leaves it alone. The page stream (document$) can also emit again for the page
#: being left: the new page is in when the link's content is gone.
NAVIGATE = """async ([href, timeout]) => {""" + _WAIT + """
  const want = new URL(href, location.href);
  const path = want.pathname;
  // already on that page (with any query: the theme would not load it again)
  if (location.pathname === path) return path;
  const end = Date.now() + timeout;
  const sitemapIn = () => performance.getEntriesByType("resource")
    .some((e) => /\\/sitemap\\.xml$/.test(e.name) && e.responseEnd > 0);
  try {
    await until(sitemapIn, "the theme's sitemap", timeout);
  } catch {
    return `not taken: the theme never read its sitemap at ${location.pathname}`;
  }
  await sleep(50); // its reading of the file: a task or two after the download
  return await new Promise((resolve) => {
    let a = null;
    let sub = null;
    let retry = 0;
    let left = 0;
    const finish = (value) => {
      clearTimeout(timer);
      clearTimeout(retry);
      removeEventListener("click", unhandled);
      if (sub) sub.unsubscribe();
      resolve(value);
    };
    const timer = setTimeout(() => finish(`not taken: still at ${location.pathname}`), Math.max(0, end - Date.now()));
    const click = () => {
      a = document.createElement("a");
      a.href = want.href;
      a.textContent = "go";
      document.querySelector(".md-content").append(a);
      a.click();
    };
    // the theme takes a link's click on the page's body (and prevents the default); one
    // it left alone would load the page in full under this script: stopped, and made again
    const unhandled = (event) => {
      if (event.target !== a || event.defaultPrevented) return;
      event.preventDefault();
      a.remove();
      if (++left > 10) finish("not taken: the theme left the click");
      else retry = setTimeout(click, 200);
    };
    addEventListener("click", unhandled);
    sub = document$.subscribe(() => {
      if (a && !a.isConnected && location.pathname === path) finish(path);
    });
    click();
  });
}"""

#: the page's widgets and apps, in order: their names (the smoke tests then take them one
#: by one, so that a page which dies is known to have died on a given widget and step)
WIDGETS = """async () => [...document.querySelectorAll(".calc[data-calculator], .calc-app[data-app]")]
  .map((el) => el.dataset.calculator || el.dataset.app)"""

_WIDGET = """
  const el = document.querySelectorAll(".calc[data-calculator], .calc-app[data-app]")[index];
  if (!el) throw new Error(`${location.pathname}: no widget ${index}`);
  const name = el.dataset.calculator || el.dataset.app;
"""

#: wait for widget number ``index`` to go live: its name and status
LIVE = """async ([index, timeout]) => {""" + _WAIT + _WIDGET + """
  try {
    await until(() => settled(el), `${name} to go live`, timeout);
  } catch (err) {  // say where it stopped: its state, its message, the runtime's
    const html = document.documentElement.dataset;
    throw new Error(`${err.message} (status ${el.dataset.status}, busy ${Boolean(el._busy)}, ` +
      `says "${(el.querySelector(".calc-status") || {}).textContent || ""}", ` +
      `runtime ${html.runtime || "-"} ${html.runtimeStart || ""}, errors ${JSON.stringify(window.__tcrErrors || [])})`);
  }
  // what it says and the runtime's state, for a widget that went live with an error
  const html = document.documentElement.dataset;
  return { name, status: el.dataset.status,
           says: (el.querySelector(".calc-status") || {}).textContent || "",
           runtime: `${html.runtime || "-"} ${html.runtimeStart || ""}`.trim() };
}"""

#: change one number of calculator number ``index`` (a number one step up, or down at the
#: maximum, else the next choice of a list) and wait for the recomputed result; null for
#: an app or a calculator with nothing to change
RECOMPUTE = """async ([index, timeout]) => {""" + _WAIT + _WIDGET + """
  const input = el.dataset.calculator && (el.querySelector(
    '.calc-field[data-kind="int"]:not([hidden]) input[type="number"]') || el.querySelector(
    '.calc-field[data-kind="choice"]:not([hidden]) select'));
  if (!input) return null;
  let reply = null;
  el.addEventListener("calc:result", (e) => { reply = e.detail; }, { once: true });
  if (input.tagName === "SELECT") {
    input.selectedIndex = (input.selectedIndex + 1) % input.options.length;
  } else {
    const max = input.max === "" ? Infinity : Number(input.max);
    const now = Number(input.value);
    input.value = String(now + 1 <= max ? now + 1 : now - 1);
  }
  input.dispatchEvent(new Event("input", { bubbles: true }));
  input.dispatchEvent(new Event("change", { bubbles: true }));
  // the answer, or a failure shown without one (the runtime stopped): never wait on
  await until(() => (reply || el.classList.contains("calc-offline")
                     || /restarted|cancelled/.test(el.querySelector(".calc-status").textContent))
                    && settled(el), `${name} to recompute`, timeout);
  // a result, or a message naming the field (a changed choice can make a pair invalid)
  return reply ? { answered: Boolean(reply.ok || (reply.error && reply.error.message)),
                   ok: Boolean(reply.ok), status: el.dataset.status }
    : { answered: false, ok: false, status: el.querySelector(".calc-status").textContent };
}"""

_APP = """
  // (Firefox has once run a script right after a load before the page's elements were
  // found: the app is waited for, not assumed)
  await until(() => document.querySelector(".calc-app[data-app]"), "the app's element", timeout);
  const app = document.querySelector(".calc-app[data-app]");
  await until(() => settled(app), "the app to go live", timeout);
  const click = (selector) => app.querySelector(selector).click();
"""

#: the army builder's units: the counts of its lines summed (the same published unit
#: added again raises its line's count)
_UNITS = """
  const units = () => [...app.querySelectorAll(".sucs-lines > li .sucs-line-count")]
    .reduce((n, input) => n + Number(input.value), 0);
"""

#: add a published unit to the army builder's roster; the number of units after it
ROSTER_ADD = """async (timeout) => {""" + _WAIT + _APP + _UNITS + """
  const before = units();
  click('[data-sucs="add"]');
  await until(() => units() > before, "the unit to be added", timeout);
  return units();
}"""

ROSTER_COUNT = """async (timeout) => {""" + _WAIT + _APP + _UNITS + """
  return units();
}"""

#: start a fight in the tracker and roll one action; the log's length after it
TRACKER_ROLL = """async (timeout) => {""" + _WAIT + _APP + """
  const logged = () => app.querySelectorAll(".pt-log > li").length;
  if (app.querySelector(".pt-board").hidden) {
    click('[data-pt="start"]');
    await until(() => !app.querySelector(".pt-board").hidden && settled(app), "the fight to start", timeout);
  }
  const before = logged();
  click('[data-pt="roll"]');
  await until(() => logged() > before && settled(app), "the roll to be logged", timeout);
  return logged();
}"""

TRACKER_COUNT = """async (timeout) => {""" + _WAIT + _APP + """
  return app.querySelectorAll(".pt-log > li").length;
}"""

#: the service worker controls the page and holds this page, the runtime and the bundle
OFFLINE_READY = """async (timeout) => {""" + _WAIT + """
  const held = async () => {
    const urls = [];
    for (const name of await caches.keys()) {
      for (const request of await (await caches.open(name)).keys()) urls.push(request.url);
    }
    const page = location.href.split("#")[0].split("?")[0];
    // every script and style the page loaded from the site: the service worker keeps them
    // one by one after the page (a server gone before the last one leaves the page inert)
    const loaded = performance.getEntriesByType("resource").map((e) => e.name)
      .filter((u) => u.startsWith(location.origin) && /\\.(js|css)$/.test(u) && !u.endsWith("/sw.js"));
    // the page, its scripts and styles, what Material reads on every load, and the runtime
    return urls.includes(page) && loaded.every((u) => urls.includes(u))
      && urls.some((u) => u.endsWith("/search/search_index.json"))
      && urls.some((u) => u.endsWith("/sitemap.xml"))
      && urls.some((u) => u.endsWith(".wasm")) && urls.some((u) => u.endsWith(".zip"));
  };
  let ok = false;
  const end = Date.now() + timeout;
  while (!(ok = Boolean(navigator.serviceWorker.controller) && await held()) && Date.now() < end) {
    await sleep(250);
  }
  return ok;
}"""

#: a played fight's account as the page shows it (``root``: the widget): each turn's
#: heading, its actions (side, words, dice by roll) and the state after it, as text
TURNS = """[...root.querySelectorAll('.calc-roll-current .calc-turn')].map(turn => ({
  heading: turn.querySelector('.calc-turn-heading').textContent.trim(),
  after: turn.querySelector('.calc-turn-after').textContent.trim(),
  actions: [...turn.querySelectorAll('.calc-action')].map(li => ({
    side: li.classList.contains('calc-side-a') ? 'a' : li.classList.contains('calc-side-b') ? 'b' : '',
    words: li.querySelector('.calc-action-words').textContent.trim(),
    rolls: [...li.querySelectorAll('.calc-roll-group')].map(g => ({
      what: g.querySelector('.calc-roll-what').textContent.trim(),
      faces: [...g.querySelectorAll('.calc-die')].map(d => Number(d.textContent)),
    })),
  })),
}))"""

#: the army battle of the builder's page: both rosters typed in (``rosters``: field ->
#: roster JSON), the battle played with dice; its account as :data:`TURNS` reads it
BATTLE_ACCOUNT = """async ([rosters, timeout]) => {""" + _WAIT + """
  const root = document.querySelector('.calc[data-calculator="sucs.roster_battle"]');
  await until(() => settled(root), "the battle to go live", timeout);
  for (const [name, text] of Object.entries(rosters)) {
    const box = root.querySelector(`.calc-field[data-field="${name}"] :is(textarea, input)`);
    let reply = null;
    root.addEventListener("calc:result", (e) => { reply = e.detail; }, { once: true });
    box.value = text;
    box.dispatchEvent(new Event("input", { bubbles: true }));
    box.dispatchEvent(new Event("change", { bubbles: true }));
    await until(() => reply && settled(root), `${name} to be read`, timeout);
    if (!reply.ok) throw new Error(`${name}: ${JSON.stringify(reply.error)}`);
  }
  root.querySelector('.calc-roll-current').replaceChildren();
  root.querySelector('button[data-action="roll"]').click();
  await until(() => root.querySelector(".calc-roll-current .calc-turn"), "the battle to be played", timeout);
  return """ + TURNS + """;
}"""

#: clear the site's storage and write ``items`` (key -> text) into localStorage
PUT_STORAGE = """async (items) => {
  localStorage.clear();
  for (const [k, v] of Object.entries(items)) localStorage.setItem(k, v);
  return Object.keys(items).length;
}"""

#: the army builder before its engine is live: once its saved lines show, pick ``foe`` and
#: press Fight this roster; whether the engine was still loading then, and the note after it
FIGHT_EARLY = """async ([foe, timeout]) => {""" + _WAIT + """
  const app = document.querySelector(".calc-app[data-app]");
  await until(() => app.querySelectorAll(".sucs-line").length >= 2, "the saved roster to show", timeout);
  const early = document.documentElement.dataset.runtime !== "ready" && app.dataset.status !== "ready";
  const pick = app.querySelector(".sucs-foe");
  pick.value = foe;
  pick.dispatchEvent(new Event("change", { bubbles: true }));
  app.querySelector('[data-sucs="fight"]').click();
  return { early, note: app.querySelector(".sucs-battle-note").textContent };
}"""

#: the fight pressed early, once the engine is live: the note naming both sides, and the
#: page's address once the battle's link is in it
FIGHT_DONE = """async (timeout) => {""" + _WAIT + """
  const app = document.querySelector(".calc-app[data-app]");
  const battle = document.querySelector('.calc[data-calculator="sucs.roster_battle"]');
  await until(() => app.querySelector(".sucs-battle-note").textContent.includes("(side A)"),
    "the fight to start", timeout);
  await until(() => location.search.includes("roster-battle._z=") && location.search.includes("end=")
    && settled(battle), "the battle's link", timeout);
  return { note: app.querySelector(".sucs-battle-note").textContent, link: location.href.split("#")[0] };
}"""

#: the note the battle's widget shows about the page's link, once it shows
LINK_NOTE = """async (timeout) => {""" + _WAIT + """
  const battle = document.querySelector('.calc[data-calculator="sucs.roster_battle"]');
  await until(() => battle.querySelector(".calc-link-note"), "the link's note", timeout);
  return battle.querySelector(".calc-link-note").textContent;
}"""

#: press the army builder's Export all rosters and return the file's text (the download
#: itself is not started: the file is read from what the page offered)
EXPORT_ALL = """async (timeout) => {""" + _WAIT + _APP + """
  let offered = null;
  const make = URL.createObjectURL, open = HTMLAnchorElement.prototype.click;
  URL.createObjectURL = (blob) => { offered = blob; return make.call(URL, blob); };
  HTMLAnchorElement.prototype.click = function () { if (!this.download) open.call(this); };
  try {
    [...app.querySelectorAll('[data-sucs="export-all"]')].find((b) => !b.hidden && b.offsetParent).click();
    await until(() => offered, "the export", timeout);
  } finally {
    URL.createObjectURL = make;
    HTMLAnchorElement.prototype.click = open;
  }
  return await offered.text();
}"""

#: import ``text`` into the army builder as a chosen file; the notice, and the saved
#: rosters in the builder's order
IMPORT_TEXT = """async ([text, says, timeout]) => {""" + _WAIT + _APP + """
  const input = app.querySelector(".sucs-import");
  const files = new DataTransfer();
  files.items.add(new File([text], "all.json", { type: "application/json" }));
  input.files = files.files;
  input.dispatchEvent(new Event("change", { bubbles: true }));
  const notice = () => app.querySelector(".sucs-notice-text").textContent;
  await until(() => notice().includes(says) && settled(app), `the notice "${says}"`, timeout);
  const saved = Object.keys(localStorage).filter((k) => k.startsWith("tcr:/:sucs-roster:"))
    .map((k) => JSON.parse(localStorage.getItem(k)))
    .sort((x, y) => x.order - y.order || (x.id < y.id ? -1 : 1));
  return { notice: notice(), rosters: saved.map((e) => e.roster) };
}"""
