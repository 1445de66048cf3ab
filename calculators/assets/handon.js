// @ts-check
// Hand a result on: a calculator whose result another one takes as an input (the d10
// difficulty's DC goes to the hit calculators) fills the receiving widgets on this page
// and links to those on other pages with the value in the link's address. What to hand
// on is declared in Python (calculators/fence.py HAND_ON) and put on the button. A unit
// from the cost builder goes to the army builder ("Add to roster": fence.py ADDS_TO_ROSTER).
import { SITE_ROOT } from "./site.js";
import { addressPairs, pack, sealQuery } from "./sharelink.js";
import { collect, inputsKey } from "./form.js";
import { state } from "./state.js";

/** @typedef {import("./form.js").Widget} Widget */
/** @typedef {{calculator: string, title: string, page: string, uid: string, field: string}} Target */

/** The event a widget sends once it has handed a result on (detail: the calculator, its
 * result, the note under its buttons). */
export const HANDED_ON = "calc-handed-on";

/** Put ``value`` into ``field`` of a widget as the reader would: its own input and change
 * events keep its address and result up to date. */
export function fill(/** @type {HTMLElement} */ widget, /** @type {string} */ field, /** @type {string} */ value) {
  const input = /** @type {HTMLInputElement | null} */ (
    widget.querySelector(`.calc-field[data-field="${CSS.escape(field)}"] input, .calc-field[data-field="${CSS.escape(field)}"] select`));
  if (!input) return false;
  input.value = value;
  input.dispatchEvent(new Event("input", { bubbles: true }));
  input.dispatchEvent(new Event("change", { bubbles: true }));
  return true;
}

/** Put each of ``values`` that differs from the widget's own into it (a balance
 * search's "Use this fight": the whole fight's inputs, one of them changed). */
function fillAll(/** @type {HTMLElement} */ widget, /** @type {Record<string, unknown>} */ values) {
  const own = collect(/** @type {Widget} */ (widget));
  let any = false;
  for (const [field, value] of Object.entries(values)) {
    if (JSON.stringify(own[field]) === JSON.stringify(value)) continue;
    const box = /** @type {HTMLInputElement | null} */ (
      widget.querySelector(`.calc-field[data-field="${CSS.escape(field)}"] input[type="checkbox"]`));
    if (box) {
      box.checked = Boolean(value);
      box.dispatchEvent(new Event("change", { bubbles: true }));
      any = true;
    } else {
      any = fill(widget, field, value === null ? "" : String(value)) || any;
    }
  }
  return any || Object.keys(values).length > 0;
}

/** The note under ``root``'s buttons, and the result value ``key`` when the shown result
 * is current (else the note says ``wait`` and the value is undefined). */
function current(/** @type {Widget} */ root, /** @type {HTMLButtonElement} */ button, /** @type {string} */ key,
  /** @type {string} */ wait) {
  const note = root.querySelector(".calc-hand-on") || document.createElement("p");
  note.className = "calc-hand-on";
  note.setAttribute("role", "status");
  button.closest(".calc-actions")?.after(note);
  // "@inputs": the widget's own inputs, handed on as one JSON text
  const value = key === "@inputs" ? inputsKey(root) : state(root).result?.[key];
  if (value === undefined || root.dataset.pending || root.dataset.errorField) {
    note.textContent = wait;
    return { note, value: undefined };
  }
  return { note, value };
}

/** "Add to roster": open the army builder with this unit added to the open roster. */
export async function addToRoster(/** @type {Widget} */ root, /** @type {HTMLButtonElement} */ button) {
  const { note, value } = current(root, button, "stats", "Wait for the cost of these inputs, then add the unit.");
  if (value === undefined) return;
  const unit = await pack({ name: "Custom unit", count: 1, preset: null, stats: value });
  const url = new URL(button.dataset.rosterAdds + encodeURIComponent(unit), SITE_ROOT);
  note.textContent = "Opening the army builder…";
  window.location.assign(url.href);
}

/** The "use this result" action of ``root``'s button. */
export async function handOn(/** @type {Widget} */ root, /** @type {HTMLButtonElement} */ button) {
  const spec = JSON.parse(/** @type {string} */ (button.dataset.handOn));
  const { note, value } = current(root, button, spec.key, "Wait for a result for these inputs, then hand it on.");
  if (value === undefined) return;
  const whole = typeof value === "object" && value !== null;
  const text = whole ? "the fight found" : String(value);
  /** @type {(string | Node)[]} */
  const parts = [];
  const filled = [];
  for (const target of /** @type {Target[]} */ (spec.targets)) {
    const here = [...document.querySelectorAll(`.calc[data-calculator="${CSS.escape(target.calculator)}"]`)]
      .filter((w) => w !== root && (target.field === "*" && whole
        ? fillAll(/** @type {HTMLElement} */ (w), value) : fill(/** @type {HTMLElement} */ (w), target.field, text)));
    // the other fields set with it (a balance search's chance wanted)
    for (const w of here) fillAll(/** @type {HTMLElement} */ (w), spec.also || {});
    if (here.length) {
      filled.push(here[0]);
      const a = document.createElement("a");
      a.href = `#${here[0].id}`;
      a.textContent = `${target.title} on this page`;
      parts.push(a, ` now uses ${text}. `);
    } else {
      const url = new URL(target.page, SITE_ROOT);
      /** @type {[string, string][]} */
      const values = target.field === "*" && whole
        ? Object.entries(value).map(([field, v]) => [field, String(v)])
        : [[target.field, text]];
      for (const [field, v] of Object.entries(spec.also || {})) values.push([field, String(v)]);
      // sealed as every calculator link is, long values packed
      url.search = sealQuery([], await addressPairs(`${target.uid}.`, values));
      url.hash = `calc-${target.uid}`;
      const a = document.createElement("a");
      a.href = url.href;
      a.textContent = `Open ${target.title} with ${text}`;
      parts.push(a, ". ");
    }
  }
  note.replaceChildren(...parts);
  // what else on the page takes a result handed on (the army builder, a balance search's
  // roster scaled) hears of it, with the note to add to
  root.dispatchEvent(new CustomEvent(HANDED_ON, {
    bubbles: true, detail: { calculator: root.dataset.calculator, result: state(root).result, note },
  }));
  // with a link to another page still to follow, the note stays in view (on a phone the
  // filled widget would push it off-screen): its first link goes to the filled widget
  if (filled.length === spec.targets.length) filled[0]?.scrollIntoView({ block: "nearest" });
}
