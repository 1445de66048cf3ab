// @ts-check
// The army builder's unit editor: a form built from the core's own field list (see
// sucs_roster_dom.js), priced by the rules core (sucs.unit_cost) a moment after each edit.
// A priced edit goes into the line being edited; a refused one is shown next to its field
// and the line keeps its stats. Which line is open and the pricing in flight are the
// app's state (RosterApp in sucs_roster.js).
import { buildEditorForm, fillEditor, readEditor, markFieldError, breakdownRows } from "./sucs_roster_dom.js";

/** @typedef {import("./sucs_roster.js").RosterApp} RosterApp */

/** The editor's fields, built once; an edit is priced once the GM pauses.
 *  @param {RosterApp} app */
export function buildEditor(app) {
  return buildEditorForm(app.$(".sucs-editor-form"), app.data.spec.fields,
    () => app.busy.schedule("edit", () => editorChanged(app), 150));
}

/** @param {RosterApp} app @param {any} result */
function renderBreakdown(app, result) {
  app.$(".sucs-editor-cost").textContent = `Cost ${result.cost} points: quality base ${result.base} + extra ${result.extra_cost}.`;
  app.$(".sucs-breakdown tbody").replaceChildren(...breakdownRows(result));
}

/** The core's price of `stats`, shown in the editor; null when refused or overtaken.
 *  @param {RosterApp} app @param {Record<string, unknown>} stats */
async function priceEditor(app, stats) {
  const seq = ++app.costSeq;
  const reply = await app.run("cost", stats);
  if (seq !== app.costSeq) return null;
  markFieldError(app.editorInputs, reply.ok ? null : reply.error);
  if (!reply.ok) {
    app.$(".sucs-editor-cost").textContent = `Not priced: ${reply.error.message}`;
    return null;
  }
  renderBreakdown(app, reply.result);
  return reply.result;
}

/** An edit in the form: priced, then put in the line (if it is still the one open).
 *  @param {RosterApp} app */
async function editorChanged(app) {
  if (app.editing === null) return;
  const index = app.editing;
  const rosterId = app.store.active;
  app.pricing += 1;
  try {
    const result = await priceEditor(app, readEditor(app.editorInputs));
    if (result && app.editing === index && app.store.active === rosterId && app.roster().units[index]) {
      app.roster().units[index].stats = result.stats;
      app.changed({ now: true });
    }
  } catch (err) {
    app.bridge.runtimeFailed(app.root, err);
  } finally {
    app.pricing -= 1;
  }
}

/** @param {RosterApp} app @param {number} index */
export function openEditor(app, index) {
  app.editing = index;
  const line = app.roster().units[index];
  app.$(".sucs-editor").hidden = false;
  app.$(".sucs-editor-title").textContent = `Edit line ${index + 1}: ${line.name}`;
  fillEditor(app.editorInputs, line.stats);
  app.renderLines();
  priceEditor(app, line.stats).catch((err) => app.bridge.runtimeFailed(app.root, err));
  app.$(".sucs-editor").scrollIntoView({ block: "nearest" });
}

/** @param {RosterApp} app */
export function closeEditor(app) {
  app.editing = null;
  app.$(".sucs-editor").hidden = true;
  app.renderLines();
}
