// @ts-check
// Widget binding: a calculator's form, status line, result and rolls, wired to the worker.
import { Cancelled, RuntimeFailure, call, cancel, configure, keepRefining, onRuntime, retry, runtime, start,
  stopRefining } from "./client.js";
import { applyValues, atStart, collect, editInProgress, inputsKey } from "./form.js";
import { keepInAddress, linkEdited, openLink, shareable } from "./address.js";
import { scopedKey } from "./site.js";
import { showPin, togglePin } from "./compare.js";
import { handOn, addToRoster } from "./handon.js";
import { showSummary } from "./summary.js";
import { copyAccount, copyExact, downloadExact } from "./exact.js";
import { openLog, record } from "./sessionlog.js";
import { state } from "./state.js";

/** @typedef {import("./form.js").Widget} Widget */
/** @typedef {import("./protocol.js").Reply} Reply */

const BUSY_AFTER_MS = 150;
/** A typed number or text waits this long for the next keystroke before it is computed. */
const TYPING_PAUSE_MS = 250;
/** An unfinished or out-of-range number waits longer before its error is shown. */
const UNFINISHED_PAUSE_MS = 900;
/** Rolls kept per calculator; the list never shows more. */
export const HISTORY_KEEP = 50;
/** Stored history larger than this is damaged: it is dropped unread. */
const HISTORY_MAX_CHARS = 2_000_000;

/** @type {Set<Widget>} every widget bound on the current page */
const widgets = new Set();

// ---- status line ----------------------------------------------------------------

/** Set a widget's or app's status ("prerendered" | "loading" | "ready" | "error") and text. */
export function setStatus(/** @type {HTMLElement} */ root, /** @type {string} */ status, /** @type {string} */ text) {
  root.dataset.status = status;
  const el = root.querySelector(".calc-status");
  if (el) el.textContent = text;
  if (status !== "error") showRetry(root, false);
}

function megabytes(/** @type {number} */ bytes) {
  return (bytes / 1e6).toFixed(1);
}

/** How much of the runtime has downloaded, in whole percent (0 while the size is unknown). */
function downloaded() {
  return runtime.total > 0 ? Math.min(100, Math.floor((100 * runtime.loaded) / runtime.total)) : 0;
}

/** The loading line: what is happening, with download progress. */
function loadingText() {
  if (runtime.phase === "download" && runtime.total > 0) {
    const pct = downloaded();
    return `Downloading the calculator: ${megabytes(runtime.loaded)} of ${megabytes(runtime.total)} MB (${pct}%)`;
  }
  if (runtime.phase === "start" && runtime.total > 0) return "Starting the calculator…";
  return "Starting live calculation…";
}

/** The sticky summary's line while an edit waits for the runtime. */
function waitingNote() {
  const pct = runtime.phase === "download" && runtime.total > 0 ? ` (${downloaded()}%)` : "";
  return `Waiting for the calculator${pct}: your change is not worked out yet`;
}

/** Show the loading state (and progress bar) on a widget or app. */
export function showLoading(/** @type {HTMLElement} */ root) {
  root.dataset.progress = String(runtime.phase === "start" ? 100 : downloaded());
  let bar = /** @type {HTMLProgressElement | null} */ (root.querySelector(".calc-progress"));
  if (!bar) {
    bar = document.createElement("progress");
    bar.className = "calc-progress";
    bar.max = 100;
    bar.setAttribute("aria-label", "Calculator download");
    root.querySelector(".calc-status")?.after(bar);
  }
  bar.value = Number(root.dataset.progress);
  const waiting = root.dataset.pending ? "Your change will be worked out as soon as the calculator is ready. " : "";
  setStatus(root, "loading", waiting + loadingText());
  if (root.dataset.pending) showSummary(/** @type {Widget} */ (root), waitingNote());
}

export function hideProgress(/** @type {HTMLElement} */ root) {
  root.querySelector(".calc-progress")?.remove();
  delete root.dataset.progress;
}

