// @ts-check
// Setups side by side: a widget pins its current inputs as setup A; every later result
// shows A beside the current setup (rendered by calculators/compare.py in the worker).
// The pinned inputs live in the page address as `setup-a.<uid>=<JSON>`, so a copied link
// reopens the comparison. The address is text: it is parsed as JSON, never run.
import { MAX_LINK_LENGTH, collect } from "./form.js";
import { replaceAddress } from "./site.js";
import { state } from "./state.js";

/** @typedef {import("./form.js").Widget} Widget */

function param(/** @type {Widget} */ root) {
  return `setup-a.${root.dataset.uid}`;
}

/** The pinned inputs of a link, or null (none, or not a JSON object). */
export function pinnedFromUrl(/** @type {Widget} */ root) {
  const raw = new URLSearchParams(window.location.search).get(param(root));
  if (!raw || raw.length > MAX_LINK_LENGTH) return null;
  try {
    const value = JSON.parse(raw);
    return value && typeof value === "object" && !Array.isArray(value) ? value : null;
  } catch {
    return null;
  }
}

function writePin(/** @type {Widget} */ root) {
  const url = new URL(window.location.href);
  if (state(root).pinned) url.searchParams.set(param(root), JSON.stringify(state(root).pinned));
  else url.searchParams.delete(param(root));
  replaceAddress(url);
}

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
  writePin(root);
  showPin(root);
}
