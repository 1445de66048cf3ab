// @ts-check
// The compact result summary that stays in view on a phone while the inputs are edited
// (calculators.css shows it, sticky at the bottom of the screen, only on narrow screens
// while a field has focus). It repeats the headline figures as text, so it is hidden
// from assistive technology: the result itself is announced.

/** @typedef {import("./form.js").Widget} Widget */

/** Headline figures shown in the summary at most. */
const SHOWN = 3;

/** Copy the result's headline figures into the widget's sticky summary. */
export function showSummary(/** @type {Widget} */ root) {
  const box = root.querySelector(".calc-sticky");
  if (!box) return;
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