/** @param {RuntimeFailure | Error | null | undefined} failure */
function failureText(failure) {
  const kind = failure instanceof RuntimeFailure ? failure.kind : "broken";
  const why = {
    offline: "this device seems to be offline. It will try again when the connection is back",
    http: "a file it needs could not be downloaded",
    truncated: "a file it needs did not download completely",
    stalled: "the download stopped",
    broken: "it failed to start",
    crashed: "it stopped unexpectedly",
    hung: "it stopped responding",
  }[kind];
  return `Live calculation is unavailable: ${why}. The results shown were worked out when the page was built.`;
}

/** Offer (or withdraw) the Retry button beside the status line. */
function showRetry(/** @type {HTMLElement} */ root, /** @type {boolean} */ shown) {
  let button = /** @type {HTMLButtonElement | null} */ (root.querySelector(".calc-retry"));
  if (!shown) {
    button?.remove();
    return;
  }
  if (button) return;
  button = document.createElement("button");
  button.type = "button";
  button.className = "md-button calc-retry";
  button.dataset.action = "retry";
  button.textContent = "Retry";
  button.addEventListener("click", () => retry());
  root.querySelector(".calc-status")?.after(button);
}

/** Put the plain "runtime unavailable" message (and Retry) on a widget or app. */
export function runtimeFailed(/** @type {HTMLElement} */ root, /** @type {unknown} */ err) {
  hideProgress(root);
  // the build's figures come back into view, said to be the build's (and, when the
  // inputs changed, greyed as being for the previous inputs)
  showWorking(/** @type {Widget} */ (root), false);
  if (root.dataset.pending) showSummary(/** @type {Widget} */ (root), "Not worked out: live calculation is unavailable");
  setStatus(root, "error", failureText(/** @type {Error} */ (err) || runtime.failure));
  root.classList.add("calc-offline");
  showRetry(root, true);
}

function clearErrors(/** @type {Widget} */ root) {
  delete root.dataset.errorField;
  for (const el of root.querySelectorAll(".calc-error")) {
    /** @type {HTMLElement} */ (el).hidden = true;
    el.textContent = "";
  }
  for (const el of root.querySelectorAll("[aria-invalid]")) el.removeAttribute("aria-invalid");
}

/** @param {Widget} root @param {{field: string, message: string}} error */
function showError(root, error) {
  // A nested field ("attacker.4", "members.2.cqb") is shown next to its top-level input.
  /** @param {string} name */
  const byName = (name) => root.querySelector(`.calc-field[data-field="${CSS.escape(name)}"]`);
  const field = byName(error.field) || byName(String(error.field).split(".")[0]);
  const target = /** @type {HTMLElement} */ (
    field ? field.querySelector(".calc-error") : root.querySelector(".calc-form-error"));
  // the core's message names the place in words ("Attacker's pool, the 2nd die: ..."):
  // an internal name ("attacker.2") is never shown
  target.textContent = error.message;
  target.hidden = false;
  if (field) field.querySelector("input, select")?.setAttribute("aria-invalid", "true");
  root.dataset.errorField = error.field;
  markStale(root);
  setStatus(root, "error", "Check the highlighted input; the result below is from the last valid inputs.");
  showSummary(root, "Check the highlighted input");
}

function markStale(/** @type {Widget} */ root) {
  root.querySelector(".calc-result")?.classList.add("calc-stale");
}

/** What a result being worked out says in place of the last setup's figures. */
const WORKING = "Working out this setup: the figures of the last one are set aside";

/** Hide (or show again) the last setup's figures while a new setup is worked out. */
function showWorking(/** @type {Widget} */ root, /** @type {boolean} */ working, text = WORKING) {
  const result = /** @type {HTMLElement | null} */ (root.querySelector(".calc-result"));
  if (!result) return;
  result.classList.toggle("calc-working", working);
  if (working) result.dataset.working = text;
  else delete result.dataset.working;
}

