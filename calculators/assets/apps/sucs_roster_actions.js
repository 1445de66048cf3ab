// @ts-check
// What the army builder's buttons do, each a data-sucs="…" button of the app's page: a
// new, duplicated or deleted roster (Undo puts back a delete or a replace), a published
// unit or a blank one added, export (one roster or all), share, print, and the kept
// copies' Download and Delete. sucs_roster.js sends each click here.
import { RULES, HASH_KEY, blankRoster, unusedName, clone, canonical, encodeShare, download, fileName, QUESTIONS } from "./sucs_roster_lib.js";
import { KEPT_PREFIX } from "./sucs_roster_store.js";
import { openEditor, closeEditor } from "./sucs_roster_editor.js";
import { notice, renderStorage } from "./sucs_roster_messages.js";
import { save } from "./sucs_roster_sync.js";
import { rosterLimitProblem, roomProblem, savedChars } from "./sucs_roster_room.js";
import { fill } from "../handon.js";
import { SUGGEST_ACTIONS } from "./sucs_roster_suggest.js";

/** The page's army-against-army calculator (sucs.roster_battle), if it has one. */
const BATTLE = '.calc[data-calculator="sucs.roster_battle"]';

/** @typedef {import("./sucs_roster.js").RosterApp} RosterApp */

/** A roster added and shown, unless the builder keeps the most rosters it may or storage
 *  has no room: then the notice says why. @param {RosterApp} app
 *  @param {import("./sucs_roster_store.js").Roster} roster @param {string} done */
function addRoster(app, roster, done) {
  const refused = rosterLimitProblem(app.store.entries.length) || roomProblem(app.store.area, savedChars(roster), "No roster was added");
  notice(app, refused || done);
  if (refused) return;
  app.switchTo(app.store.add(roster).id);
}

/** @type {Record<string, (app: RosterApp, button: HTMLElement) => unknown>} */
export const ACTIONS = {
  new: (app) => addRoster(app, blankRoster(unusedName("New army", app.store.rosters().map((r) => r.name))), ""),
  duplicate: (app) => addRoster(app, { ...clone(app.roster()), name: `${app.roster().name} (copy)`.slice(0, RULES.max_name) },
    "Roster duplicated."),
  delete: (app) => {
    const { store } = app;
    const removed = store.remove(store.active);
    if (!removed) return;
    const { entry, index } = removed;
    app.ensureActive();
    store.active = store.entries[Math.min(index, store.entries.length - 1)].id;
    app.switchTo(store.active);
    notice(app, `Deleted “${entry.roster.name}”.`, true);
    app.undo = { restore: () => store.restore(entry, index), id: entry.id };
  },
  undo: (app) => {
    if (!app.undo) return;
    const { restore, id } = app.undo;
    restore();
    notice(app, "Restored.");
    app.switchTo(id && app.store.get(id) ? id : app.store.active || "");
  },
  add: (app) => {
    const p = app.presetById.get(app.$(".sucs-add-unit").value);
    if (!p) return;
    // the same published unit again, as published: one more of that line, not a new line
    const same = app.roster().units.findIndex((u) => u.preset === p.id && u.name === p.name
      && canonical(u.stats) === canonical(p.stats) && u.count < RULES.max_count);
    if (same < 0) { app.addLine({ name: p.name, count: 1, preset: p.id, stats: clone(p.stats) }); return; }
    app.roster().units[same].count += 1;
    notice(app, `${p.name}: now ${app.roster().units[same].count} in line ${same + 1}.`);
    app.changed({ now: true });
  },
  "add-blank": (app) => {
    if (app.addLine({ name: "Custom unit", count: 1, preset: null, stats: clone(app.data.spec.initial) })) {
      openEditor(app, app.roster().units.length - 1);
    }
  },
  "close-editor": (app) => closeEditor(app),
  // the open roster against the one picked, in the battle calculator below the builder:
  // its fields filled as a reader would, so it computes, keeps its address and is pinned
  // before the rules engine is live (a received roster may still be on its way in), the
  // fight waits and says so, as a Roll does; it is fought once the start is done
  fight: (app) => {
    const widget = /** @type {HTMLElement | null} */ (document.querySelector(BATTLE));
    const note = app.$(".sucs-battle-note");
    note.hidden = false;
    if (!app.live) {
      app.fightWaiting = true;
      note.textContent = "The battle will be fought as soon as the rules engine is ready…";
      return;
    }
    app.fightWaiting = false;
    const foe = (app.store.get(app.$(".sucs-foe").value) || app.active()).roster;
    for (const army of [app.roster(), foe]) {
      const units = army.units.reduce((n, u) => n + u.count, 0);
      if (units && units <= RULES.battle_units) continue;
      note.textContent = units ? `“${army.name}” has ${units} units; a battle takes at most ${RULES.battle_units} a side, counts included: fight with part of it.`
        : `“${army.name}” has no units yet: add some before it can fight.`;
      return;
    }
    if (!widget || !fill(widget, "roster_a", JSON.stringify(app.roster()))
        || !fill(widget, "roster_b", JSON.stringify(foe))) {
      note.textContent = "The battle calculator is not on this page.";
      return;
    }
    note.textContent = `“${app.roster().name}” (side A) against “${foe.name}” (side B): the battle is worked out below.`;
    // the answer in view (on a phone the form's fields fill the screen above it)
    (widget.querySelector(".calc-headline") || widget).scrollIntoView({ block: "center" });
  },
  export: (app) => download(fileName(app.roster().name), JSON.stringify(app.roster(), null, 2)),
  // compact JSON, one roster a line: the core's file limit is set so that an export of
  // the most rosters a file may hold, each of the most units, imports back
  "export-all": (app) => download("sucs-rosters.json", `{"format":${JSON.stringify(RULES.collection)},"version":${RULES.version},"rosters":[\n${
    app.store.rosters().map((r) => JSON.stringify(r)).join(",\n")}\n]}\n`),
  "kept-download": (app, button) => {
    const key = button.closest("li")?.dataset.key || "";
    const text = app.store.keptText(key);
    if (text !== null) download(`sucs-kept${key.slice(KEPT_PREFIX.length).replace(/[^a-z0-9-]/gi, "-")}.json`, text);
  },
  "kept-delete": async (app, button) => {
    const key = button.closest("li")?.dataset.key || "";
    const drop = await app.busy.question(QUESTIONS.dropKept) === "delete";
    if (drop) app.store.dropKept(key);
    save(app, { freed: drop }); // room freed: saving resumes
    renderStorage(app);
  },
  share: async (app) => {
    const url = new URL(window.location.href);
    url.search = ""; // the roster alone: the battle's inputs below stay with the page address
    url.hash = HASH_KEY + await encodeShare(app.roster());
    try {
      await navigator.clipboard.writeText(url.href);
      notice(app, "Share link copied: it opens this page with a copy of the roster.");
    } catch {
      notice(app, `Share this link: ${url.href}`);
    }
  },
  print: () => window.print(),
  ...SUGGEST_ACTIONS,
};
