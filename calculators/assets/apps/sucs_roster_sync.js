// @ts-check
// The army builder kept in step with its saved copies (sucs_roster_store.js reads, merges
// and writes them): each change saved; another tab's saves merged in, and a roster changed
// in both asked about; every roster read from storage checked by the rules core before it
// is trusted; and a tab left while it asks about another tab's version keeps its own
// version as a roster of its own, said at the tab's next start.
import { clone, suffixed, QUESTIONS, unmovedMessage } from "./sucs_roster_lib.js";
import { KEPT_PREFIX, ENTRY_PREFIX, ACTIVE_KEY } from "./sucs_roster_store.js";
import { askPersist, PERSIST_REFUSED, scopedKey } from "./storage_kit.js";
import { closeEditor } from "./sucs_roster_editor.js";
import { notice, renderStorage, reportDamage, problemText } from "./sucs_roster_messages.js";

/** @typedef {import("./sucs_roster.js").RosterApp} RosterApp */

/** Save, and show what the saved copy says about other tabs and damage. Room freed (a
 *  roster or a kept copy deleted: `freed`) lets the rest of an old store move, if any is
 *  left. @param {RosterApp} app @param {{freed?: boolean}} [options] */
export function save(app, { freed = false } = {}) {
  const res = app.store.sync({ write: true });
  const { store } = app;
  if (store.unmoved.names.length && (freed || res.freed) && !res.error) {
    const moved = store.moveLegacy();
    app.moveText = unmovedMessage(store.unmoved);
    const more = store.sync({ write: false }); // the rosters just moved come in as another tab's would
    res.added.push(...more.added);
    if (!store.unmoved.names.length && !moved.error) notice(app, "Every roster saved by an earlier version of the builder is now moved.");
  }
  afterSync(app, res);
}

/** The GM saved something: ask the browser to keep the site's data (once per page view).
 *  @param {RosterApp} app */
export function keepForGood(app) {
  askPersist(app.store.area).then((answer) => {
    if (answer !== "refused-first") return;
    app.persistText = PERSIST_REFUSED;
    renderStorage(app);
  }).catch(() => { /* nothing to say */ });
}

/** @param {RosterApp} app @param {import("./sucs_roster_store.js").SyncResult} res */
function afterSync(app, res) {
  const { store } = app;
  const before = app.saveProblem;
  app.saveProblem = res.error ? problemText(res.error) : "";
  if (before && !app.saveProblem) notice(app, "Saved again: your changes are stored in this browser.");
  if (res.damage.length) reportDamage(app, res.damage);
  const shown = store.active || "";
  const messages = [];
  if (res.refreshed.includes(shown)) messages.push(`“${app.roster().name}” was changed in another tab; this tab now shows that version.`);
  if (res.removed.includes(shown)) messages.push("The roster shown here was deleted in another tab.");
  if (res.restored.length) messages.push("A roster deleted here was changed in another tab, so it was kept.");
  if (res.kept.length) messages.push("A roster was deleted in another tab while this tab had changes to it, so it was kept.");
  if (res.refreshed.includes(shown) || res.removed.includes(shown)) {
    if (app.editing !== null) closeEditor(app);
    app.lastCheck = null;
  }
  app.ensureActive();
  if (messages.length) notice(app, messages.join(" "));
  renderStorage(app);
  if (res.added.length || res.removed.length || res.refreshed.length || res.restored.length) {
    app.renderPicker();
    app.renderLines();
    app.renderCheck();
    app.busy.schedule("check", () => app.recheck(), 20);
    validateEntries(app, [...res.added, ...res.restored]).catch((err) => app.bridge.runtimeFailed(app.root, err));
  }
  res.conflicts.forEach((id) => { resolveConflict(app, id).catch((/** @type {unknown} */ err) => app.bridge.runtimeFailed(app.root, err)); });
}

/** A roster changed here and in another tab: ask which to keep (or keep both).
 *  @param {RosterApp} app @param {string} id */