/** Show the Stop or Keep refining button of a whole fight (or neither). */
function refineButtons(/** @type {Widget} */ root, /** @type {"stop" | "keep" | null} */ which) {
  for (const [action, shown] of [["stop-refining", which === "stop"], ["keep-refining", which === "keep"]]) {
    const button = /** @type {HTMLElement | null} */ (root.querySelector(`[data-action="${action}"]`));
    if (button) button.hidden = !shown;
  }
}

function showBusy(/** @type {Widget} */ root, /** @type {boolean} */ busy) {
  const button = /** @type {HTMLElement | null} */ (root.querySelector('[data-action="cancel"]'));
  if (busy && root.dataset.status !== "loading") {
    root.dataset.busy = "true";
    root.setAttribute("aria-busy", "true");
    if (button) button.hidden = false;
    // an error shown for earlier inputs is not about the ones being worked out
    clearErrors(root);
    showWorking(root, true);
    setStatus(root, /** @type {string} */ (root.dataset.status), "Working out this setup…");
    showSummary(root, "Working out this setup…");
  } else if (!busy) {
    delete root.dataset.busy;
    root.removeAttribute("aria-busy");
    if (button) button.hidden = true;
  }
}

/** An input changed before the runtime could answer: the shown result is not current. */
function markPending(/** @type {Widget} */ root) {
  root.dataset.pending = "true";
  // a whole fight's figures are not shown for inputs they are not the answer to
  if (root.dataset.refines !== undefined) showWorking(root, true, "Waiting for the calculator to work out this setup");
  root.querySelector(".calc-result")?.classList.add("calc-pending");
  showSummary(root, waitingNote());
  if (runtime.status === "loading") showLoading(root);
}

function clearPending(/** @type {Widget} */ root) {
  delete root.dataset.pending;
  root.querySelector(".calc-result")?.classList.remove("calc-pending");
}

/** A pick list beside a text field (the published units beside a side's units): the item
 * picked is added to the end of the field's list, which is then worked out as if typed;
 * the pick list goes back to its prompt. */
function addPicked(/** @type {HTMLSelectElement} */ pick) {
  const box = /** @type {HTMLInputElement | null} */ (document.getElementById(pick.dataset.pickFor || ""));
  if (!box || !pick.value) return;
  const written = box.value.trim().replace(/[,;]\s*$/, "");
  box.value = written ? `${written}, ${pick.value}` : pick.value;
  pick.value = "";
  box.dispatchEvent(new Event("input", { bubbles: true }));
  box.dispatchEvent(new Event("change", { bubbles: true }));
}

// ---- computing --------------------------------------------------------------------

/** Work out the current inputs; changes while it runs (or while the runtime loads) are
 * coalesced: only the latest inputs are computed next. */
