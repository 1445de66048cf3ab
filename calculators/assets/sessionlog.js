// @ts-check
// The session log: every real roll on any page of the site (calculator widgets and the
// apps that roll through the same bridge), kept in this browser across pages and
// reloads, shown in a dialog, exported as Markdown or JSON, cleared on request.
// Entries come from Python (calculators/render.py roll_record): the calculator's title,
// its inputs in words, the dice and the outcome; this module adds the time and page.
// Everything is shown as text, never as markup.
import { download, scopedKey } from "./site.js";

/** Rolls kept; older ones drop off the end. */
export const LOG_KEEP = 500;
/** Stored text larger than this is damaged (500 rolls are far smaller): dropped unread. */
const LOG_MAX_CHARS = 1_500_000;

/**
 * @typedef {object} LogEntry
 * @property {string} time        ISO 8601, when the roll was made
 * @property {string} page        the page's path
 * @property {string} calculator  e.g. "heroic.morale"
 * @property {string} title       the calculator's title
 * @property {[string, string][]} inputs  [label, value in words]
 * @property {{die: string, face: string}[]} dice
 * @property {string} outcome     the one-line verdict
 * @property {string[]} account   a played fight, round by round (else empty)
 */

function key() {
  return scopedKey("session-log");
}

const text = (/** @type {unknown} */ v) => (typeof v === "string" ? v : v === null || v === undefined ? "" : String(v));

/** One stored entry as a clean LogEntry, or null if it is not one. @param {any} e */
function clean(e) {
  if (!e || typeof e !== "object" || typeof e.outcome !== "string") return null;
  return {
    time: text(e.time), page: text(e.page), calculator: text(e.calculator), title: text(e.title),
    inputs: Array.isArray(e.inputs)
      ? e.inputs.filter(Array.isArray).map((/** @type {unknown[]} */ p) => /** @type {[string, string]} */ ([text(p[0]), text(p[1])]))
      : [],
    dice: Array.isArray(e.dice) ? e.dice.map((/** @type {any} */ d) => ({ die: text(d?.die), face: text(d?.face) })) : [],
    outcome: e.outcome,
    account: Array.isArray(e.account) ? e.account.map(text) : [],
  };
}

/** The kept rolls, newest first; damaged or oversized data reads as none.
 * @returns {LogEntry[]} */
export function loadLog() {
  try {
    const raw = localStorage.getItem(key()) || "[]";
    if (raw.length > LOG_MAX_CHARS) return [];
    const items = JSON.parse(raw);
    if (!Array.isArray(items)) return [];
    return /** @type {LogEntry[]} */ (items.slice(0, LOG_KEEP).map(clean).filter(Boolean));
  } catch {
    return [];
  }
}

/** @param {LogEntry[]} entries */
function save(entries) {
  for (let keep = entries.length; keep > 0; keep = Math.floor(keep / 2)) {
    try {
      localStorage.setItem(key(), JSON.stringify(entries.slice(0, keep)));
      return;
    } catch {
      /* storage full: keep fewer of the oldest rolls */
    }
  }
}

/** Add a roll (the ``log`` of a roll reply) at the top of the log.
 * @param {any} entry */
export function record(entry) {
  const item = clean({ ...entry, time: new Date().toISOString(), page: location.pathname });
  if (!item) return;
  save([item, ...loadLog()].slice(0, LOG_KEEP));
  window.dispatchEvent(new CustomEvent("calc:session-log"));
}

export function clearLog() {
  try {
    localStorage.removeItem(key());
  } catch {
    /* storage blocked: nothing was kept */
  }
  window.dispatchEvent(new CustomEvent("calc:session-log"));
}

function clock(/** @type {string} */ iso) {
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? iso : d.toLocaleString(undefined, { dateStyle: "medium", timeStyle: "medium" });
}

/** Markdown that pastes into session notes: oldest roll first.
 * @param {LogEntry[]} entries newest first, as kept */
