// @ts-check
// A change the fair-fight finder suggests for a roster (sucs.roster_balance: a roster's
// lines scaled to the number of units found). "Use this fight" hands the battle back to
// the battle calculator and tells the page (handon.js HANDED_ON); the builder then shows
// the change, worded by the rules core, and makes it only when the GM applies it (with
// Undo), or saves the scaled roster as a new one. Nothing is changed otherwise.
import { RULES, clone, unusedName } from "./sucs_roster_lib.js";
import { notice } from "./sucs_roster_messages.js";
import { rosterLimitProblem, roomProblem, savedChars } from "./sucs_roster_room.js";
import { HANDED_ON } from "../handon.js";

/** @typedef {import("./sucs_roster.js").RosterApp} RosterApp */
/** @typedef {{side: string, name: string, lines: [string, number][], counts: number[],
 *   units: number, points: number, summary: string,
 *   roster: import("./sucs_roster_store.js").Roster}} Suggestion the core's, with the
 *   roster scaled as the battle found fought it */

/** The calculator whose result carries a suggestion. */
const FINDER = "sucs.roster_balance";

/** The saved roster the battle was fought with: its name and its lines (name and count)
 *  as fought, the open roster first. @param {RosterApp} app @param {Suggestion} s */
function fought(app, s) {
  const same = (/** @type {import("./sucs_roster_store.js").Roster} */ r) => r.name === s.name
    && r.units.length === s.lines.length && r.units.every((u, i) => u.name === s.lines[i][0] && u.count === s.lines[i][1]);
  const entries = [app.active(), ...app.store.entries.filter((e) => e.id !== app.store.active)];
  return entries.find((e) => e && same(e.roster)) || null;
}

/** The roster ``r`` with the suggestion's counts (a line scaled to none left out).
 *  @param {import("./sucs_roster_store.js").Roster} r @param {Suggestion} s */
function scaled(r, s) {
  return { ...clone(r), units: r.units.map((u, i) => ({ ...clone(u), count: s.counts[i] })).filter((u) => u.count > 0) };
}

/** Show the suggestion held (or hide the box when there is none). @param {RosterApp} app */
export function showSuggestion(app) {
  const box = app.$(".sucs-suggest");
  const s = /** @type {Suggestion | null} */ (app.suggestion);
  box.hidden = !s;
  if (!s) return;
  const target = fought(app, s);
  const apply = app.$('[data-sucs="suggest-apply"]');
  apply.hidden = !target;
  if (target) apply.textContent = `Apply to “${target.roster.name}”`;
  app.$(".sucs-suggest-text").textContent = `The fair-fight finder suggests ${s.summary}`
    + (target ? " Nothing changes until you apply it." : " No saved roster has the lines it was fought with (it came from a link, or has changed since): it can be saved as a new roster.");
}

/** Listen for the finder's "Use this fight". @param {RosterApp} app */
export function listenForSuggestions(app) {
  document.addEventListener(HANDED_ON, (/** @type {Event} */ event) => {
    const { calculator, result, note } = /** @type {CustomEvent} */ (event).detail || {};
    if (calculator !== FINDER || !result || !result.suggestion) return;
    const key = `roster_${result.suggestion.side}`;
    app.suggestion = { ...result.suggestion, roster: JSON.parse(result.fight_inputs[key]) };
    showSuggestion(app);
    // the note under the finder's buttons leads to the change, up in the builder: a
    // button, not a link (the site's instant navigation would load the page again)
    const go = document.createElement("button");
    go.type = "button";
    go.className = "md-button sucs-suggest-go";
    go.textContent = "See the change offered to the army builder";
    go.addEventListener("click", () => {
      const box = app.$(".sucs-suggest");
      box.scrollIntoView({ block: "start" });
      box.focus({ preventScroll: true });
    });
    note.append(go);
  });
}

/** The builder's buttons for the suggestion (sucs_roster_actions.js ACTIONS). */
export const SUGGEST_ACTIONS = {
  "suggest-apply": (/** @type {RosterApp} */ app) => {
    const s = /** @type {Suggestion | null} */ (app.suggestion);
    const target = s && fought(app, s);
    if (!s || !target) return;
    const before = target.roster;
    const after = scaled(before, s);
    const refused = roomProblem(app.store.area, Math.max(0, savedChars(after) - savedChars(before)), "The change was not made");
    if (refused) { notice(app, refused); return; }
    app.suggestion = null;
    showSuggestion(app);
    app.switchTo(target.id);
    target.roster = after;
    app.changed({ now: true });
    notice(app, `“${after.name}” now has ${s.units} unit${s.units === 1 ? "" : "s"}, as the fair-fight finder suggested.`, true);
    app.undo = { restore: () => { if (app.store.get(target.id)) Object.assign(target, { roster: before, dirty: true }); }, id: target.id };
  },
  "suggest-new": (/** @type {RosterApp} */ app) => {
    const s = /** @type {Suggestion | null} */ (app.suggestion);
    if (!s) return;
    const roster = { ...clone(s.roster), name: unusedName(`${s.name} (${s.units} units)`.slice(0, RULES.max_name), app.store.rosters().map((r) => r.name)) };
    const refused = rosterLimitProblem(app.store.entries.length) || roomProblem(app.store.area, savedChars(roster), "No roster was added");
    if (refused) { notice(app, refused); return; }
    app.suggestion = null;
    showSuggestion(app);
    app.switchTo(app.store.add(roster).id);
    notice(app, `Saved as “${roster.name}”.`);
  },
  "suggest-dismiss": (/** @type {RosterApp} */ app) => {
    app.suggestion = null;
    showSuggestion(app);
  },
};