async function compute(/** @type {Widget} */ root) {
  const s = state(root);
  if (s.running) {
    // the same inputs again (one edit's input and change events both ask): the fight
    // being worked out is theirs, and goes on
    if (inputsKey(root) === s.computed && JSON.stringify(s.pinned) === s.computedPinned) return;
    s.dirty = true;
    // a whole fight being worked out gives way at once (the worker answers its request
    // with what it has, and works out these inputs next); figures on view that are being
    // replaced leave the view now
    stopRefining(/** @type {string} */ (root.dataset.uid));
    if (root.dataset.refining || root.dataset.busy) {
      delete root.dataset.refining;
      showWorking(root, true);
      refineButtons(root, null);
    }
    return;
  }
  s.running = s.busy = true;
  /** @type {Reply | undefined} */
  let reply;
  let busyTimer = 0;
  let last = "";
  try {
    do {
      s.dirty = false;
      if (runtime.status !== "ready") {
        if (runtime.status !== "failed") showLoading(root);
        await start();
        hideProgress(root);
      }
      const inputs = collect(root);
      // the same inputs (and pinned setup) again: one edit's input and change events (a
      // choice in a list, a box ticked) both ask, the second while the first is worked out
      const asked = JSON.stringify([inputs, s.pinned ?? null]);
      // (but a fight stopped for inputs changed and changed back is worked out again)
      if (asked === last && reply !== null && !reply?.stopped) break;
      last = asked;
      s.computed = JSON.stringify(inputs);
      s.computedPinned = JSON.stringify(s.pinned);
      // the page already shows the result for exactly these inputs (the build's, or the
      // last one worked out, kept on screen under an error for a mistyped value): nothing
      // to work out again (an engagement's takes seconds)
      if (s.computed === s.shown && !s.pinned) break;
      busyTimer = window.setTimeout(() => showBusy(root, true), BUSY_AFTER_MS);
      const pinned = s.pinned; // setup A: the worker renders both side by side
      const ticket = ++s.asked;
      reply = await call(pinned ? "compare" : "run", /** @type {string} */ (root.dataset.calculator),
        pinned ? { setup: inputs, pinned } : inputs, /** @type {string} */ (root.dataset.uid),
        (partial) => {
          // a whole fight's newer answer, for these inputs only (never a setup left behind)
          // (nor for inputs changed since, still waiting for the typing to pause)
          if (s.asked !== ticket || s.dirty || inputsKey(root) !== s.computed) return;
          clearTimeout(busyTimer);
          showPartial(root, partial);
        });
      clearTimeout(busyTimer);
    } while (s.dirty);
  } catch (err) {
    clearTimeout(busyTimer);
    s.running = false;
    s.busy = Boolean(s.timer);
    showBusy(root, false);
    if (err instanceof Cancelled) {
      markStale(root);
      showSummary(root, "Calculation cancelled");
      setStatus(root, "error", "Calculation cancelled. Change an input to calculate again.");
    } else if (err instanceof RuntimeFailure && (err.kind === "crashed" || err.kind === "hung")) {
      markStale(root);
      showSummary(root, "Not worked out: the calculator restarted");
      setStatus(root, "error", `The calculator ${err.kind === "hung" ? "stopped responding" : "stopped unexpectedly"}` +
        " and has been restarted. Change an input to work it out again.");
    } else {
      runtimeFailed(root, err);
    }
    return;
  }
  s.running = false;
  s.busy = Boolean(s.timer);
  showBusy(root, false);
  // a whole fight's answer to inputs changed since (typed, their pause not yet over) comes
  // set aside, as its newer answers did: its figures are not those of the setup on screen
  showWorking(root, root.dataset.refines !== undefined && inputsKey(root) !== s.computed);
  delete root.dataset.refining;
  clearErrors(root);
  clearPending(root);
  root.classList.remove("calc-offline");
  if (reply === null) {
    // stopped before its first answer: nothing of this setup to show
    refineButtons(root, null);
    showWorking(root, true);
    setStatus(root, "ready", "Stopped before a first answer. Change an input to work it out again.");
    showSummary(root, "Stopped before a first answer");
    return;
  }
  if (!reply) {
    // the inputs are those of the result on screen: the build's, or one worked out here
    const shown = /** @type {HTMLElement} */ (root.querySelector(".calc-result"));
    shown.classList.remove("calc-stale");
    const kept = s.shownReply;
    s.result = kept ? kept.result : JSON.parse(root.dataset.result || "{}");
    keepAccepted(root);
    showSummary(root);
    setStatus(root, "ready", kept ? "Worked out live in your browser." : "Ready: changes are worked out live.");
    // going live reports nothing; an edit back to the inputs on screen reports their result
    if (s.live) {
      root.dispatchEvent(new CustomEvent("calc:result",
        { detail: kept || { ok: true, result: s.result, html: shown.innerHTML } }));
    }
    s.live = true;
    return;
  }
  if (!reply.ok) {
    // the result on screen stays that of the last valid inputs (s.shown)
    showError(root, /** @type {{field: string, message: string}} */ (reply.error));
  } else {
    // a comparison of two setups is not the result of one set of inputs
    s.shown = s.pinned ? null : s.computed;
    s.shownReply = s.pinned ? null : reply;
    const result = /** @type {HTMLElement} */ (root.querySelector(".calc-result"));
    const chosen = readerChoices(result);
    result.innerHTML = /** @type {string} */ (reply.html); // built by calculators/render.py, which escapes every value
    keepReaderChoices(result, chosen);
    result.classList.remove("calc-stale");
    s.result = reply.result;
    keepAccepted(root);
    showSummary(root);
    const precision = reply.result && reply.result.precision;
    refineButtons(root, reply.stopped ? "keep" : null);
    setStatus(root, "ready", reply.stopped ? `Stopped: ${precision}. Keep refining to sharpen it.`
      : precision && precision !== "exact" ? `Worked out live in your browser: ${precision}.`
        : "Worked out live in your browser.");
  }
  s.live = true;
  root.dispatchEvent(new CustomEvent("calc:result", { detail: reply }));
}