export function toMarkdown(entries) {
  const md = (/** @type {string} */ s) => s.replace(/([\\`*_[\]<>#|])/g, "\\$1");
  const lines = ["# Session log", "", `${entries.length} roll${entries.length === 1 ? "" : "s"}, oldest first.`, ""];
  for (const e of [...entries].reverse()) {
    lines.push(`## ${md(clock(e.time))}: ${md(e.title)}`, "");
    if (e.inputs.length) lines.push(`- Inputs: ${e.inputs.map(([k, v]) => `${md(k)}: ${md(v)}`).join("; ")}`);
    if (e.dice.length) lines.push(`- Dice: ${e.dice.map((d) => `${md(d.die)} ${md(d.face)}`).join(", ")}`);
    lines.push(`- Outcome: **${md(e.outcome)}**`);
    if (e.account.length) lines.push("", ...e.account.map((line, i) => `${i + 1}. ${md(line)}`));
    lines.push("");
  }
  return lines.join("\n");
}

/** @param {LogEntry[]} entries */
export function toJSON(entries) {
  return JSON.stringify({ format: "tcr-session-log", version: 1, rolls: [...entries].reverse() }, null, 2);
}


// ---- the dialog ---------------------------------------------------------------------

/** @type {HTMLDialogElement | null} */
let dialog = null;
/** @type {HTMLElement | null} */
let opener = null;

function el(/** @type {string} */ tag, /** @type {string} */ className = "", /** @type {string} */ content = "") {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (content) node.textContent = content;
  return node;
}

function button(/** @type {string} */ action, /** @type {string} */ label, primary = false) {
  const b = /** @type {HTMLButtonElement} */ (el("button", `md-button${primary ? " md-button--primary" : ""}`, label));
  b.type = "button";
  b.dataset.log = action;
  return b;
}

function renderList() {
  if (!dialog) return;
  const entries = loadLog();
  const list = /** @type {HTMLElement} */ (dialog.querySelector(".calc-log-list"));
  const count = /** @type {HTMLElement} */ (dialog.querySelector(".calc-log-count"));
  count.textContent = entries.length ? `${entries.length} roll${entries.length === 1 ? "" : "s"}, newest first.`
    : "No rolls yet: every roll on any page of this site is kept here, in this browser.";
  list.replaceChildren(...entries.map((e) => {
    const li = el("li", "calc-log-entry");
    const head = el("p", "calc-log-head");
    const time = /** @type {HTMLTimeElement} */ (el("time", "", clock(e.time)));
    time.dateTime = e.time;
    head.append(time, " · ", el("strong", "", e.title));
    li.append(head, el("p", "calc-log-outcome", e.outcome));
    if (e.account.length) {
      const rounds = el("ol", "calc-log-account");
      rounds.append(...e.account.map((line) => el("li", "", line)));
      li.append(rounds);
    }
    if (e.dice.length) li.append(el("p", "calc-log-dice", `Dice: ${e.dice.map((d) => `${d.die} ${d.face}`).join(", ")}`));
    if (e.inputs.length) li.append(el("p", "calc-log-inputs", e.inputs.map(([k, v]) => `${k}: ${v}`).join("; ")));
    return li;
  }));
  for (const b of dialog.querySelectorAll("[data-log=markdown], [data-log=json], [data-log=clear]")) {
    /** @type {HTMLButtonElement} */ (b).disabled = entries.length === 0;
  }
  const clear = /** @type {HTMLButtonElement} */ (dialog.querySelector("[data-log=clear]"));
  delete clear.dataset.confirm;
  clear.textContent = "Clear the log";
}

function build() {
  const d = /** @type {HTMLDialogElement} */ (el("dialog", "calc-log md-typeset"));
  d.setAttribute("aria-labelledby", "calc-log-title");
  const title = el("h2", "calc-log-title", "Session log");
  title.id = "calc-log-title";
  const actions = el("div", "calc-log-actions");
  actions.append(button("markdown", "Download Markdown", true), button("json", "Download JSON"),
    button("clear", "Clear the log"), button("close", "Close"));
  d.append(title, el("p", "calc-log-count"), actions, el("p", "calc-log-note"), el("ol", "calc-log-list"));
  d.addEventListener("click", (event) => {
    const b = /** @type {HTMLButtonElement | null} */ (/** @type {Element} */ (event.target).closest("button[data-log]"));
    if (!b) return;
    const note = /** @type {HTMLElement} */ (d.querySelector(".calc-log-note"));
    const stamp = new Date().toISOString().slice(0, 10);
    if (b.dataset.log === "close") d.close();
    if (b.dataset.log === "markdown") download(`session-log-${stamp}.md`, toMarkdown(loadLog()), "text/markdown");
    if (b.dataset.log === "json") download(`session-log-${stamp}.json`, toJSON(loadLog()));
    if (b.dataset.log === "clear") {
      if (!b.dataset.confirm) {  // two presses: a GM's notes are not lost to a stray tap
        b.dataset.confirm = "true";
        b.textContent = "Press again to clear every roll";
        return;
      }
      clearLog();
      note.textContent = "The log is cleared.";
    }
  });
  d.addEventListener("close", () => opener?.focus());
  return d;
}

/** Open the log's dialog; focus returns to ``from`` when it closes. */
export function openLog(/** @type {HTMLElement | null} */ from) {
  if (!dialog || !dialog.isConnected) {
    dialog = build();
    document.body.append(dialog);
  }
  opener = from;
  /** @type {HTMLElement} */ (dialog.querySelector(".calc-log-note")).textContent = "";
  renderList();
  if (!dialog.open) dialog.showModal();
}

// another tab or another widget added a roll: an open dialog follows
window.addEventListener("calc:session-log", () => { if (dialog?.open) renderList(); });
window.addEventListener("storage", (event) => {
  if (event.key === key() && dialog?.open) renderList();
});
