// @ts-check
// Exact fractions too long for a line (calculators/render.py writes their size and a Copy
// button; the whole fraction is in the cell's data-exact): Copy puts one on the
// clipboard, the table's download link saves every fraction of the table as CSV. A
// played fight's round-by-round account is copied as text the same way.

import { download } from "./site.js";

/** The text a button shows for a moment after it acted, then its own again. */
function flash(/** @type {HTMLButtonElement} */ button, /** @type {string} */ text) {
  const own = button.dataset.label || button.textContent || "";
  button.dataset.label = own;
  button.textContent = text;
  window.setTimeout(() => { button.textContent = own; }, 2000);
}

/** Copy the exact fraction of the cell holding ``button``; what happened, in words. */
export async function copyExact(/** @type {HTMLButtonElement} */ button) {
  const value = button.closest("td")?.dataset.exact;
  if (!value) return "";
  try {
    await navigator.clipboard.writeText(value);
    button.dataset.copied = "yes";
    flash(button, "Copied");
    return `Exact fraction copied (${(value.length - 1).toLocaleString("en")} digits).`;
  } catch {
    // no clipboard (refused, or not a secure page): the table's download still works
    button.dataset.copied = "no";
    flash(button, "Not copied");
    return "The browser did not allow copying: download the table's exact fractions instead.";
  }
}

/** Copy a played fight's account (its text is on ``button``); what happened, in words. */
export async function copyAccount(/** @type {HTMLButtonElement} */ button) {
  const text = button.dataset.text || "";
  try {
    await navigator.clipboard.writeText(text);
    button.dataset.copied = "yes";
    flash(button, "Copied");
    return `The fight's account copied (${text.split("\n").length - 1} lines).`;
  } catch {
    button.dataset.copied = "no";
    flash(button, "Not copied");
    return "The browser did not allow copying: the account is also kept in the session log.";
  }
}

/** A CSV field: quoted when it holds a comma, a quote or a line break. */
function field(/** @type {string} */ text) {
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

/** Download every exact fraction of the table above ``button`` as a CSV file (the
 * table's outcome heading and "Exact chance", then one row per outcome). */
export function downloadExact(/** @type {HTMLButtonElement} */ button) {
  const details = button.closest("details");
  const table = details?.querySelector("table.calc-odds");
  if (!details || !table) return;
  const head = table.querySelector("thead th")?.textContent?.trim() || "Outcome";
  const lines = [`${field(head)},Exact chance`];
  for (const row of table.querySelectorAll("tbody tr")) {
    const outcome = row.querySelector("th")?.textContent?.trim() || "";
    const exact = /** @type {HTMLElement | null} */ (row.querySelector("td[data-exact]"))?.dataset.exact || "";
    lines.push(`${field(outcome)},${field(exact)}`);
  }
  const chart = button.closest("[data-chart]")?.getAttribute("data-chart") || "odds";
  const calculator = button.closest("[data-calculator]")?.getAttribute("data-calculator") || "calculator";
  download(`${calculator}-${chart}-exact.csv`, lines.join("\r\n") + "\r\n", "text/csv");
}
