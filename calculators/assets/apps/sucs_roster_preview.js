// @ts-check
// A received roster (share link or file) is shown at once, before the rules engine has
// checked it, with the builder's controls locked; it is saved (and can be edited) once
// the core has accepted it. sucs_roster_import.js says when to show it and when to end;
// ending shows the saved rosters again.
import { quickCheck, countOf } from "./sucs_roster_lib.js";
import { showCards, lineNode, showCheck } from "./sucs_roster_dom.js";
import { notice } from "./sucs_roster_messages.js";

/**
 * @typedef {import("./sucs_roster.js").RosterApp} RosterApp
 * @typedef {import("./sucs_roster_store.js").Roster} Roster
 */

/** The parts a GM could change while a preview is shown. */
const PREVIEW_LOCKED = [".sucs-bar", ".sucs-head", ".sucs-lines", ".sucs-add"];

/** Show the first of `rosters` as received; false when there is none.
 *  @param {RosterApp} app @param {Roster[]} rosters @param {string} source */
export function showPreview(app, rosters, source) {
  if (!rosters.length) return false;
  const r = rosters[0];
  PREVIEW_LOCKED.forEach((sel) => { app.$(sel).inert = true; });
  app.root.dataset.preview = "yes";
  app.$(".sucs-name").value = r.name;
  app.$(".sucs-limit").value = String(r.points_limit);
  const quick = quickCheck(r, app.presetById);
  app.$(".sucs-lines").replaceChildren(...r.units.map((line, i) => lineNode(line, i, {
    cost: quick.units[i] || undefined, preset: line.preset ? app.presetById.get(line.preset) : null, editing: false,
    onChange: () => {}, onEdit: () => {}, onCopy: () => {}, onRemove: () => {},
  })));
  showCheck(app.root, { ok: true, result: quick });
  showCards(app.root, r, quick);
  const more = rosters.length > 1 ? ` and ${countOf(rosters.length - 1, "more roster")}` : "";
  app.previewNotice = `${source}: “${r.name}”${more}, shown as received; saved here once the rules engine has checked it…`;
  notice(app, app.previewNotice);
  return true;
}

/** Unlock the builder and show the saved rosters again. @param {RosterApp} app */
export function endPreview(app) {
  if (!app.root.dataset.preview) return;
  delete app.root.dataset.preview;
  PREVIEW_LOCKED.forEach((sel) => { app.$(sel).inert = false; });
  if (app.$(".sucs-notice-text").textContent === app.previewNotice) notice(app, "");
  app.renderPicker();
  app.renderLines();
  if (app.lastCheck && app.lastCheck.rosterId === app.store.active) showCheck(app.root, { ok: true, result: app.lastCheck.result });
  else app.renderCheck();
  app.renderCards();
}
