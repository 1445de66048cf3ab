// @ts-check
// The SUCS army builder: the view. Costs, checks and file validation all come from the
// rules core through the bridge (sucs.unit_cost, sucs.roster_check, sucs.roster_import);
// this module shows the rosters, and sucs_roster_store.js keeps them safe in localStorage
// (one key per roster; damaged data set aside, other tabs' changes merged, conflicts
// asked about). Every text from storage, files or the address reaches the page through
// textContent only.
import {
  RULES, HASH_KEY, blankRoster, clone, canonical, suffixed, configure, limits, presetCost,
  encodeShare, download, fileName, busyTracker, quickCheck, countOf, QUESTIONS, SAVE_PROBLEMS, damageMessage,
} from "./sucs_roster_lib.js";
import {
  el, showCards, buildEditorForm, fillEditor, readEditor, markFieldError, breakdownRows, lineNode, showCheck,
  pendingEdits, keptNodes,
} from "./sucs_roster_dom.js";
import { RosterStore, KEPT_PREFIX, ENTRY_PREFIX, ACTIVE_KEY } from "./sucs_roster_store.js";
import { importer } from "./sucs_roster_import.js";
import { askPersist, PERSIST_REFUSED, scopedKey } from "./storage_kit.js";

/**
 * @typedef {import("./sucs_roster_store.js").Roster} Roster
 * @typedef {{run: Function, roll: Function, setStatus: Function, runtimeFailed: Function, startUpFailed: Function}} Bridge
 */

/** The rules core's calculators the builder calls (the store and the importer get theirs
 *  from here). */
export const ENGINES = { check: "sucs.roster_check", cost: "sucs.unit_cost", file: "sucs.roster_import" };

