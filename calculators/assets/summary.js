// @ts-check
// The compact result summary that stays in view on a phone while the inputs are edited
// (calculators.css shows it, sticky at the bottom of the screen, only on narrow screens
// while a field has focus). It repeats the headline figures as text, so it is hidden
// from assistive technology: the result itself is announced.

/** @typedef {import("./form.js").Widget} Widget */

/** Headline figures shown in the summary at most. */
const SHOWN = 3;

/** Copy the result's headline figures into the widget's sticky summary; with a ``note``
 * (the figures shown are not for the inputs being edited: waiting for the calculator,
 * working it out, an input to check), the note alone, so that an old figure is never
 * read as the answer to a new input. */
export function showSummary(/** @type {Widget} */ root, /** @type {string} */ note = "") {
  const box = root.querySelector(".calc-sticky");
  if (!box) return;
  if (note) {
    const item = document.createElement("span");
    item.className = "calc-sticky-item calc-sticky-note";
    item.textContent = note;
    box.replaceChildren(item);
    return;
  }
  const pairs = [...root.querySelectorAll(".calc-result > .calc-headline > div")].slice(0, SHOWN);
  box.replaceChildren(...pairs.map((pair) => {
    const item = document.createElement("span");
    item.className = "calc-sticky-item";
    const label = document.createElement("span");
    label.className = "calc-sticky-label";
    label.textContent = pair.querySelector("dt")?.textContent || "";
    const value = document.createElement("strong");
    value.textContent = pair.querySelector("dd")?.textContent || "";
    item.append(label, " ", value);
    return item;
  }));
}
