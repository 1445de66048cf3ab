// @ts-check
// What the action dice tracker's controls do: each data-pt="…" button of the page (start
// or restart a fight, change the pools, roll or enter an action, end the phase, add or
// remove a die, undo, a new fight, export, and the kept copies' Download and Delete), and
// a fight file loaded back. Every step goes to the rules core through the app's send
// (phases_tracker.js sends each click here).
import { FIGHT_KEY, KEPT_PREFIX, readFight } from "./phases_tracker_store.js";
import { download, guardedParse, ask } from "./storage_kit.js";
import { render, showError, notice, renderStorage } from "./phases_tracker_view.js";
import { save } from "./phases_tracker_sync.js";

/** @typedef {import("./phases_tracker.js").TrackerApp} TrackerApp */

/** @param {string} text */
function parseFaces(text) {
  const parts = text.split(/[\s,;+]+/).filter(Boolean);
  // numbers go as numbers; anything else is sent as received so the core names it
  return parts.map((p) => (/^\d+$/.test(p) ? parseInt(p, 10) : p));
}

/** @param {TrackerApp} app */
function setupValues(app) {
  return {
    offense_dice: parseInt(app.$("#pt-offense").value, 10),
    defence_dice: parseInt(app.$("#pt-defence").value, 10),
  };
}

/** @param {TrackerApp} app */
function actionEvent(app) {
  /** @type {Record<string, unknown>} */
  const event = { type: "action", extra_die: app.$("#pt-extra").checked && !app.$("#pt-extra").disabled };
  const note = app.$("#pt-note").value.trim();
  if (note) event.note = note.slice(0, 200);
  return event;
}

/** The fight as a file, and back. @param {TrackerApp} app */
function exportFight(app) {
  download("fight.phases.json", app.store.text(app.history, 2));
}

/** @param {TrackerApp} app @param {File} file */
export async function importFight(app, file) {
  const { data, store } = app;
  const text = file.size > data.max_file_chars ? null : await file.text();
  const checked = text === null ? null : guardedParse(text, { maxChars: data.max_file_chars, maxDepth: data.max_depth });
  const read = checked && checked.ok && text !== null ? readFight(text, data) : null;
  if (!read || read.whole || !read.history.length) {
    showError(app, `${file.name} is not a fight saved by this tracker; nothing was changed.`);
    return;
  }
  const before = app.history;
  app.history = read.history;
  if (await app.restore(`The fight from ${file.name} is loaded.`)) {
    if (before.length) store.kept.keep(store.text(before));
    await save(app);
    notice(app, before.length ? "The fight you had is kept aside below." : "");
  } else app.history = before;
  render(app);
}

/** @type {Record<string, (app: TrackerApp, button: HTMLElement) => unknown>} */
export const ACTIONS = {
  start: async (app) => {
    const goal = app.$("#pt-goal").value.trim();
    await app.send({ type: "start", ...setupValues(app), first_phase: app.$("#pt-first").value,
                     goal_spaces: /^\d+$/.test(goal) ? parseInt(goal, 10) : goal || 0 });
  },
  "set-pools": (app) => app.send({ type: "set_pools", ...setupValues(app) }),
  roll: async (app) => { if (await app.send(actionEvent(app), "roll")) app.$("#pt-note").value = ""; },
  enter: async (app) => {
    const text = app.$("#pt-faces").value.trim();
    if (!text) {
      showError(app, "Type the dice the table rolled, e.g. 6 4, or press Roll the action.");
      return;
    }
    if (await app.send({ ...actionEvent(app), faces: parseFaces(text) })) {
      app.$("#pt-faces").value = "";
      app.$("#pt-note").value = "";
    }
  },
  "end-phase": (app) => app.send({ type: "end_phase" }),
  "add-die": (app) => app.send({ type: "adjust", change: 1 }),
  "remove-die": (app) => app.send({ type: "adjust", change: -1 }),
  undo: async (app) => {
    if (app.busy) return;
    app.history.pop();
    showError(app, "");
    if (app.current()) await app.restore("Undone.");
    await save(app); // after any refused step was dropped (and the fight kept aside)
    render(app);
  },
  new: async (app) => {
    if (app.history.length) app.store.kept.keep(app.store.text(app.history));
    app.history = [];
    await save(app);
    showError(app, "");
    notice(app, app.store.kept.keys().length ? "The previous fight is kept aside below until you delete it." : "");
    render(app);
  },
  export: (app) => exportFight(app),
  "kept-download": (app, button) => {
    const key = /** @type {HTMLElement} */ (button.closest("li")).dataset.key || "";
    const text = key === FIGHT_KEY ? app.store.readRaw() : app.store.kept.text(key);
    if (text !== null) download(`fight-kept${key.slice(KEPT_PREFIX.length).replace(/[^a-z0-9-]/gi, "-")}.json`, text);
  },
  "kept-delete": async (app, button) => {
    const key = /** @type {HTMLElement} */ (button.closest("li")).dataset.key || "";
    const choice = await ask(app.$(".pt-ask"), { title: "Delete this kept copy?",
      text: "Once deleted it cannot be brought back; download it first if you may need it.",
      choices: [["keep", "Keep it"], ["delete", "Delete"]], cancel: "keep" });
    if (choice === "delete") {
      app.store.dropKept(key);
      if (key === FIGHT_KEY) await save(app);
    }
    renderStorage(app);
  },
};
