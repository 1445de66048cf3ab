// The SUCS army builder. Costs, checks and file validation all come from the rules core
// through the bridge (sucs.unit_cost, sucs.roster_check, sucs.roster_import); this module
// keeps rosters in localStorage and shows them. Every text from storage, files or the
// address reaches the page through textContent only.
import {
  STORE_KEY, STORE_SCHEMA, FORMAT, COLLECTION, VERSION, HASH_KEY, el, loadStylesheet, newId, blankRoster, clone, readStore, writeStore, encodeShare, decodeShare, download, fileName, weaponsText, statLine, featureList,
} from "./sucs_roster_lib.js";

// ---- the app ----------------------------------------------------------------------

export async function mount(root, bridge) {
  loadStylesheet();
  const $ = (sel) => root.querySelector(sel);
  const data = JSON.parse($(".sucs-data").dataset.json);
  const presetById = new Map(data.presets.map((p) => [p.id, p]));
  const ui = $(".sucs-ui");
  let { store, problem } = readStore();
  let editing = null; // index of the line in the editor
  let lastCheck = null;
  let checkSeq = 0;
  let costSeq = 0;
  let undo = null; // {entry, index} of the last deleted roster
  // busy while a computation is in flight or scheduled (tests wait on root._busy)
  let inFlight = 0;
  const timers = new Map();
  const busyUpdate = () => { root._busy = inFlight > 0 || timers.size > 0; };
  async function run(name, inputs) {
    inFlight += 1;
    busyUpdate();
    try {
      return await bridge.run(root, name, inputs);
    } finally {
      inFlight -= 1;
      busyUpdate();
    }
  }
  function schedule(key, fn, ms) {
    clearTimeout(timers.get(key));
    timers.set(key, setTimeout(() => {
      timers.delete(key);
      Promise.resolve(fn()).catch((err) => bridge.runtimeFailed(root, err)).finally(busyUpdate);
    }, ms));
    busyUpdate();
  }

  if (!store) {
    store = { schema: STORE_SCHEMA, version: VERSION, active: null, rosters: [] };
  }
  if (!store.rosters.length) {
    const id = newId();
    store.rosters.push({ id, roster: blankRoster("My first army") });
    store.active = id;
  }
  if (!store.rosters.some((e) => e.id === store.active)) store.active = store.rosters[0].id;

  const active = () => store.rosters.find((e) => e.id === store.active);
  const roster = () => active().roster;

  function save() {
    if (!writeStore(store)) notice("Could not save: this browser's storage is full or blocked.");
  }

  function notice(text, withUndo = false) {
    $(".sucs-notice").hidden = !text;
    $(".sucs-notice-text").textContent = text;
    $('[data-sucs="undo"]').hidden = !withUndo;
  }

  function showProblems(title, problems) {
    const box = $(".sucs-problems");
    box.hidden = !title;
    $(".sucs-problems-title").textContent = title || "";
    const list = box.querySelector("ul");
    list.replaceChildren(...(problems || []).map((p) => el("li", {}, el("code", { text: p.field }), ` ${p.message}`)));
  }

  // -- roster picker and header
  function renderPicker() {
    const pick = $(".sucs-pick");
    pick.replaceChildren(...store.rosters.map((e) => el("option", { value: e.id, text: e.roster.name })));
    pick.value = store.active;
    $(".sucs-name").value = roster().name;
    $(".sucs-limit").value = String(roster().points_limit);
  }

  // -- lines
  function renderLines() {
    const list = $(".sucs-lines");
    const r = roster();
    const costs = lastCheck && lastCheck.rosterId === store.active ? lastCheck.result.units : [];
    list.replaceChildren(...r.units.map((line, i) => {
      const cost = costs[i];
      const preset = line.preset ? presetById.get(line.preset) : null;
      const name = el("input", { type: "text", class: "sucs-line-name", value: line.name, maxlength: 80,
        "aria-label": `Name of unit ${i + 1}`, autocomplete: "off" });
      name.addEventListener("change", () => {
        const text = name.value.trim();
        if (text) { line.name = text.slice(0, 80); changed(); } else name.value = line.name;
      });
      const count = el("input", { type: "number", class: "sucs-line-count", value: line.count, min: 1, max: 99,
        step: 1, inputmode: "numeric", "aria-label": `How many of unit ${i + 1}` });
      count.addEventListener("change", () => {
        const n = parseInt(count.value, 10);
        if (Number.isInteger(n) && n >= 1 && n <= 99) { line.count = n; changed(); } else count.value = line.count;
      });
      return el("li", { class: `sucs-line${editing === i ? " sucs-line-editing" : ""}`, "data-index": i },
        el("div", { class: "sucs-line-main" }, name,
          el("label", { class: "sucs-line-count-label" }, "× ", count),
          el("span", { class: "sucs-line-cost", text: cost ? `${cost.cost} pts each · ${cost.subtotal} pts` : "…" })),
        el("p", { class: "sucs-line-stats", text: statLine(line.stats) }),
        el("p", { class: "sucs-line-features", text: [preset ? `${preset.list_title}: ${preset.name}` : "custom unit",
          ...featureList(line.stats)].join(" · ") }),
        el("div", { class: "sucs-line-actions" },
          el("button", { type: "button", class: "md-button", text: editing === i ? "Editing" : "Edit",
            onclick: () => openEditor(i) }),
          el("button", { type: "button", class: "md-button", text: "Copy", onclick: () => {
            r.units.splice(i + 1, 0, clone(line)); changed();
          } }),
          el("button", { type: "button", class: "md-button", text: "Remove", onclick: () => {
            r.units.splice(i, 1);
            if (editing !== null) closeEditor();
            changed();
          } })));
    }));
  }

  // -- checks
  function renderCheck(reply) {
    if (!reply.ok) {
      $(".sucs-total").textContent = "?";
      $(".sucs-warnings").replaceChildren(el("li", { class: "sucs-illegal", text: `${reply.error.field}: ${reply.error.message}` }));
      return;
    }
    const res = reply.result;
    $(".sucs-total").textContent = String(res.total);
    $(".sucs-limit-out").textContent = res.points_limit ? String(res.points_limit) : "none";
    $(".sucs-left-label").textContent = res.over_limit ? "Over by" : "Left";
    $(".sucs-left").textContent = res.points_limit ? String(Math.abs(res.remaining)) : "-";
    $(".sucs-legal").textContent = res.legal ? "yes" : "no";
    root.dataset.legal = res.legal ? "yes" : "no";
    root.dataset.over = res.over_limit ? "yes" : "no";
    $(".sucs-warnings").replaceChildren(...res.warnings.map((w) => el("li", { class: `sucs-${w.severity}` },
      el("strong", { text: { illegal: "Breaks a rule: ", over_limit: "Over the limit: ", advice: "Advice: " }[w.severity] }),
      w.unit === null ? "" : `line ${w.unit + 1}: `, w.message)));
  }

  async function recheck() {
    const seq = ++checkSeq;
    const rosterId = store.active;
    try {
      const reply = await run("sucs.roster_check", { roster: roster() });
      if (seq !== checkSeq) return;
      lastCheck = reply.ok ? { rosterId, result: reply.result } : null;
      renderCheck(reply);
      renderLines();
      renderCards();
      bridge.setStatus(root, "ready", "Live: costs and checks come from the rules engine.");
    } catch (err) {
      bridge.runtimeFailed(root, err);
    }
  }

  function changed({ now = false } = {}) {
    save();
    renderPicker();
    renderLines();
    if (now) {
      clearTimeout(timers.get("check"));
      timers.delete("check");
      recheck();
    } else schedule("check", recheck, 120);
  }

  // -- editor
  const form = $(".sucs-editor-form");
  const inputs = new Map();
  for (const f of data.spec.fields) {
    const id = `sucs-f-${f.name}`;
    let control;
    if (f.kind === "bool") {
      control = el("input", { type: "checkbox", id, name: f.name });
    } else if (f.kind === "choice") {
      control = el("select", { id, name: f.name }, ...f.choices.map(([v, label]) => el("option", { value: v, text: label })));
    } else if (f.kind === "int") {
      control = el("input", { type: "number", id, name: f.name, min: f.min, max: f.max, step: 1, inputmode: "numeric" });
    } else {
      control = el("input", { type: "text", id, name: f.name, placeholder: f.placeholder || "", autocomplete: "off", spellcheck: "false" });
    }
    const error = el("p", { class: "calc-error", id: `${id}-error`, hidden: true });
    control.setAttribute("aria-describedby", `${id}-error`);
    const field = f.kind === "bool"
      ? el("div", { class: "calc-field calc-kind-bool" }, el("label", { for: id }, control, ` ${f.label}`), error)
      : el("div", { class: "calc-field" }, el("label", { for: id, text: f.label }), control,
        f.help ? el("p", { class: "calc-help", text: f.help }) : null, error);
    inputs.set(f.name, { f, control, error });
    form.append(field);
    control.addEventListener(f.kind === "text" || f.kind === "int" ? "input" : "change", () => {
      schedule("edit", editorChanged, 150);
    });
  }

  function fillEditor(stats) {
    for (const [name, { f, control, error }] of inputs) {
      if (f.kind === "bool") control.checked = Boolean(stats[name]);
      else control.value = stats[name] === undefined || stats[name] === null ? "" : String(stats[name]);
      error.hidden = true;
      control.removeAttribute("aria-invalid");
    }
  }

  function readEditor() {
    const stats = {};
    for (const [name, { f, control }] of inputs) {
      if (f.kind === "bool") stats[name] = control.checked;
      else if (f.kind === "int") {
        const text = control.value.trim();
        stats[name] = /^[-+]?\d+$/.test(text) ? parseInt(text, 10) : text;
      } else stats[name] = control.value;
    }
    return stats;
  }

  function renderBreakdown(result) {
    $(".sucs-editor-cost").textContent = `Cost ${result.cost} points: quality base ${result.base} + extra ${result.extra_cost}.`;
    $(".sucs-breakdown tbody").replaceChildren(...result.breakdown
      .filter((t) => t.points || t.key === "base" || t.key === "weapon0")
      .map((t) => el("tr", {}, el("th", { scope: "row", text: t.label }), el("td", { text: t.detail }),
        el("td", { text: t.points_text }))),
    el("tr", { class: "sucs-breakdown-total" }, el("th", { scope: "row", text: "Total" }), el("td", { text: result.rounded ? "extra cost rounded up" : "" }),
      el("td", { text: String(result.cost) })));
  }

  async function priceEditor(stats) {
    const seq = ++costSeq;
    const reply = await run("sucs.unit_cost", stats);
    if (seq !== costSeq) return null;
    for (const { control, error } of inputs.values()) {
      error.hidden = true;
      control.removeAttribute("aria-invalid");
    }
    if (!reply.ok) {
      const target = inputs.get(reply.error.field);
      if (target) {
        target.error.textContent = reply.error.message;
        target.error.hidden = false;
        target.control.setAttribute("aria-invalid", "true");
      }
      $(".sucs-editor-cost").textContent = `Not priced: ${reply.error.field} ${reply.error.message}`;
      return null;
    }
    renderBreakdown(reply.result);
    return reply.result;
  }

  async function editorChanged() {
    if (editing === null) return;
    const index = editing;
    const rosterId = store.active;
    try {
      const result = await priceEditor(readEditor());
      if (result && editing === index && store.active === rosterId) {
        roster().units[index].stats = result.stats;
        changed({ now: true });
      }
    } catch (err) {
      bridge.runtimeFailed(root, err);
    }
  }

  function openEditor(index) {
    editing = index;
    const line = roster().units[index];
    $(".sucs-editor").hidden = false;
    $(".sucs-editor-title").textContent = `Edit line ${index + 1}: ${line.name}`;
    fillEditor(line.stats);
    renderLines();
    priceEditor(line.stats).catch((err) => bridge.runtimeFailed(root, err));
    $(".sucs-editor").scrollIntoView({ block: "nearest" });
  }

  function closeEditor() {
    editing = null;
    $(".sucs-editor").hidden = true;
    renderLines();
  }

  // -- print cards
  function renderCards() {
    const r = roster();
    const costs = lastCheck && lastCheck.rosterId === store.active ? lastCheck.result : null;
    $(".sucs-cards-title").textContent = r.name;
    $(".sucs-cards-total").textContent = costs
      ? `${costs.total} points${costs.points_limit ? ` of ${costs.points_limit}` : ""} · ${r.units.reduce((n, u) => n + u.count, 0)} units`
      : "";
    $(".sucs-cards-grid").replaceChildren(...r.units.map((line, i) => {
      const cost = costs ? costs.units[i] : null;
      const s = line.stats;
      return el("article", { class: "sucs-card" },
        el("h3", { text: `${line.count} × ${line.name}` }),
        el("p", { class: "sucs-card-cost", text: cost ? `${cost.cost} pts each · ${cost.subtotal} pts` : "" }),
        el("table", {}, el("tbody", {},
          el("tr", {}, ...["Q", "TN", "Attack", "Armor", "Speed", "Range"].map((h) => el("th", { text: h }))),
          el("tr", {}, ...[String(s.quality), `${11 - s.quality}+`, weaponsText(s), String(s.armor),
            `${s.must_move ? "(" : ""}${s.speed}"${s.must_move ? ")" : ""}${s.altitude !== "0" ? ` alt ${s.altitude}` : ""}`,
            s.range ? `${s.min_range ? "(" : ""}${s.range}"${s.min_range ? ")" : ""}` : "0"].map((t) => el("td", { text: t }))))),
        el("p", { class: "sucs-card-features", text: featureList(s).join(" · ") }),
        el("p", { class: "sucs-card-track", text: "Suppressed: ☐ ☐ ☐   Destroyed: ☐" }));
    }));
  }

  // -- adding units
  const listSelect = $(".sucs-add-list");
  const unitSelect = $(".sucs-add-unit");
  listSelect.replaceChildren(...data.lists.map(([id, title]) => el("option", { value: id, text: title })));
  function fillUnits() {
    unitSelect.replaceChildren(...data.presets.filter((p) => p.list === listSelect.value).map((p) =>
      el("option", { value: p.id, text: `${p.name} (+${p.computed_cost}${p.reproduced ? "" : `, printed +${p.published_cost}`})` })));
  }
  listSelect.addEventListener("change", fillUnits);
  fillUnits();

  function addLine(line) {
    roster().units.push(line);
    notice("");
    changed({ now: true });
  }

  // -- roster management
  function switchTo(id) {
    store.active = id;
    if (editing !== null) closeEditor();
    lastCheck = null;
    changed({ now: true });
  }

  function addRosters(rosters, message) {
    let first = null;
    for (const r of rosters) {
      const id = newId();
      store.rosters.push({ id, roster: r });
      first = first || id;
    }
    notice(message);
    switchTo(first);
  }

  async function importText(text, source) {
    const reply = await run("sucs.roster_import", { file: text });
    if (!reply.ok) {
      showProblems(`${source} was refused; nothing was changed.`, [reply.error]);
      return;
    }
    if (!reply.result.accepted) {
      showProblems(`${source} was refused; nothing was changed. Problems found:`, reply.result.problems);
      return;
    }
    showProblems("", []);
    addRosters(reply.result.rosters, `${source}: ${reply.result.count} roster(s) added.`);
  }

  const actions = {
    new: () => { const id = newId(); store.rosters.push({ id, roster: blankRoster() }); notice(""); switchTo(id); },
    duplicate: () => {
      const copy = clone(roster());
      copy.name = `${copy.name} (copy)`.slice(0, 80);
      addRosters([copy], "Roster duplicated.");
    },
    delete: () => {
      const index = store.rosters.findIndex((e) => e.id === store.active);
      const [entry] = store.rosters.splice(index, 1);
      undo = { entry, index };
      if (!store.rosters.length) store.rosters.push({ id: newId(), roster: blankRoster() });
      notice(`Deleted “${entry.roster.name}”.`, true);
      switchTo(store.rosters[Math.min(index, store.rosters.length - 1)].id);
      $(".sucs-notice-text").textContent = `Deleted “${entry.roster.name}”.`;
      $('[data-sucs="undo"]').hidden = false;
      $(".sucs-notice").hidden = false;
    },
    undo: () => {
      if (!undo) return;
      store.rosters.splice(Math.min(undo.index, store.rosters.length), 0, undo.entry);
      const id = undo.entry.id;
      undo = null;
      notice("Roster restored.");
      switchTo(id);
    },
    add: () => {
      const p = presetById.get(unitSelect.value);
      if (p) addLine({ name: p.name, count: 1, preset: p.id, stats: clone(p.stats) });
    },
    "add-blank": () => {
      addLine({ name: "Custom unit", count: 1, preset: null, stats: clone(data.spec.initial) });
      openEditor(roster().units.length - 1);
    },
    "close-editor": () => closeEditor(),
    export: () => download(fileName(roster().name), JSON.stringify(roster(), null, 2)),
    "export-all": () => download("sucs-rosters.json", JSON.stringify(
      { format: COLLECTION, version: VERSION, rosters: store.rosters.map((e) => e.roster) }, null, 2)),
    share: async () => {
      const url = new URL(window.location.href);
      url.hash = HASH_KEY + encodeShare(roster());
      try {
        await navigator.clipboard.writeText(url.href);
        notice("Share link copied: it opens this page with a copy of the roster.");
      } catch {
        notice(`Share this link: ${url.href}`);
      }
    },
    print: () => window.print(),
  };

  ui.addEventListener("click", (event) => {
    const button = event.target.closest("[data-sucs]");
    if (!button) return;
    const action = actions[button.dataset.sucs];
    if (action) Promise.resolve(action()).catch((err) => bridge.runtimeFailed(root, err));
  });
  $(".sucs-pick").addEventListener("change", (e) => switchTo(e.target.value));
  $(".sucs-name").addEventListener("change", (e) => {
    const text = e.target.value.trim();
    if (text) { roster().name = text.slice(0, 80); changed(); } else e.target.value = roster().name;
  });
  $(".sucs-limit").addEventListener("change", (e) => {
    const n = parseInt(e.target.value, 10);
    if (Number.isInteger(n) && n >= 0 && n <= 100000) { roster().points_limit = n; changed(); } else e.target.value = roster().points_limit;
  });
  $(".sucs-import").addEventListener("change", async (e) => {
    const file = e.target.files && e.target.files[0];
    e.target.value = "";
    if (!file) return;
    if (file.size > 1_000_000) {
      showProblems(`${file.name} was refused; nothing was changed.`, [{ field: "file", message: "is larger than 1 MB; a roster file is far smaller." }]);
      return;
    }
    try {
      await importText(await file.text(), `The file ${file.name}`);
    } catch (err) {
      bridge.runtimeFailed(root, err);
    }
  });

  ui.hidden = false;
  renderPicker();
  renderLines();
  renderCards();
  if (problem) notice(`Note: ${problem}.`);
  bridge.setStatus(root, "loading", "Starting the rules engine…");
  // a shared link: check it in the core, add it as a new roster, then drop it from the address
  const hash = window.location.hash.slice(1);
  if (hash.startsWith(HASH_KEY)) {
    history.replaceState(history.state, "", window.location.pathname + window.location.search);
    let text = null;
    try {
      text = decodeShare(hash.slice(HASH_KEY.length));
    } catch {
      showProblems("The shared link is damaged; nothing was added.", []);
    }
    if (text !== null) {
      try {
        await importText(text, "The shared link");
      } catch (err) {
        bridge.runtimeFailed(root, err);
        return;
      }
    }
  }
  save();
  await recheck();
}
