// @ts-check
// The action dice tracker kept in step with its saved fight (phases_tracker_store.js reads
// and writes it): each step saved; another tab's newer save never overwritten (the GM is
// asked which fight to keep, and the other is kept aside); another tab's fight taken in
// when this tab has nothing unsaved; a tab left while it asks keeps its fight aside.
import { askPersist, PERSIST_REFUSED, ask, scopedKey } from "./storage_kit.js";
import { FIGHT_KEY, KEPT_PREFIX } from "./phases_tracker_store.js";
import { render, notice, renderStorage } from "./phases_tracker_view.js";

/** @typedef {import("./phases_tracker.js").TrackerApp} TrackerApp */

/** What the GM is told when saving fails (FightStore.save's problem). */
export const SAVE_PROBLEMS = {
  full: "This fight is NOT saved: the browser's storage is full. It stays in this tab until you close it; "
    + "Export the fight keeps it as a file. Saving resumes with your next action once there is room.",
  blocked: "Nothing is being saved: this browser does not let the page keep data, so the fight lasts only until "
    + "you close this tab. Export the fight keeps it as a file.",
  frozen: "Saving is paused: the saved fight is damaged and there is no room to set it aside, so saving now would "
    + "overwrite it. Download it below, then delete it to resume saving.",
};

/** Save the fight; another tab's newer save is never overwritten (the GM is asked).
 *  @param {TrackerApp} app */
export async function save(app) {
  const problem = app.store.save(app.history);
  if (problem === "conflict") {
    await resolveConflict(app);
    return;
  }
  const before = app.saveProblem;
  app.saveProblem = problem ? SAVE_PROBLEMS[/** @type {"full"} */ (problem)] : "";
  app.unsaved = Boolean(problem);
  if (before && !app.saveProblem) notice(app, "Saved again: the fight is stored in this browser.");
  if (app.live && before !== app.saveProblem) {
    app.bridge.setStatus(app.root, "ready", app.saveProblem ? "The tracker is live, but this fight is not being saved (see below)."
      : "The tracker is live; the fight is kept in this browser.");
  }
  if (!problem) askPersist(app.store.area).then((answer) => {
    if (answer === "refused-first") { app.persistText = PERSIST_REFUSED; renderStorage(app); }
  }).catch(() => {});
  renderStorage(app);
}

/** Both tabs changed the fight: keep both, one as the fight and one aside.
 *  @param {TrackerApp} app */
async function resolveConflict(app) {
  const { store } = app;
  const theirs = store.theirs();
  if (!theirs) { await save(app); return; }
  app.asking = true;
  const choice = await ask(app.$(".pt-ask"), {
    title: "The fight was changed in another tab",
    text: "This tab's fight and the other tab's have both moved on. Use the other tab's fight (this tab's is kept "
      + "aside as a copy you can download), or keep this tab's (the other tab's is kept aside).",
    choices: [["theirs", "Use the other tab's fight"], ["mine", "Keep this tab's fight"]],
    cancel: "theirs",
  }).finally(() => { app.asking = false; });
  const mine = store.text(app.history);
  if (choice === "mine") {
    if (theirs.raw !== null) store.kept.keep(theirs.raw);
    store.adopt(theirs.raw);
    const problem = store.save(app.history, { force: true });
    app.saveProblem = problem && problem !== "conflict" ? SAVE_PROBLEMS[/** @type {"full"} */ (problem)] : "";
    notice(app, "This tab's fight is kept; the other tab's is kept aside below.");
  } else {
    store.kept.keep(mine);
    store.adopt(theirs.raw);
    app.history = theirs.history;
    app.unsaved = false;
    notice(app, "This tab now shows the other tab's fight; this tab's is kept aside below.");
    if (app.current()) await app.restore("The fight from the other tab is shown.");
  }
  render(app);
}

/** Another tab saved: take its fight when this tab has nothing unsaved, else ask.
 *  @param {TrackerApp} app */
export function watchOtherTabs(app) {
  const { root, bridge, store } = app;
  /** @param {StorageEvent} event */
  async function onStorage(event) {
    if (!root.isConnected) { window.removeEventListener("storage", listener); return; }
    if (event.key !== null && event.key !== FIGHT_KEY && !event.key.startsWith(KEPT_PREFIX)) return;
    if (event.key && event.key.startsWith(KEPT_PREFIX)) { renderStorage(app); return; }
    if (app.syncing || app.busy) {
      setTimeout(() => listener(event), 50);
      return;
    }
    const theirs = store.theirs();
    if (!theirs) return;
    app.syncing = true;
    root._busy = true;
    try {
      if (app.unsaved) await resolveConflict(app);
      else {
        store.adopt(theirs.raw);
        app.history = theirs.history;
        if (app.current()) await app.restore("The fight was updated from another tab.");
        notice(app, "The fight was updated from another tab.");
        render(app);
      }
    } finally {
      app.syncing = false;
      root._busy = false;
    }
  }
  // the function added is the one removed once the tracker has left the page
  /** @param {StorageEvent} event */
  const listener = (event) => { onStorage(event).catch((err) => bridge.runtimeFailed(root, err)); };
  window.addEventListener("storage", listener);
}

// The tab is reloaded or closed while it asks about another tab's fight: this tab's fight
// is not lost. It is kept aside (as "Use the other tab's fight" would keep it), the other
// tab's fight stays saved, and the next start of this tab says so.
const RECOVERED_KEY = scopedKey("phases-tracker:recovered");

/** @param {TrackerApp} app */
export function watchLeaving(app) {
  const keepOnLeave = () => {
    if (!app.root.isConnected) { window.removeEventListener("pagehide", keepOnLeave); return; }
    if (!app.asking) return;
    const kept = app.store.kept.keep(app.store.text(app.history)) !== null;
    try {
      window.sessionStorage.setItem(RECOVERED_KEY, kept ? "kept" : "full");
    } catch { /* the copy is kept; only the note is lost */ }
  };
  window.addEventListener("pagehide", keepOnLeave);
}

/** What the last page of this tab kept on leaving, said once. @param {TrackerApp} app */
export function recoveredNotice(app) {
  /** @type {string | null} */
  let said;
  try {
    said = window.sessionStorage.getItem(RECOVERED_KEY);
    window.sessionStorage.removeItem(RECOVERED_KEY);
  } catch { return; }
  if (said === "kept") {
    notice(app, "This tab was reloaded while it asked about the fight changed in another tab: this tab's fight was "
      + "kept aside below (Download it, then Load a fight file brings it back); the other tab's fight is shown.");
  } else if (said === "full") {
    notice(app, "This tab was reloaded while it asked about the fight changed in another tab, and there was no room "
      + "to keep this tab's fight aside: the other tab's fight is shown.");
  }
}