/** @param {HTMLElement & {_busy?: boolean}} root @param {Bridge} bridge */
export async function mount(root, bridge) {
  /** @param {string} sel @returns {any} */
  const $ = (sel) => root.querySelector(sel);
  const data = JSON.parse($(".sucs-data").dataset.json);
  configure(data.rules);
  /** @type {Map<string, any>} */
  const presetById = new Map(data.presets.map((/** @type {any} */ p) => [p.id, p]));
  const ui = $(".sucs-ui");
  const dialog = $(".sucs-ask");
  const store = new RosterStore(limits());
  /** @type {number | null} index of the line in the editor */
  let editing = null;
  /** @type {{rosterId: string | null, result: any} | null} */
  let lastCheck = null;
  let checkSeq = 0;
  let costSeq = 0;
  /** @type {{restore: () => void, id: string | null} | null} the last delete or replace */
  let undo = null;
  let saveProblem = "";
  let damageText = "";
  let live = false; // the start (share link included) is done: the status may say ready
  let persistText = "";
  // busy while a computation is in flight or scheduled, or until the start is done
  const { run, schedule, question, timers, setStarting } = busyTracker(root, bridge, dialog);

  /** @param {string} error */
  const problemText = (error) => SAVE_PROBLEMS[/** @type {keyof SAVE_PROBLEMS} */ (error)] || SAVE_PROBLEMS.blocked;
  const active = () => /** @type {import("./sucs_roster_store.js").Entry} */ (store.get(store.active));
  const roster = () => active().roster;
  function ensureActive() {
    if (!store.entries.length) store.add(clone(data.first));
    if (!store.get(store.active)) store.active = store.entries[0].id;
  }

  // -- saving, and what the saved copy says about other tabs and damage
  function save() {
    afterSync(store.sync({ write: true }));
  }

  /** The GM saved something: ask the browser to keep the site's data (once per page view). */
  function keepForGood() {
    askPersist(store.area).then((answer) => {
      if (answer !== "refused-first") return;
      persistText = PERSIST_REFUSED;
      renderStorage();
    }).catch(() => { /* nothing to say */ });
  }

  /** @param {import("./sucs_roster_store.js").SyncResult} res */
  function afterSync(res) {
    const before = saveProblem;
    saveProblem = res.error ? problemText(res.error) : "";
    if (before && !saveProblem) notice("Saved again: your changes are stored in this browser.");
    if (res.damage.length) reportDamage(res.damage);
    const shown = store.active || "";
    const messages = [];
    if (res.refreshed.includes(shown)) messages.push(`“${roster().name}” was changed in another tab; this tab now shows that version.`);
    if (res.removed.includes(shown)) messages.push("The roster shown here was deleted in another tab.");
    if (res.restored.length) messages.push("A roster deleted here was changed in another tab, so it was kept.");
    if (res.kept.length) messages.push("A roster was deleted in another tab while this tab had changes to it, so it was kept.");
    if (res.refreshed.includes(shown) || res.removed.includes(shown)) {
      if (editing !== null) closeEditor();
      lastCheck = null;
    }
    ensureActive();
    if (messages.length) notice(messages.join(" "));
    renderStorage();
    if (res.added.length || res.removed.length || res.refreshed.length || res.restored.length) {
      renderPicker();
      renderLines();
      renderCheck();
      schedule("check", recheck, 20);
      validateEntries([...res.added, ...res.restored]).catch((err) => bridge.runtimeFailed(root, err));
    }
    res.conflicts.forEach((id) => { resolveConflict(id).catch((/** @type {unknown} */ err) => bridge.runtimeFailed(root, err)); });
  }

  /** @param {import("./sucs_roster_store.js").Damage[]} parts */
  function reportDamage(parts) {
    damageText = damageMessage(parts);
    renderStorage();
  }

  function renderStorage() {
    const kept = store.keptList();
    const show = (/** @type {string} */ sel, /** @type {string} */ text) => { $(sel).textContent = text; $(sel).hidden = !text; };
    show(".sucs-save-problem", saveProblem);
    show(".sucs-damage", damageText);
    show(".sucs-persist-text", persistText);
    $(".sucs-persist").hidden = !persistText;
    $(".sucs-kept-title").hidden = !kept.length;
    $(".sucs-kept").replaceChildren(...keptNodes(kept));
    $('.sucs-storage [data-sucs="export-all"]').hidden = !saveProblem;
    $(".sucs-storage").hidden = !saveProblem && !damageText && !kept.length;
  }

  /** @param {string} text @param {boolean} [withUndo] */
  function notice(text, withUndo = false) {
    $(".sucs-notice").hidden = !text;
    $(".sucs-notice-text").textContent = text;
    $('[data-sucs="undo"]').hidden = !withUndo;
    if (!withUndo) undo = null;
  }

  /** @param {string} title @param {Array<{field: string, message: string}>} problems */
  function showProblems(title, problems) {
    const box = $(".sucs-problems");
    box.hidden = !title;
    $(".sucs-problems-title").textContent = title || "";
    const list = box.querySelector("ul");
    list.replaceChildren(...(problems || []).map((p) => el("li", { text: p.message })));
  }

  // -- edits typed but not yet committed (a field still being typed in) count as changes
  /** @param {boolean} apply */
  function pending(apply) {
    const found = pendingEdits(root, roster(), apply);
    if (found && apply) active().dirty = true;
    return found;
  }

  /** @param {string} id */
  async function resolveConflict(id) {
    const entry = store.get(id);
    if (!entry || !entry.conflict || entry.asking) return;
    entry.asking = true;
    if (id === store.active) pending(true);
    const choice = await question(QUESTIONS.conflict(entry.roster.name));
    entry.asking = false;
    const theirs = entry.conflict;
    if (!store.get(id) || !theirs) { save(); return; }
    let show = store.active;
    if (choice === "both") {
      const copy = store.add({ ...clone(entry.roster), name: suffixed(entry.roster.name, "(this tab)") }, store.entries.indexOf(entry) + 1);
      if (store.active === id) show = copy.id;
      notice(`Both kept: this tab's version is now “${copy.roster.name}”, and “${theirs.roster.name}” is the other tab's version.`);
    } else notice(`This tab now shows the other tab's version of “${theirs.roster.name}”.`);
    store.accept(id, theirs);
    if (editing !== null) closeEditor();
    switchTo(show || id);
  }

  // -- the rules core checks every roster read from storage before it is trusted
  /** @param {string[]} ids */
  async function validateEntries(ids) {
    const parts = await store.checkWithCore(ids, (/** @type {object} */ inputs) => run(ENGINES.file, inputs));
    if (!parts.length) return;
    if (editing !== null && !store.get(store.active)) closeEditor();
    reportDamage(parts);
    ensureActive();
    lastCheck = null;
    refresh({ now: true });
  }

  // -- roster picker and header
  function renderPicker() {
    const pick = $(".sucs-pick");
    pick.replaceChildren(...store.entries.map((e) => el("option", { value: e.id, text: e.roster.name })));
    pick.value = store.active;
    $(".sucs-name").value = roster().name;
    // a refused value stays in the field, next to its message, until it is fixed
    if ($(".sucs-limit-error").hidden) $(".sucs-limit").value = String(roster().points_limit);
  }

  // -- lines
  /** The core's check of the shown roster, or until it is in, the one made from the
   *  published units' costs (the page knows them from the build). */
  function currentCheck() {
    if (lastCheck && lastCheck.rosterId === store.active) return lastCheck.result;
    // a first visit's starter roster: the core's own check of it, made at build time (and
    // prerendered: nothing moves when the builder starts)
    if (canonical(roster()) === canonical(data.first)) return data.check;
    return quickCheck(roster(), presetById);
  }

  function renderLines() {
    const list = $(".sucs-lines");
    const r = roster();
    const costs = currentCheck().units;
    list.replaceChildren(...r.units.map((line, i) => lineNode(line, i, {
      cost: costs[i], preset: line.preset ? presetById.get(line.preset) : null, editing: editing === i,
      onChange: () => changed(),
      onEdit: () => openEditor(i),
      onCopy: () => { r.units.splice(i + 1, 0, clone(line)); changed(); },
      onRemove: () => { r.units.splice(i, 1); if (editing !== null) closeEditor(); changed(); },
    })));
  }

  // -- checks
  async function recheck() {
    const seq = ++checkSeq;
    const rosterId = store.active;
    try {
      const reply = await run(ENGINES.check, { roster: roster() });
      if (seq !== checkSeq) return;
      lastCheck = reply.ok ? { rosterId, result: reply.result } : null;
      showCheck(root, reply);
      renderLines();
      renderCards();
      if (live) bridge.setStatus(root, "ready", "Live: costs and checks come from the rules engine.");
    } catch (err) {
      bridge.runtimeFailed(root, err);
    }
  }

  /** The last check started at once (the start waits for it before saying ready). */
  let checking = Promise.resolve();
  /** Save and show again; `changed` also marks the shown roster as edited. */
  function refresh({ now = false } = {}) {
    save();
    renderPicker();
    renderLines();
    renderCheck();
    renderCards();
    if (now) {
      clearTimeout(timers.get("check"));
      timers.delete("check");
      checking = recheck();
    } else schedule("check", recheck, 120);
  }
  /** @param {{now?: boolean}} [options] */
  function changed(options) {
    active().dirty = true;
    keepForGood();
    refresh(options);
  }

  // -- editor
  const inputs = buildEditorForm($(".sucs-editor-form"), data.spec.fields, () => schedule("edit", editorChanged, 150));

  /** @param {any} result */
  function renderBreakdown(result) {
    $(".sucs-editor-cost").textContent = `Cost ${result.cost} points: quality base ${result.base} + extra ${result.extra_cost}.`;
    $(".sucs-breakdown tbody").replaceChildren(...breakdownRows(result));
  }

  /** @param {Record<string, unknown>} stats */
  async function priceEditor(stats) {
    const seq = ++costSeq;
    const reply = await run(ENGINES.cost, stats);
    if (seq !== costSeq) return null;
    markFieldError(inputs, reply.ok ? null : reply.error);
    if (!reply.ok) {
      $(".sucs-editor-cost").textContent = `Not priced: ${reply.error.message}`;
      return null;
    }
    renderBreakdown(reply.result);
    return reply.result;
  }

  let pricing = 0; // an edit being priced is not in the roster yet
  async function editorChanged() {
    if (editing === null) return;
    const index = editing;
    const rosterId = store.active;
    pricing += 1;
    try {
      const result = await priceEditor(readEditor(inputs));
      if (result && editing === index && store.active === rosterId && roster().units[index]) {
        roster().units[index].stats = result.stats;
        changed({ now: true });
      }
    } catch (err) {
      bridge.runtimeFailed(root, err);
    } finally {
      pricing -= 1;
    }
  }

  /** @param {number} index */
  function openEditor(index) {
    editing = index;
    const line = roster().units[index];
    $(".sucs-editor").hidden = false;
    $(".sucs-editor-title").textContent = `Edit line ${index + 1}: ${line.name}`;
    fillEditor(inputs, line.stats);
    renderLines();
    priceEditor(line.stats).catch((err) => bridge.runtimeFailed(root, err));
    $(".sucs-editor").scrollIntoView({ block: "nearest" });
  }

  function closeEditor() {
    editing = null;
    $(".sucs-editor").hidden = true;
    renderLines();
  }

  function renderCards() {
    showCards(root, roster(), currentCheck());
  }

  /** Totals and legality shown from the first paint: the core's check when it is in for
   *  the shown roster, else the one from the published units' costs. */
  function renderCheck() {
    if (!(lastCheck && lastCheck.rosterId === store.active)) showCheck(root, { ok: true, result: currentCheck() });
  }

  // -- adding units
  const listSelect = $(".sucs-add-list");
  const unitSelect = $(".sucs-add-unit");
  listSelect.replaceChildren(...data.lists.map((/** @type {string[]} */ [id, title]) => el("option", { value: id, text: title })));
  function fillUnits() {
    unitSelect.replaceChildren(...data.presets.filter((/** @type {any} */ p) => p.list === listSelect.value).map((/** @type {any} */ p) =>
      el("option", { value: p.id, text: `${p.name} (${presetCost(p)} pts${p.reproduced ? "" : `, printed extra +${p.published_cost}`})` })));
  }
  listSelect.addEventListener("change", fillUnits);
  fillUnits();

  /** @param {Roster["units"][number]} line */
  function addLine(line) {
    roster().units.push(line);
    notice("");
    changed({ now: true });
  }

  // -- roster management
  /** @param {string} id */
  function switchTo(id) {
    store.active = id;
    limitError("");
    if (editing !== null) closeEditor();
    lastCheck = null;
    refresh({ now: true });
  }

  // -- a received roster (share link or file) is shown at once, before the rules engine
  // has checked it; it is saved (and can be edited) once the core has accepted it
  const PREVIEW_LOCKED = [".sucs-bar", ".sucs-head", ".sucs-lines", ".sucs-add"];
  let previewNotice = "";
  const preview = {
    /** @param {Roster[]} rosters @param {string} source */
    show(rosters, source) {
      if (!rosters.length) return false;
      const r = rosters[0];
      PREVIEW_LOCKED.forEach((sel) => { $(sel).inert = true; });
      root.dataset.preview = "yes";
      $(".sucs-name").value = r.name;
      $(".sucs-limit").value = String(r.points_limit);
      const quick = quickCheck(r, presetById);
      $(".sucs-lines").replaceChildren(...r.units.map((line, i) => lineNode(line, i, {
        cost: quick.units[i] || undefined, preset: line.preset ? presetById.get(line.preset) : null, editing: false,
        onChange: () => {}, onEdit: () => {}, onCopy: () => {}, onRemove: () => {},
      })));
      showCheck(root, { ok: true, result: quick });
      showCards(root, r, quick);
      const more = rosters.length > 1 ? ` and ${countOf(rosters.length - 1, "more roster")}` : "";
      previewNotice = `${source}: “${r.name}”${more}, shown as received; saved here once the rules engine has checked it…`;
      notice(previewNotice);
      return true;
    },
    end() {
      if (!root.dataset.preview) return;
      delete root.dataset.preview;
      PREVIEW_LOCKED.forEach((sel) => { $(sel).inert = false; });
      if ($(".sucs-notice-text").textContent === previewNotice) notice("");
      renderPicker();
      renderLines();
      if (lastCheck && lastCheck.rosterId === store.active) showCheck(root, { ok: true, result: lastCheck.result });
      else renderCheck();
      renderCards();
    },
  };

  const { importText, openSharedLink, openAddLink, previewSharedLink } = importer({
    store, starter: data.first, preview, checkFile: (/** @type {string} */ file) => run(ENGINES.file, { file }), question, notice, showProblems, switchTo,
    setUndo: (/** @type {typeof undo} */ value) => { undo = value; },
    openedAt: root.dataset.openedAt || window.location.href, presetById, addLine,
  });

  const actions = {
    new: () => { const entry = store.add(blankRoster()); notice(""); switchTo(entry.id); },
    duplicate: () => {
      const entry = store.add({ ...clone(roster()), name: `${roster().name} (copy)`.slice(0, 80) });
      notice("Roster duplicated.");
      switchTo(entry.id);
    },
    delete: () => {
      const removed = store.remove(store.active);
      if (!removed) return;
      const { entry, index } = removed;
      ensureActive();
      store.active = store.entries[Math.min(index, store.entries.length - 1)].id;
      switchTo(store.active);
      notice(`Deleted “${entry.roster.name}”.`, true);
      undo = { restore: () => store.restore(entry, index), id: entry.id };
    },
    undo: () => {
      if (!undo) return;
      const { restore, id } = undo;
      restore();
      notice("Restored.");
      switchTo(id && store.get(id) ? id : store.active || "");
    },
    add: () => {
      const p = presetById.get(unitSelect.value);
      if (!p) return;
      // the same published unit again, as published: one more of that line, not a new line
      const same = roster().units.findIndex((u) => u.preset === p.id && u.name === p.name
        && canonical(u.stats) === canonical(p.stats) && u.count < RULES.max_count);
      if (same < 0) { addLine({ name: p.name, count: 1, preset: p.id, stats: clone(p.stats) }); return; }
      roster().units[same].count += 1;
      notice(`${p.name}: now ${roster().units[same].count} in line ${same + 1}.`);
      changed({ now: true });
    },
    "add-blank": () => {
      addLine({ name: "Custom unit", count: 1, preset: null, stats: clone(data.spec.initial) });
      openEditor(roster().units.length - 1);
    },
    "close-editor": () => closeEditor(),
    export: () => download(fileName(roster().name), JSON.stringify(roster(), null, 2)),
    // compact JSON, one roster a line: the core's file limit is set so that an export of
    // the most rosters a file may hold, each of the most units, imports back
    "export-all": () => download("sucs-rosters.json", `{"format":${JSON.stringify(RULES.collection)},"version":${RULES.version},"rosters":[\n${
      store.rosters().map((r) => JSON.stringify(r)).join(",\n")}\n]}\n`),
    "kept-download": (/** @type {HTMLElement} */ button) => {
      const key = button.closest("li")?.dataset.key || "";
      const text = store.keptText(key);
      if (text !== null) download(`sucs-kept${key.slice(KEPT_PREFIX.length).replace(/[^a-z0-9-]/gi, "-")}.json`, text);
    },
    "kept-delete": async (/** @type {HTMLElement} */ button) => {
      const key = button.closest("li")?.dataset.key || "";
      if (await question(QUESTIONS.dropKept) === "delete") store.dropKept(key);
      save(); // room freed: saving resumes
      renderStorage();
    },
    share: async () => {
      const url = new URL(window.location.href);
      url.hash = HASH_KEY + await encodeShare(roster());
      try {
        await navigator.clipboard.writeText(url.href);
        notice("Share link copied: it opens this page with a copy of the roster.");
      } catch {
        notice(`Share this link: ${url.href}`);
      }
    },
    print: () => window.print(),
  };

  ui.addEventListener("click", (/** @type {MouseEvent} */ event) => {
    const button = event.target instanceof Element ? /** @type {HTMLElement | null} */ (event.target.closest("[data-sucs]")) : null;
    if (!button) return;
    const action = /** @type {Record<string, (b: HTMLElement) => unknown>} */ (actions)[button.dataset.sucs || ""];
    if (action) Promise.resolve(action(button)).catch((err) => bridge.runtimeFailed(root, err));
  });
  $(".sucs-pick").addEventListener("change", (/** @type {any} */ e) => switchTo(e.target.value));
  $(".sucs-name").addEventListener("change", (/** @type {any} */ e) => {
    const text = e.target.value.trim();
    if (text) { roster().name = text.slice(0, 80); changed(); } else e.target.value = roster().name;
  });
  // the points limit: a whole number within the core's limit is taken; anything else is
  // refused with the core's own message next to the field (the roster keeps its limit)
  const limitInput = $(".sucs-limit");
  let limitSeq = 0;
  /** @param {string} message */
  function limitError(message) {
    const box = $(".sucs-limit-error");
    box.textContent = message;
    box.hidden = !message;
    if (message) limitInput.setAttribute("aria-invalid", "true");
    else limitInput.removeAttribute("aria-invalid");
  }
  limitInput.addEventListener("change", async () => {
    const seq = ++limitSeq;
    const text = limitInput.value.trim();
    if (/^\d+$/.test(text) && Number(text) <= RULES.max_limit) {
      limitError("");
      roster().points_limit = Number(text);
      changed();
      return;
    }
    limitError("Checking this value (once the rules engine has started)…");
    const value = /^[-+]?\d+$/.test(text) ? Number(text) : text;
    try {
      const reply = await run(ENGINES.file, { file: JSON.stringify({ ...roster(), points_limit: value }) });
      if (seq !== limitSeq) return;
      const problem = reply.ok ? reply.result.problems.find((/** @type {any} */ p) => /points_limit$/.test(p.field)) : null;
      limitError(problem ? problem.message : reply.ok ? "" : reply.error.message);
    } catch (err) {
      bridge.runtimeFailed(root, err);
    }
  });
  $(".sucs-import").addEventListener("change", async (/** @type {any} */ e) => {
    const file = e.target.files && e.target.files[0];
    e.target.value = "";
    if (!file) return;
    // the core's one limit, in characters; a character is at most 3 bytes of UTF-8 (the
    // text's own length is checked before the core reads it)
    if (file.size > 3 * RULES.max_file_chars) {
      showProblems(`${file.name} was refused; nothing was changed.`, [{ field: "file",
        message: `It is ${(file.size / 1e6).toFixed(1)} MB; a roster file is at most ${RULES.max_file_chars.toLocaleString("en")} characters (an export of every roster fits).` }]);
      return;
    }
    try {
      await importText(await file.text(), `The file ${file.name}`);
    } catch (err) {
      bridge.runtimeFailed(root, err);
    }
  });

  // another tab saved: merge its changes (after any edit still being priced here)
  /** @param {StorageEvent} event */
  function onStorage(event) {
    if (!root.isConnected) { window.removeEventListener("storage", onStorage); return; }
    if (!store.area || event.storageArea !== store.area) return;
    if (event.key && event.key.startsWith(KEPT_PREFIX)) renderStorage();
    else if (event.key === null || event.key.startsWith(ENTRY_PREFIX)) schedule("sync", syncOtherTab, 30);
    else if (event.key === ACTIVE_KEY) { /* each tab shows its own roster */ }
  }
  function syncOtherTab() {
    if (timers.has("edit") || pricing) { schedule("sync", syncOtherTab, 100); return; }
    afterSync(store.sync({ write: false, busy: pending(false) && store.active ? [store.active] : [] }));
  }
  window.addEventListener("storage", onStorage);

  // The tab is reloaded or closed while it asks about another tab's version: this tab's
  // edit is not lost. It is saved as a roster of its own (as Keep both would), the other
  // tab's version stays as it is, and the next start of this tab says so.
  const RECOVERED_KEY = scopedKey("sucs-roster:recovered");
  function keepOnLeave() {
    if (!root.isConnected) { window.removeEventListener("pagehide", keepOnLeave); return; }
    /** @type {string[]} */
    const names = [];
    for (const entry of [...store.entries]) {
      const theirs = entry.conflict;
      if (!entry.asking || !theirs) continue;
      if (entry.id === store.active) pending(true);
      const copy = store.add({ ...clone(entry.roster), name: suffixed(entry.roster.name, "(this tab, kept at reload)") },
        store.entries.indexOf(entry) + 1);
      store.accept(entry.id, theirs);
      names.push(copy.roster.name);
    }
    if (!names.length) return;
    store.sync({ write: true });
    try {
      window.sessionStorage.setItem(RECOVERED_KEY, JSON.stringify(names));
    } catch { /* the copy is kept; only the note is lost */ }
  }
  window.addEventListener("pagehide", keepOnLeave);
  /** What the last page of this tab kept on leaving, said once. */
  function recoveredNotice() {
    /** @type {unknown} */
    let names;
    try {
      names = JSON.parse(window.sessionStorage.getItem(RECOVERED_KEY) || "null");
      window.sessionStorage.removeItem(RECOVERED_KEY);
    } catch { return; }
    if (!Array.isArray(names) || !names.length) return;
    notice(`This tab was reloaded while it asked about a roster changed in another tab: its own version was kept as ${
      names.map((n) => `“${String(n)}”`).join(", ")}, and the other tab's version is unchanged.`);
  }

  // A share link pasted into the address bar of this tab: only the "#" changes, so the
  // page stays and the link is opened here (once the builder is live).
  async function onHashChange() {
    if (!root.isConnected) { window.removeEventListener("hashchange", onHashChange); return; }
    if (!window.location.hash.startsWith(`#${HASH_KEY}`)) return;
    root._busy = true;
    try {
      await openSharedLink(window.location.href);
      await checking; // as at start-up: settled only once the roster it opened is checked
    } catch (err) {
      bridge.runtimeFailed(root, err);
    } finally {
      root._busy = false;
    }
  }

  // -- start: read what was saved, set damage aside, show, then let the core check it
  const loaded = store.load();
  ensureActive();
  if (loaded.error) saveProblem = problemText(loaded.error);
  if (loaded.damage.length) reportDamage(loaded.damage);
  ui.inert = false;
  renderStorage();
  renderPicker();
  renderLines();
  renderCheck();
  renderCards();
  recoveredNotice();
  // the part that needs the runtime: run again by itself once the runtime is back
  const startUp = async () => {
    bridge.setStatus(root, "loading", "Starting the rules engine…");
    setStarting(true);
    try {
      await previewSharedLink();
      await validateEntries(store.entries.map((e) => e.id));
      save();
      await recheck();
      await openSharedLink();
      await openAddLink();
      await checking;
    } catch (err) {
      setStarting(false);
      bridge.startUpFailed(root, err, startUp);
      return;
    }
    // ready only now: everything the start began (a share or add link's import too) is done
    if (!live) window.addEventListener("hashchange", onHashChange);
    live = true;
    bridge.setStatus(root, "ready", "Live: costs and checks come from the rules engine.");
    setStarting(false);
  };
  await startUp();
}