async function resolveConflict(app, id) {
  const { store } = app;
  const entry = store.get(id);
  if (!entry || !entry.conflict || entry.asking) return;
  entry.asking = true;
  if (id === store.active) app.pending(true);
  const choice = await app.busy.question(QUESTIONS.conflict(entry.roster.name));
  entry.asking = false;
  const theirs = entry.conflict;
  if (!store.get(id) || !theirs) { save(app); return; }
  let show = store.active;
  if (choice === "both") {
    const copy = store.add({ ...clone(entry.roster), name: suffixed(entry.roster.name, "(this tab)") }, store.entries.indexOf(entry) + 1);
    if (store.active === id) show = copy.id;
    notice(app, `Both kept: this tab's version is now “${copy.roster.name}”, and “${theirs.roster.name}” is the other tab's version.`);
  } else notice(app, `This tab now shows the other tab's version of “${theirs.roster.name}”.`);
  store.accept(id, theirs);
  if (app.editing !== null) closeEditor(app);
  app.switchTo(show || id);
}

/** The rules core checks every roster read from storage before it is trusted.
 *  @param {RosterApp} app @param {string[]} ids */
export async function validateEntries(app, ids) {
  const parts = await app.store.checkWithCore(ids, (inputs) => app.run("file", inputs));
  if (!parts.length) return;
  if (app.editing !== null && !app.store.get(app.store.active)) closeEditor(app);
  reportDamage(app, parts);
  app.ensureActive();
  app.lastCheck = null;
  app.refresh({ now: true });
}

/** Another tab saved: merge its changes (after any edit still being priced here).
 *  @param {RosterApp} app */
export function watchOtherTabs(app) {
  /** @param {StorageEvent} event */
  const onStorage = (event) => {
    if (!app.root.isConnected) { window.removeEventListener("storage", onStorage); return; }
    if (!app.store.area || event.storageArea !== app.store.area) return;
    if (event.key && event.key.startsWith(KEPT_PREFIX)) renderStorage(app);
    else if (event.key === null || event.key.startsWith(ENTRY_PREFIX)) app.busy.schedule("sync", () => syncOtherTab(app), 30);
    else if (event.key === ACTIVE_KEY) { /* each tab shows its own roster */ }
  };
  window.addEventListener("storage", onStorage);
}

/** @param {RosterApp} app */
function syncOtherTab(app) {
  if (app.busy.timers.has("edit") || app.pricing) { app.busy.schedule("sync", () => syncOtherTab(app), 100); return; }
  afterSync(app, app.store.sync({ write: false, busy: app.pending(false) && app.store.active ? [app.store.active] : [] }));
}

// The tab is reloaded or closed while it asks about another tab's version: this tab's
// edit is not lost. It is saved as a roster of its own (as Keep both would), the other
// tab's version stays as it is, and the next start of this tab says so.
const RECOVERED_KEY = scopedKey("sucs-roster:recovered");

/** @param {RosterApp} app */
export function watchLeaving(app) {
  const keepOnLeave = () => {
    if (!app.root.isConnected) { window.removeEventListener("pagehide", keepOnLeave); return; }
    const { store } = app;
    /** @type {string[]} */
    const names = [];
    for (const entry of [...store.entries]) {
      const theirs = entry.conflict;
      if (!entry.asking || !theirs) continue;
      if (entry.id === store.active) app.pending(true);
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
  };
  window.addEventListener("pagehide", keepOnLeave);
}

/** What the last page of this tab kept on leaving, said once. @param {RosterApp} app */
export function recoveredNotice(app) {
  /** @type {unknown} */
  let names;
  try {
    names = JSON.parse(window.sessionStorage.getItem(RECOVERED_KEY) || "null");
    window.sessionStorage.removeItem(RECOVERED_KEY);
  } catch { return; }
  if (!Array.isArray(names) || !names.length) return;
  notice(app, `This tab was reloaded while it asked about a roster changed in another tab: its own version was kept as ${
    names.map((n) => `“${String(n)}”`).join(", ")}, and the other tab's version is unchanged.`);
}
