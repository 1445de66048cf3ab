// @ts-check
// The army builder's first storage format kept every roster in one localStorage key,
// "sucs-rosters:v1" (not scoped to the site's base path), with damaged parts kept under
// "sucs-rosters:v1:damaged…". On first load this module moves it to one key per roster
// (sucs_roster_store.js). Nothing is lost: a roster is written only where no roster of
// that id exists yet; the old key is removed only after every roster in it was written
// and any damaged text was copied aside whole; with no room it stays where it was, is
// listed for download, and the move is tried again at the next visit.
import { guardedParse, isObj } from "./storage_kit.js";
import { nameInText, shapeProblem } from "./sucs_roster_lib.js";

export const LEGACY_KEY = "sucs-rosters:v1";
const LEGACY_KEPT = `${LEGACY_KEY}:damaged`;
const ENTRY_START = /\{\s*"id"\s*:\s*"/g;
const ID = /^[A-Za-z0-9_-]{1,64}$/;

/** Where the JSON value starting at `from` ends, looking no further than `to`; -1 if it
 *  does not end there. One pass over the segment. @param {string} raw @param {number} from @param {number} to */
function valueEnd(raw, from, to) {
  let depth = 0;
  let inString = false;
  for (let i = from; i < to; i += 1) {
    const c = raw.charCodeAt(i);
    if (inString) {
      if (c === 92) i += 1;
      else if (c === 34) inString = false;
    } else if (c === 34) inString = true;
    else if (c === 123 || c === 91) depth += 1;
    else if ((c === 125 || c === 93) && --depth === 0) return i + 1;
  }
  return -1;
}

/** The entries of a store whose text is not valid JSON: each entry is looked for only
 *  between its start and the next one, so the whole text is read a bounded number of
 *  times (linear), however it is damaged.
 *  @param {string} raw @param {number} maxDepth */
export function salvage(raw, maxDepth) {
  const starts = [...raw.matchAll(ENTRY_START)].map((m) => m.index || 0);
  /** @type {unknown[]} */
  const found = [];
  /** @type {string[]} names of the damaged ones */
  const bad = [];
  starts.forEach((start, k) => {
    const limit = k + 1 < starts.length ? starts[k + 1] : raw.length;
    const end = valueEnd(raw, start, limit);
    const parsed = end > 0 ? guardedParse(raw.slice(start, end), { maxChars: limit - start, maxDepth }) : null;
    if (parsed && parsed.ok) found.push(parsed.value);
    else bad.push(nameInText(raw.slice(start, Math.min(limit, start + 2000))));
  });
  return { found, bad };
}

/**
 * Read the old store's text: its good entries and what was wrong with the rest.
 * @param {string} raw
 * @param {{maxChars: number, maxDepth: number, maxUnits: number, maxName: number}} limits
 */
export function analyzeLegacy(raw, limits) {
  /** @type {Array<{id: string, rev: number, roster: any}>} */
  const entries = [];
  /** @type {Array<{label: string, reason: string}>} */
  const bad = [];
  let whole = "";
  let active = null;
  /** @type {unknown[]} */
  let candidates = [];
  const parsed = guardedParse(raw, { maxChars: Infinity, maxDepth: limits.maxDepth + 3 });
  if (!parsed.ok) {
    whole = `the saved data is damaged (${parsed.reason})`;
    // each entry is read on its own, depth-checked: safe (and linear) whatever the damage
    const { found, bad: names } = salvage(raw, limits.maxDepth + 1);
    candidates = found;
    names.forEach((name) => bad.push({ label: name ? `“${name.slice(0, limits.maxName)}”` : "a roster", reason: "its saved text is damaged" }));
  } else if (!isObj(parsed.value)) {
    whole = "the saved data is not a set of rosters";
  } else {
    const data = parsed.value;
    if (data.schema !== "sucs-roster-store" || data.version !== 1) {
      const version = typeof data.version === "number" ? ` (version ${data.version})` : "";
      whole = `the saved data is in a format this page does not know${version}`;
    }
    if (Array.isArray(data.rosters)) candidates = data.rosters;
    else if (!whole) whole = "the saved data has no list of rosters";
    active = typeof data.active === "string" ? data.active : null;
  }
  const ids = new Set();
  candidates.forEach((value, index) => {
    const roster = isObj(value) ? value.roster : undefined;
    const text = JSON.stringify(value) || "";
    const problem = text.length > limits.maxChars ? `it is ${text.length} characters long, far more than a roster takes`
      : shapeProblem(roster, limits);
    if (problem || !isObj(value)) {
      const name = isObj(roster) && typeof roster.name === "string" ? roster.name : nameInText(text.slice(0, 2000));
      bad.push({ label: `roster ${index + 1}${name ? ` “${name.slice(0, limits.maxName)}”` : ""}`, reason: problem || "it is damaged" });
      return;
    }
    // a missing or repeated id gets one derived from the position, the same at every read
    let id = typeof value.id === "string" && ID.test(value.id) ? value.id : `recovered-${index}`;
    while (ids.has(id)) id = `${id}x`.slice(-64);
    ids.add(id);
    const rev = Number.isSafeInteger(value.rev) && value.rev >= 0 ? value.rev : 0;
    entries.push({ id, rev, roster });
  });
  return { entries, bad, whole, active };
}

/**
 * Move the old store (if any) to one key per roster.
 * @param {Storage} area
 * @param {import("./storage_kit.js").KeptCopies} kept where damaged text is copied
 * @param {string} entryPrefix
 * @param {string} activeKey
 * @param {{maxChars: number, maxDepth: number, maxUnits: number, maxName: number}} limits
 * @returns {{damage: Array<{label: string, reason: string, kept: boolean}>, error: string | null, stuck: string | null}}
 */
export function migrateLegacy(area, kept, entryPrefix, activeKey, limits) {
  /** @type {{damage: Array<{label: string, reason: string, kept: boolean}>, error: string | null, stuck: string | null}} */
  const out = { damage: [], error: null, stuck: null };
  try {
    // copies kept aside by the old version move under this site's own names
    const oldKept = [];
    for (let i = 0; i < area.length; i += 1) {
      const key = area.key(i);
      if (key && key.startsWith(LEGACY_KEPT)) oldKept.push(key);
    }
    for (const key of oldKept) kept.move(key, area.getItem(key) || "");
    const raw = area.getItem(LEGACY_KEY);
    if (raw === null) return out;
    const found = analyzeLegacy(raw, limits);
    let complete = true;
    found.entries.forEach(({ id, rev, roster }, order) => {
      if (area.getItem(entryPrefix + id) !== null) return; // already moved at an earlier visit
      try {
        area.setItem(entryPrefix + id, JSON.stringify({ id, rev, order, roster }));
      } catch {
        complete = false;
      }
    });
    if (found.active && complete) {
      try { area.setItem(activeKey, found.active); } catch { /* the first roster is shown */ }
    }
    const damaged = Boolean(found.whole || found.bad.length);
    let copied = true;
    if (damaged) {
      copied = complete && kept.keep(raw) !== null;
      const parts = found.whole ? [{ label: "all saved rosters, as they were", reason: found.whole }] : [];
      out.damage = [...parts, ...found.bad].map((p) => ({ ...p, kept: copied }));
    }
    if (complete && copied) area.removeItem(LEGACY_KEY);
    else if (damaged) out.stuck = LEGACY_KEY;
    if (!complete) out.error = "full";
  } catch {
    out.error = "blocked";
  }
  return out;
}
