// @ts-check
// What the army builder tells the GM, always as text: the notice line (with Undo after a
// delete or a replace), the problems of a refused file or link, and the storage box
// (saving refused, damaged data set aside, the kept copies to download, and the browser's
// refusal to keep the site's data). The texts shown are the app's state (RosterApp in
// sucs_roster.js); this module only shows them.
import { SAVE_PROBLEMS, damageMessage } from "./sucs_roster_lib.js";
import { el, keptNodes } from "./sucs_roster_dom.js";

/**
 * @typedef {import("./sucs_roster.js").RosterApp} RosterApp
 * @typedef {import("./sucs_roster_store.js").Damage} Damage
 */

/** What the GM is told when saving fails. @param {string} error */
export const problemText = (error) => SAVE_PROBLEMS[/** @type {keyof SAVE_PROBLEMS} */ (error)] || SAVE_PROBLEMS.blocked;

/** @param {RosterApp} app @param {string} text @param {boolean} [withUndo] */
export function notice(app, text, withUndo = false) {
  app.$(".sucs-notice").hidden = !text;
  app.$(".sucs-notice-text").textContent = text;
  app.$('[data-sucs="undo"]').hidden = !withUndo;
  if (!withUndo) app.undo = null;
}

/** @param {RosterApp} app @param {string} title @param {Array<{field: string, message: string}>} problems */
export function showProblems(app, title, problems) {
  const box = app.$(".sucs-problems");
  box.hidden = !title;
  app.$(".sucs-problems-title").textContent = title || "";
  const list = box.querySelector("ul");
  list.replaceChildren(...(problems || []).map((p) => el("li", { text: p.message })));
}

/** @param {RosterApp} app */
export function renderStorage(app) {
  const kept = app.store.keptList();
  const show = (/** @type {string} */ sel, /** @type {string} */ text) => { app.$(sel).textContent = text; app.$(sel).hidden = !text; };
  show(".sucs-save-problem", app.saveProblem);
  show(".sucs-damage", app.damageText);
  show(".sucs-move-problem", app.moveText);
  show(".sucs-persist-text", app.persistText);
  app.$(".sucs-persist").hidden = !app.persistText;
  app.$(".sucs-kept-title").hidden = !kept.length;
  app.$(".sucs-kept").replaceChildren(...keptNodes(kept));
  app.$('.sucs-storage [data-sucs="export-all"]').hidden = !app.saveProblem && !app.moveText;
  app.$(".sucs-storage").hidden = !app.saveProblem && !app.damageText && !app.moveText && !kept.length;
}

/** @param {RosterApp} app @param {Damage[]} parts */
export function reportDamage(app, parts) {
  app.damageText = damageMessage(parts);
  renderStorage(app);
}