/** Keep the inputs just worked out (the core accepted them) in the page address: a
 * refused value never enters it. */
function keepAccepted(/** @type {Widget} */ root) {
  const inputs = JSON.parse(state(root).computed || "{}");
  const start = atStart(root) && state(root).computed === inputsKey(root);
  keepInAddress(root, inputs, state(root).pinned ?? null, start);
}

/** A whole fight's newer answer, in place, while it is refined: its precision said, and
 * Stop offered. */
function showPartial(/** @type {Widget} */ root, /** @type {Reply} */ partial) {
  if (!partial.ok) return; // a refusal is the settled answer's to show
  showBusy(root, false);
  showWorking(root, false);
  root.dataset.refining = "true";
  const result = /** @type {HTMLElement} */ (root.querySelector(".calc-result"));
  const chosen = readerChoices(result);
  result.innerHTML = /** @type {string} */ (partial.html); // built by calculators/render.py, which escapes every value
  keepReaderChoices(result, chosen);
  result.classList.remove("calc-stale");
  state(root).result = partial.result;
  keepAccepted(root); // a first answer: the core took these inputs
  showSummary(root);
  refineButtons(root, "stop");
  setStatus(root, "ready", `Sharpening: ${partial.result.precision}…`);
}

/** Keep refining a whole fight stopped with Stop (from where it stopped). */
async function keepGoing(/** @type {Widget} */ root) {
  const s = state(root);
  if (s.running) return;
  refineButtons(root, null);
  s.running = true;
  const asked = ++s.asked;
  let reply;
  try {
    reply = await keepRefining(/** @type {string} */ (root.dataset.uid), (partial) => {
      if (s.asked === asked && !s.dirty && inputsKey(root) === s.computed) {
        showPartial(root, partial);
      }
    });
  } catch (err) {
    s.running = false;
    runtimeFailed(root, err);
    return;
  }
  s.running = false;
  delete root.dataset.refining;
  if (s.dirty || reply === null) {
    // changed meanwhile, or nothing kept to go on with: work the inputs out afresh
    s.shown = null;
    compute(root);
    return;
  }
  if (reply.ok) {
    showPartial(root, reply); // the settled (or stopped) answer, in place as every other
    delete root.dataset.refining;
    s.shownReply = reply;
    refineButtons(root, reply.stopped ? "keep" : null);
    setStatus(root, "ready", reply.stopped ? `Stopped: ${reply.result.precision}. Keep refining to sharpen it.`
      : `Worked out live in your browser: ${reply.result.precision}.`);
    root.dispatchEvent(new CustomEvent("calc:result", { detail: reply }));
  }
}

// ---- what the reader chose inside a result -----------------------------------------

