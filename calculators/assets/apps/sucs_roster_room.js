// @ts-check
// The army builder's limits where the GM acts: a roster takes at most the core's number of
// lines (Add unit, Add a blank unit, Copy, an "Add to roster" link), the builder keeps at
// most the core's number of rosters (New, Duplicate), and nothing is added that this
// browser's storage has no room for (an import too): each refusal says why, and how much
// room is left. A roster read from storage or a file over a limit (an earlier version let
// Copy and New run past them) is kept, shown and exported whole; only additions are
// refused. The numbers are the core's (RULES, from the page's data block).
import { RULES, countOf } from "./sucs_roster_lib.js";

/** Room kept free for the site's other saved data (the calculators' histories, the
 *  session log, the rules engine's start-up note) and for edits of the rosters saved. */
export const RESERVE_CHARS = 64 * 1024;

/** The characters this site's storage holds now (keys and values; the browser counts
 *  both). @param {Storage | null} area */
export function usedChars(area) {
  if (!area) return 0;
  let used = 0;
  try {
    for (let i = 0; i < area.length; i += 1) {
      const key = area.key(i);
      if (key !== null) used += key.length + (area.getItem(key) || "").length;
    }
  } catch { /* blocked: saving says so */ }
  return used;
}

/** A number of characters as a reader sizes a file. @param {number} chars */
export function size(chars) {
  if (chars < 1024 * 1024) return `${Math.max(0, Math.round(chars / 1024)).toLocaleString("en")} kB`;
  return `${(chars / (1024 * 1024)).toFixed(1)} MB`;
}

/** Why `chars` more characters cannot be saved, or "" when there is room (the reserve
 *  kept); `refused` says what was not done. @param {Storage | null} area @param {number} chars
 *  @param {string} refused */
export function roomProblem(area, chars, refused) {
  if (!area) return "";
  const left = RULES.storage_chars - usedChars(area);
  if (chars <= left - RESERVE_CHARS) return "";
  return `${refused}: this browser's storage for the site is nearly full. About ${size(Math.max(0, left))} `
    + `is left, and this needs about ${size(chars)}, with ${size(RESERVE_CHARS)} kept free for edits. `
    + "Export all rosters to keep a copy as a file, then delete rosters or kept copies you no longer need.";
}

/** Why a line cannot be added to roster `r`, or "". @param {import("./sucs_roster_store.js").Roster} r */
export function lineLimitProblem(r) {
  if (r.units.length < RULES.max_units) return "";
  const over = r.units.length > RULES.max_units ? ` (it has ${r.units.length}: an earlier version let it grow past that; it is kept as it is)` : "";
  return `No line was added: “${r.name}” has ${countOf(r.units.length, "line")}, and a roster takes at most ${RULES.max_units}${over}. `
    + "Raise a line's count instead, or remove a line first.";
}

/** Why a roster cannot be added to the `count` the builder keeps, or "". @param {number} count */
export function rosterLimitProblem(count) {
  if (count < RULES.max_rosters) return "";
  return `No roster was added: you have ${countOf(count, "roster")}, and the builder keeps at most ${RULES.max_rosters}. `
    + "Export the ones you do not use now, then delete them here.";
}

/** The characters a saved roster takes (its key and its saved text, near enough).
 *  @param {unknown} roster */
export function savedChars(roster) {
  return JSON.stringify(roster).length + 120;
}
