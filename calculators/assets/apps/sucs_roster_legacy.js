// @ts-check
// The army builder's first storage format kept every roster in one localStorage key,
// "sucs-rosters:v1" (not scoped to the site's base path), with damaged parts kept under
// "sucs-rosters:v1:damaged…". On first load this module moves it to one key per roster
// (sucs_roster_store.js), whatever its size. Nothing is lost and nothing comes back:
// - a sound old store moves roster by roster, and after each round of writes the old key
//   is written again without the rosters now saved under their own keys, so the move
//   never needs room for two copies, and a roster deleted after its move is nowhere to
//   come back from; the old key goes once it is empty;
// - a damaged one is copied aside whole before it goes (its good rosters move first);
//   until it can go, the ids already moved are listed under a key of their own, so a
//   later visit moves only the others;
// - what could not be moved (no room) stays where it was, untouched, is reported by name
//   with the reason, and the move is tried again at the next visit or once room is freed.
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
  /** @type {Array<{id: string, rev: number, order: number, index: number, roster: any}>} */
  const entries = [];
  /** @type {Record<string, any> | null} the old store, when it is sound JSON of the known format */
  let data = null;
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
    const value = parsed.value;
    if (value.schema !== "sucs-roster-store" || value.version !== 1) {
      const version = typeof value.version === "number" ? ` (version ${value.version})` : "";
      whole = `the saved data is in a format this page does not know${version}`;
    }
    if (Array.isArray(value.rosters)) candidates = value.rosters;
    else if (!whole) whole = "the saved data has no list of rosters";
    active = typeof value.active === "string" ? value.active : null;
    if (!whole) data = value;
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
    // a store written again during a move keeps each roster's place in the list
    const order = typeof value.order === "number" && Number.isFinite(value.order) ? value.order : index;
    entries.push({ id, rev, order, index, roster });
  });
  return { entries, bad, whole, active, data };
}

/**
 * @typedef {{damage: Array<{label: string, reason: string, kept: boolean}>, error: string | null, stuck: string | null,
 *   unmoved: string[], total: number}} Moved
 */

/** @param {Storage} area @param {string} key @returns {Set<string>} */
function movedIds(area, key) {
  const parsed = guardedParse(area.getItem(key), { maxChars: 10_000_000, maxDepth: 2 });
  return new Set(parsed.ok && Array.isArray(parsed.value) ? parsed.value.filter((v) => typeof v === "string") : []);
}

/**
 * Move the old store (if any) to one key per roster.
 * @param {Storage} area
 * @param {import("./storage_kit.js").KeptCopies} kept where damaged text is copied
 * @param {string} entryPrefix
 * @param {string} activeKey
 * @param {string} movedKey where the ids moved from a damaged old store still in place are listed
 * @param {{maxChars: number, maxDepth: number, maxUnits: number, maxName: number}} limits
 * @returns {Moved} the damage found, the rosters not moved (their names), how many the old store held
 */
export function migrateLegacy(area, kept, entryPrefix, activeKey, movedKey, limits) {
  /** @type {Moved} */
  const out = { damage: [], error: null, stuck: null, unmoved: [], total: 0 };
  try {
    // copies kept aside by the old version move under this site's own names
    const oldKept = [];
    for (let i = 0; i < area.length; i += 1) {
      const key = area.key(i);
      if (key && key.startsWith(LEGACY_KEPT)) oldKept.push(key);
    }
    for (const key of oldKept) kept.move(key, area.getItem(key) || "");
    const raw = area.getItem(LEGACY_KEY);
    if (raw === null) {
      area.removeItem(movedKey);
      return out;
    }
    const found = analyzeLegacy(raw, limits);
    out.total = found.entries.length;
    const moved = movedIds(area, movedKey);
    // a roster whose key exists was moved at an earlier visit (and may have been edited since)
    const waiting = found.entries.filter(({ id }) => !moved.has(id) && area.getItem(entryPrefix + id) === null);
    /** @param {typeof waiting[number]} e */
    const write = ({ id, rev, order, roster }) => {
      try {
        area.setItem(entryPrefix + id, JSON.stringify({ id, rev, order, roster }));
        return true;
      } catch {
        return false;
      }
    };
    let left = waiting;
    const damaged = Boolean(found.whole || found.bad.length);
    if (found.data && !damaged) {
      // round by round: write what fits, then the old key without what moved (room freed)
      const all = /** @type {unknown[]} */ (found.data.rosters);
      let inOld = found.entries.length;
      /** @param {typeof waiting} rest */
      const keepOnly = (rest) => {
        const rosters = rest.map((e) => ({ ...(/** @type {object} */ (all[e.index])), id: e.id, order: e.order }));
        area.setItem(LEGACY_KEY, JSON.stringify({ ...found.data, rosters }));
        inOld = rest.length;
      };
      if (left.length && left.length < inOld) keepOnly(left); // a move cut short at an earlier visit
      while (left.length) {
        const failed = left.filter((e) => !write(e));
        if (failed.length === left.length) break;
        left = failed;
        if (left.length) keepOnly(left);
      }
      if (!left.length) area.removeItem(LEGACY_KEY);
    } else {
      left = left.filter((e) => !write(e));
      const now = [...moved, ...waiting.filter((e) => !left.includes(e)).map((e) => e.id)];
      if (now.length > moved.size) {
        try { area.setItem(movedKey, JSON.stringify(now)); } catch { /* each moved key is found at the next visit */ }
      }
      let copied = true;
      if (damaged) {
        copied = !left.length && kept.keep(raw) !== null;
        const parts = found.whole ? [{ label: "all saved rosters, as they were", reason: found.whole }] : [];
        out.damage = [...parts, ...found.bad].map((p) => ({ ...p, kept: copied }));
      }
      if (!left.length && copied) {
        area.removeItem(LEGACY_KEY);
        area.removeItem(movedKey);
      } else if (damaged) out.stuck = LEGACY_KEY;
    }
    if (found.active && !left.some((e) => e.id === found.active) && area.getItem(activeKey) === null) {
      try { area.setItem(activeKey, found.active); } catch { /* the first roster is shown */ }
    }
    out.unmoved = left.map((e) => String(e.roster.name).slice(0, limits.maxName));
    if (left.length) out.error = "full";
  } catch {
    out.error = "blocked";
  }
  return out;
}