/** A name for each table, chart view and exact-fractions switch of a result that is the
 * same in the next result of the same calculator: its chart, its kind, its value and its
 * place among its like. */
function choiceKeys(/** @type {HTMLElement} */ result) {
  /** @type {Map<string, HTMLDetailsElement | HTMLInputElement>} */
  const keys = new Map();
  /** @type {Map<string, number>} */
  const seen = new Map();
  for (const el of result.querySelectorAll("details, input")) {
    const chart = el.closest("[data-chart]")?.getAttribute("data-chart") || "";
    const kind = `${chart}|${el.tagName}|${el.className}|${el instanceof HTMLInputElement ? el.value : ""}`;
    const n = seen.get(kind) || 0;
    seen.set(kind, n + 1);
    keys.set(`${kind}|${n}`, /** @type {HTMLDetailsElement | HTMLInputElement} */ (el));
  }
  return keys;
}

/** What the reader opened or picked in a result: a table opened, the chart shown as
 * "exactly", the exact fractions shown. */
function readerChoices(/** @type {HTMLElement} */ result) {
  /** @type {Map<string, boolean>} */
  const chosen = new Map();
  for (const [key, el] of choiceKeys(result)) {
    chosen.set(key, el instanceof HTMLDetailsElement ? el.open : el.checked);
  }
  return chosen;
}

/** Give a new result the choices the reader made in the one it replaces: a recompute
 * (or the runtime going live) never closes a table or flips a chart back. */
function keepReaderChoices(/** @type {HTMLElement} */ result, /** @type {Map<string, boolean>} */ chosen) {
  for (const [key, el] of choiceKeys(result)) {
    const was = chosen.get(key);
    if (was === undefined) continue;
    if (el instanceof HTMLDetailsElement) el.open = was;
    else el.checked = was;
  }
}

// ---- roll history -----------------------------------------------------------------

function historyKey(/** @type {Widget} */ root) {
  return scopedKey(`calc-history:${root.dataset.calculator}`);
}

/** The kept rolls (newest first), at most {@link HISTORY_KEEP}; damaged data reads as none.
 * Rolls kept before storage names were scoped to the site's copy move to the scoped name. */
function loadHistory(/** @type {Widget} */ root) {
  try {
    const legacy = `calc-history:${root.dataset.calculator}`;
    const old = localStorage.getItem(legacy);
    if (old !== null && localStorage.getItem(historyKey(root)) === null) {
      localStorage.setItem(historyKey(root), old);
      localStorage.removeItem(legacy);
    }
  } catch { /* no room to move them: they stay where they were, untouched */ }
  try {
    const raw = localStorage.getItem(historyKey(root)) || "[]";
    if (raw.length > HISTORY_MAX_CHARS) return [];
    const items = JSON.parse(raw);
    return Array.isArray(items) ? items.filter((i) => typeof i === "string").slice(0, HISTORY_KEEP) : [];
  } catch {
    return [];
  }
}

function showHistory(/** @type {Widget} */ root) {
  const list = root.querySelector(".calc-history ol");
  if (!list) return;
  const items = loadHistory(root);
  list.replaceChildren(...items.map((text) => {
    const li = document.createElement("li");
    li.textContent = text;
    return li;
  }));
  const count = root.querySelector(".calc-history-count");
  if (count) count.textContent = String(items.length);
}

/** Say under the Roll button what became of a roll (the place the dice land). */
function rollNote(/** @type {Widget} */ root, /** @type {string} */ text) {
  const current = /** @type {HTMLElement} */ (root.querySelector(".calc-roll-current"));
  const note = document.createElement("p");
  note.className = "calc-roll-summary calc-roll-note";
  note.textContent = text;
  current.replaceChildren(note);
  current.scrollIntoView({ block: "nearest" });
}

