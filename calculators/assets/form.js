// @ts-check
// Form state of a calculator widget: read the inputs and apply values (from a link: the
// page address is address.js's).
// Every value from the address or the user is treated as text, never as markup.
import { state } from "./state.js";

/** A widget's root element; its state is kept by state.js. @typedef {HTMLElement} Widget */

/** @param {Widget} root @returns {HTMLElement[]} */
export function fields(root) {
  return [...root.querySelectorAll(".calc-field")].map((el) => /** @type {HTMLElement} */ (el));
}

/** @param {HTMLElement} field @returns {HTMLInputElement & HTMLSelectElement} */
export function control(field) {
  return /** @type {HTMLInputElement & HTMLSelectElement} */ (field.querySelector("input, select"));
}

/** The value of one field as the core expects it: numbers as numbers, the rest as text.
 * @param {HTMLElement} field @param {Record<string, unknown>} overrides @returns {unknown} */
export function readValue(field, overrides) {
  const name = /** @type {string} */ (field.dataset.field);
  if (name in overrides) return overrides[name];
  const el = control(field);
  const kind = field.dataset.kind;
  if (kind === "bool") return el.checked;
  const text = el.value.trim();
  if (text === "") return field.hasAttribute("data-optional") || kind === "choice" ? null : "";
  const whole = /^[-+]?\d+$/.test(text);
  if ((kind === "int" || (kind === "choice" && field.hasAttribute("data-numeric"))) && whole) {
    return parseInt(text, 10);
  }
  if (kind === "number" && /^[-+]?(\d+\.?\d*|\.\d+)(e[-+]?\d+)?$/i.test(text)) return Number(text);
  return text;
}

/** Show or hide the fields that depend on another (``data-shown-if``). */
export function updateVisibility(/** @type {Widget} */ root) {
  /** @type {Record<string, unknown>} */
  const values = {};
  for (const field of fields(root)) {
    const cond = field.dataset.shownIf ? JSON.parse(field.dataset.shownIf) : null;
    if (cond) field.hidden = !cond[1].includes(values[cond[0]] ?? null);
    values[/** @type {string} */ (field.dataset.field)] = field.hidden ? null : readValue(field, state(root).overrides);
  }
}

/** Every visible field's value, as sent to the worker. */
export function collect(/** @type {Widget} */ root) {
  updateVisibility(root);
  /** @type {Record<string, unknown>} */
  const inputs = {};
  for (const field of fields(root)) {
    if (field.hidden) continue;
    const value = readValue(field, state(root).overrides);
    if (value !== null) inputs[/** @type {string} */ (field.dataset.field)] = value;
  }
  return inputs;
}

/** The form's inputs as one string: what a computed answer is kept against (``computed``,
 * ``shown``), to tell whether the inputs on screen are still those it answers. */
export function inputsKey(/** @type {Widget} */ root) {
  return JSON.stringify(collect(root));
}

/**
 * Whether an edit of this control is complete enough to compute: a number box whose text
 * the browser cannot read yet ("-", "1e") or whose value is outside its range waits for
 * the user to finish (the change event, or a pause), so typing -999 never computes -9.
 * @param {EventTarget | null} target
 */
export function editInProgress(target) {
  if (!(target instanceof HTMLInputElement) || target.type !== "number") return false;
  return target.validity.badInput || target.validity.rangeUnderflow || target.validity.rangeOverflow;
}

/** Fill the form from ``values`` (text from a link, or the starting values). */
export function applyValues(/** @type {Widget} */ root, /** @type {Record<string, unknown>} */ values) {
  state(root).overrides = {};
  for (const field of fields(root)) {
    const name = /** @type {string} */ (field.dataset.field);
    const el = control(field);
    const value = values[name];
    if (field.dataset.kind === "bool") {
      // a field the values leave out (hidden by shown_if) goes back to its starting value
      el.checked = value === undefined ? el.defaultChecked : value === true || value === "true";
    } else if (el.tagName === "SELECT") {
      const text = value === undefined || value === null ? "" : String(value);
      if ([...el.options].some((o) => o.value === text)) el.value = text;
      else state(root).overrides[name] = text; // sent as received: the core names the problem
    } else {
      const text = value === undefined ? el.defaultValue : value === null ? "" : String(value);
      el.value = text;
      // A number box drops text it cannot hold: send what the link said, so the core
      // can name the problem instead of complaining about an empty value.
      if (el.value !== text) state(root).overrides[name] = text;
    }
  }
  updateVisibility(root);
}

/** Whether every field holds the value the page was built with (not a link's, not one
 * the browser restored or the reader typed). */
export function atStart(/** @type {Widget} */ root) {
  if (Object.keys(state(root).overrides).length) return false;
  return fields(root).every((field) => {
    const el = control(field);
    if (field.dataset.kind === "bool") return el.checked === el.defaultChecked;
    if (el.tagName === "SELECT") return [...el.options].every((o) => o.selected === o.defaultSelected);
    return el.value === el.defaultValue;
  });
}
