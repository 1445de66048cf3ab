// @ts-check
// The army builder's points-limit field and each line's count: a whole number within the
// core's limit is taken at once; anything else is refused with the core's own message next
// to the field (its roster file check, sucs.roster_import, is asked about the value), the
// value typed stays in the field until it is fixed, and the roster keeps its value. The
// latest check asked is the app's state (RosterApp in sucs_roster.js).
import { RULES } from "./sucs_roster_lib.js";

/** @typedef {import("./sucs_roster.js").RosterApp} RosterApp */

/** Show the field's problem, or none. @param {RosterApp} app @param {string} message */
export function limitError(app, message) {
  const field = app.$(".sucs-limit");
  const box = app.$(".sucs-limit-error");
  box.textContent = message;
  box.hidden = !message;
  if (message) field.setAttribute("aria-invalid", "true");
  else field.removeAttribute("aria-invalid");
}

/** @param {RosterApp} app */
export function bindLimitField(app) {
  const field = app.$(".sucs-limit");
  field.addEventListener("change", async () => {
    const seq = ++app.limitSeq;
    const text = field.value.trim();
    if (/^\d+$/.test(text) && Number(text) <= RULES.max_limit) {
      limitError(app, "");
      app.roster().points_limit = Number(text);
      app.changed();
      return;
    }
    limitError(app, "Checking this value (once the rules engine has started)…");
    const value = /^[-+]?\d+$/.test(text) ? Number(text) : text;
    try {
      const reply = await app.run("file", { file: JSON.stringify({ ...app.roster(), points_limit: value }) });
      if (seq !== app.limitSeq) return;
      const problem = reply.ok ? reply.result.problems.find((/** @type {any} */ p) => /points_limit$/.test(p.field)) : null;
      limitError(app, problem ? problem.message : reply.ok ? "" : reply.error.message);
    } catch (err) {
      app.bridge.runtimeFailed(app.root, err);
    }
  });
}

/** A number typed, as the core should see it: a number if it reads as one, else the text.
 *  @param {string} text */
const typedValue = (text) => (/^[-+]?\d+(\.\d+)?$/.test(text) ? Number(text) : text);

/** The count of line `index` typed as `text`. @param {RosterApp} app @param {number} index @param {string} text */
export async function lineCount(app, index, text) {
  const seq = ++app.countSeq;
  const rosterId = app.store.active;
  const line = app.roster().units[index];
  if (!line) return;
  if (/^\d+$/.test(text) && Number(text) >= 1 && Number(text) <= RULES.max_count) {
    app.countError = null;
    line.count = Number(text);
    app.changed();
    return;
  }
  app.countError = { rosterId, index, typed: text, message: "Checking this value (once the rules engine has started)…" };
  app.renderLines();
  const units = app.roster().units.map((u, i) => (i === index ? { ...u, count: typedValue(text) } : u));
  try {
    const reply = await app.run("file", { file: JSON.stringify({ ...app.roster(), units }) });
    if (seq !== app.countSeq || !app.countError || app.store.active !== rosterId) return;
    const problem = reply.ok ? reply.result.problems.find((/** @type {any} */ p) => p.field.endsWith(`.units.${index + 1}.count`)) : null;
    const message = problem ? problem.message : reply.ok ? "" : reply.error.message;
    app.countError = message ? { ...app.countError, message } : null;
    app.renderLines();
  } catch (err) {
    app.bridge.runtimeFailed(app.root, err);
  }
}