async function roll(/** @type {Widget} */ root) {
  const s = state(root);
  // pressed before the calculator is up: said at the button, rolled once it is (a second
  // press meanwhile adds nothing: one roll waits)
  if (s.rollWaiting) return;
  if (runtime.status !== "ready") {
    s.rollWaiting = true;
    root.dataset.rollWaiting = "true";
    rollNote(root, runtime.status === "failed"
      ? "Trying to start the calculator again: the dice are rolled once it is up…"
      : "The dice will be rolled as soon as the calculator is ready…");
  }
  let reply;
  try {
    reply = await call("roll", /** @type {string} */ (root.dataset.calculator), collect(root),
      /** @type {string} */ (root.dataset.uid));
  } catch (err) {
    if (s.rollWaiting) rollNote(root, "Not rolled: live calculation is unavailable.");
    if (!(err instanceof Cancelled)) runtimeFailed(root, err);
    return;
  } finally {
    s.rollWaiting = false;
    delete root.dataset.rollWaiting;
  }
  clearErrors(root);
  if (!reply.ok) {
    root.querySelector(".calc-roll-current")?.replaceChildren();
    showError(root, /** @type {{field: string, message: string}} */ (reply.error));
    return;
  }
  const current = /** @type {HTMLElement} */ (root.querySelector(".calc-roll-current"));
  current.innerHTML = /** @type {string} */ (reply.html); // escaped by render.py
  current.scrollIntoView({ block: "nearest" }); // the dice land where the reader looks
  if (reply.log) record(reply.log);
  const items = [reply.result.summary, ...loadHistory(root)].slice(0, HISTORY_KEEP);
  try {
    localStorage.setItem(historyKey(root), JSON.stringify(items));
  } catch {
    /* storage full or blocked: the history is only shown for this page view */
  }
  showHistory(root);
  /** @type {HTMLDetailsElement} */ (root.querySelector(".calc-history")).open = true;
}

// ---- binding ----------------------------------------------------------------------

/** Copy the widget's link (the address: the inputs last worked out), saying when it does
 * not hold every input on screen. */
async function share(/** @type {Widget} */ root) {
  const { url, caveat } = await shareable(root);
  try {
    await navigator.clipboard.writeText(url.href);
    setStatus(root, /** @type {string} */ (root.dataset.status), `Link copied: it opens this calculator with these inputs.${caveat}`);
  } catch {
    setStatus(root, /** @type {string} */ (root.dataset.status), `Share this link: ${url.href}${caveat}`);
  }
}

/** Compute after an edit: at once for a finished edit, after a pause while typing. */
function scheduleCompute(/** @type {Widget} */ root, /** @type {Event} */ event) {
  const s = state(root);
  clearTimeout(s.timer);
  s.timer = 0;
  if (runtime.status !== "ready") markPending(root);
  // a whole fight takes a while: its figures leave the view as soon as the inputs they
  // answer are no longer those on screen (a quick calculator keeps them the instant it takes)
  else if (root.dataset.refines !== undefined && inputsKey(root) !== s.shown) {
    showWorking(root, true);
  }
  const target = event.target;
  const typed = target instanceof HTMLInputElement && (target.type === "number" || target.type === "text");
  if (event.type === "change" || !typed) {
    // the change event that ends a typed edit (leaving the box) repeats the last input
    const same = !s.running && runtime.status === "ready" && inputsKey(root) === s.computed;
    if (!same) compute(root);
    else s.busy = false;
    return;
  }
  const pause = editInProgress(target) ? UNFINISHED_PAUSE_MS : TYPING_PAUSE_MS;
  s.busy = true; // "busy" covers a computation that is waiting for the typing to pause
  s.timer = window.setTimeout(() => {
    s.timer = 0;
    compute(root);
  }, pause);
}

