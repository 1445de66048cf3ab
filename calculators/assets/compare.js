// @ts-check
// Setups side by side: a widget pins its current inputs as setup A; every later result
// shows A beside the current setup (rendered by calculators/compare.py in the worker).
// The pinned inputs are kept in the page address with the inputs (address.js), so a
// copied link reopens the comparison.
import { collect } from "./form.js";
import { state } from "./state.js";

/** @typedef {import("./form.js").Widget} Widget */

/** Show the Pin button's state: pressed while setup A is kept. */
export function showPin(/** @type {Widget} */ root) {
  const button = root.querySelector('[data-action="pin"]');
  if (!button) return;
  button.setAttribute("aria-pressed", state(root).pinned ? "true" : "false");
  button.textContent = state(root).pinned ? "Unpin setup A" : "Pin as setup A";
  root.toggleAttribute("data-pinned", Boolean(state(root).pinned));
}

/** Pin the current inputs as setup A, or let go of the pinned setup. */
export function togglePin(/** @type {Widget} */ root) {
  state(root).pinned = state(root).pinned ? null : collect(root);
  showPin(root);
}