/** Bind one calculator widget (once). */
export async function bind(/** @type {Widget} */ root) {
  const s = state(root);
  if (s.bound) return;
  s.bound = true;
  s.path = location.pathname;
  configure(root);
  widgets.add(root);
  const initial = JSON.parse(/** @type {string} */ (root.dataset.initial));
  // the address as the page was opened (read before any widget of the page rewrites it)
  const link = await openLink(root, location.search);
  const fromUrl = link.values;
  if (fromUrl) applyValues(root, { ...initial, ...fromUrl });
  s.pinned = link.pinned;
  // the inputs the result on the page was worked out for when the site was built
  s.shown = !fromUrl && !s.pinned && atStart(root) ? inputsKey(root) : null;
  showPin(root);
  showSummary(root);
  // inputs from the address (a share link) or kept by the browser: the result on the
  // page is the build's, for other inputs, until the calculator works these out
  if (s.shown === null && runtime.status !== "ready") markPending(root);
  /** @param {Event} event */
  const onChange = (event) => {
    // A widget of a page being left (instant navigation: the address changes before the
    // old page's inputs are removed, and a blur can still fire) must not touch the new page.
    if (!root.isConnected || location.pathname !== s.path) return;
    const picked = /** @type {Element} */ (event.target);
    if (picked instanceof HTMLSelectElement && picked.classList.contains("calc-pick")) {
      if (event.type === "change") addPicked(picked);
      return;
    }
    const field = /** @type {HTMLElement | null} */ (/** @type {Element} */ (event.target).closest(".calc-field"));
    if (field) delete s.overrides[/** @type {string} */ (field.dataset.field)];
    linkEdited(root);
    scheduleCompute(root, event);
  };
  const form = /** @type {HTMLFormElement} */ (root.querySelector(".calc-form"));
  form.addEventListener("input", onChange);
  form.addEventListener("change", onChange);
  form.addEventListener("submit", (e) => e.preventDefault());
  root.addEventListener("click", async (event) => {
    const button = /** @type {HTMLButtonElement | null} */ (
      /** @type {Element} */ (event.target).closest("button[data-action]"));
    if (!button) return;
    const action = button.dataset.action;
    if (action === "roll") roll(root);
    if (action === "cancel") cancel();
    if (action === "stop-refining") stopRefining(/** @type {string} */ (root.dataset.uid));
    if (action === "keep-refining") keepGoing(root);
    if (action === "reset") {
      applyValues(root, initial);
      compute(root);
    }
    if (action === "share") await share(root);
    if (action === "copy-exact") {
      const said = await copyExact(button);
      if (said) setStatus(root, /** @type {string} */ (root.dataset.status), said);
    }
    if (action === "download-exact") downloadExact(button);
    if (action === "copy-account") {
      setStatus(root, /** @type {string} */ (root.dataset.status), await copyAccount(button));
    }
    if (action === "pin") {
      togglePin(root);
      compute(root);
    }
    if (action === "session-log") openLog(button);
    if (action === "hand-on") await handOn(root, button);
    if (action === "add-to-roster") await addToRoster(root, button);
    if (action === "clear-history") {
      localStorage.removeItem(historyKey(root));
      showHistory(root);
    }
  });
  showHistory(root);
  compute(root);
}

// The runtime's state, shown on every widget of the page.
onRuntime((event) => {
  for (const root of [...widgets]) {
    if (!root.isConnected) {
      widgets.delete(root);
      continue;
    }
    // loading: a widget waiting for the runtime, or one that showed a failure (Retry,
    // back online) shows the progress
    if (event === "progress" && runtime.status === "loading" &&
        (state(root).busy || root.classList.contains("calc-offline"))) {
      showLoading(root);
    }
    if (event === "failed") runtimeFailed(root, runtime.failure);
    if (event === "crashed" && !state(root).running) {
      setStatus(root, /** @type {string} */ (root.dataset.status),
        "The calculator stopped unexpectedly and has been restarted.");
    }
    // back after a failure (Retry, online again): work out what is shown, latest inputs
    if (event === "ready" && root.classList.contains("calc-offline")) {
      compute(root);
    }
  }
});
