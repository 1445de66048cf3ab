// @ts-check
// Helpers of the SUCS army builder (sucs_roster.js): text-only DOM building, comparing
// rosters, the in-page question dialog, share-link encoding and the unit cards. Saved
// rosters are handled by sucs_roster_store.js. Limits and rule values (names' length,
// counts, the target number of each quality…) are the rules core's, rendered into the
// page at build time and set here by configure(); none is retyped in this file.
import { guardedParse, isObj, ask } from "./storage_kit.js";
import { pack, unpack } from "../sharelink.js";

export { download } from "./storage_kit.js";
export const HASH_KEY = "roster=";
/** "?add=": a unit to add to the open roster (a published unit's id, or a unit packed
 *  like a share link), the address the cost builder and the unit lists link to. */
export const ADD_PARAM = "add";

/**
 * The core's numbers the builder needs (rules_core.sucs.calc_roster.roster_app_data, in
 * the page's data block): the file format, the limits, the target number of each quality.
 * @typedef {{format: string, collection: string, version: number, starter_limit: number,
 *   max_name: number, max_units: number, max_count: number, max_limit: number,
 *   max_file_chars: number, max_roster_chars: number, max_depth: number, max_rosters: number,
 *   battle_units: number, max_targets: number, read_units: number, read_rosters: number,
 *   storage_chars: number,
 *   target_number: Record<string, number>}} Rules
 */
/** @type {Rules} */
export const RULES = /** @type {any} */ ({});

/** @param {Rules} rules */
export function configure(rules) {
  Object.assign(RULES, rules);
}

/** The store's limits, from the core's. */
export function limits() {
  return { maxChars: RULES.max_file_chars, maxDepth: RULES.max_depth, maxUnits: RULES.read_units, maxName: RULES.max_name };
}

/** Enough shape to show a roster without errors; the rules core checks it fully later.
 *  @param {unknown} r @param {{maxUnits: number, maxName: number}} lim @returns {string | null} */
export function shapeProblem(r, lim) {
  if (!isObj(r)) return "it is not a roster";
  if (typeof r.name !== "string" || !r.name || r.name.length > lim.maxName) return "its name is missing or too long";
  if (!Number.isSafeInteger(r.points_limit)) return "its points limit is not a whole number";
  if (!Array.isArray(r.units) || r.units.length > lim.maxUnits) return "its list of units is missing or too long";
  const bad = r.units.findIndex((u) => !isObj(u) || typeof u.name !== "string" || u.name.length > lim.maxName
    || !Number.isSafeInteger(u.count) || !isObj(u.stats) || !(u.preset === null || u.preset === undefined || typeof u.preset === "string"));
  return bad < 0 ? null : `its unit ${bad + 1} is damaged`;
}

/** A roster's name found in damaged text, or "". @param {string} text */
export function nameInText(text) {
  const m = /"name"\s*:\s*"((?:[^"\\\n]|\\.){1,80})"/.exec(String(text));
  if (!m) return "";
  try {
    return JSON.parse(`"${m[1]}"`);
  } catch {
    return m[1];
  }
}

export function newId() {
  return `r${Date.now().toString(36)}${Math.random().toString(36).slice(2, 8)}`;
}

/** @param {string} [name] @returns {import("./sucs_roster_store.js").Roster} */
export function blankRoster(name = "New army") {
  return { format: RULES.format, version: RULES.version, name, points_limit: RULES.starter_limit, units: [] };
}

/** @template T @param {T} value @returns {T} */
export function clone(value) {
  return JSON.parse(JSON.stringify(value));
}

// ---- comparing rosters -----------------------------------------------------------

/** JSON with sorted keys: two rosters are the same when these texts are equal.
 * @param {unknown} value @returns {string} */
export function canonical(value) {
  if (Array.isArray(value)) return `[${value.map(canonical).join(",")}]`;
  if (value && typeof value === "object") {
    const obj = /** @type {Record<string, unknown>} */ (value);
    return `{${Object.keys(obj).sort().map((k) => `${JSON.stringify(k)}:${canonical(obj[k])}`).join(",")}}`;
  }
  return JSON.stringify(value === undefined ? null : value);
}

/** Names compared the way a reader would: case and spacing do not matter.
 * @param {string} name */
export function nameKey(name) {
  return String(name).toLowerCase().split(/\s+/).filter(Boolean).join(" ");
}

/** A name with a suffix, kept within the length a roster name may have.
 *  @param {string} name @param {string} suffix */
export function suffixed(name, suffix) {
  return `${String(name).slice(0, RULES.max_name - suffix.length - 1)} ${suffix}`;
}

/** ``base``, or ``base 2``, ``base 3``... : the first that no roster of ``taken`` has, so that
 * two new rosters are told apart in the pickers.
 * @param {string} base @param {Iterable<string>} taken */
export function unusedName(base, taken) {
  const names = new Set(taken);
  let name = base;
  for (let n = 2; names.has(name); n += 1) name = suffixed(base, String(n));
  return name;
}

// ---- share links ----------------------------------------------------------------

/** A roster as the text after "#roster=" (see sharelink.js). @param {object} roster */
export function encodeShare(roster) {
  return pack(roster);
}

/** The JSON text a share link carries (either format), at most what one roster may hold
 *  (in UTF-8 bytes: up to four a character). Throws an Error whose message says plainly
 *  what is wrong. @param {string} text */
export function decodeShare(text) {
  return unpack(text, RULES.max_roster_chars * 4);
}

/** Check received JSON's size and depth before the core gets it (a string, unparsed).
 *  @param {string} text @returns {string} the problem, or "" */
export function textProblem(text) {
  const checked = guardedParse(text, { maxChars: RULES.max_file_chars, maxDepth: RULES.max_depth });
  return checked.ok ? "" : checked.reason;
}

/** "1 roster", "3 rosters": a count in proper English. @param {number} n @param {string} noun */
export function countOf(n, noun) {
  return `${n} ${noun}${n === 1 ? "" : "s"}`;
}

/** @param {string} name */
export function fileName(name) {
  const slug = String(name).toLowerCase().replace(/[^a-z0-9]+/g, "-").replace(/^-|-$/g, "");
  return `${slug || "roster"}.sucs.json`;
}

// ---- the unit card text -----------------------------------------------------------

/** The target number of a quality, as the core gives it. @param {number} quality */
export function tn(quality) {
  return RULES.target_number[String(quality)] ?? "?";
}

/**
 * A roster's totals and legality before the rules engine has started, from what the core
 * worked out at build time for each published unit (its cost, whether it breaks a rule on
 * its own, whether it is a commander): in the shape of the core's check (sucs.roster_check),
 * with `null` where the core is needed (a custom or edited unit: its cost is "waiting for
 * the calculator"). Legal as the core says: no unit breaking a rule, a commander in a
 * roster that has units, not over the limit (over as soon as the known costs pass it).
 * A test compares it with the core's check on many rosters.
 * @param {import("./sucs_roster_store.js").Roster} r @param {Map<string, any>} presets
 * @returns {{total: number | null, known: number, points_limit: number, remaining: number | null, over_limit: boolean,
 *   legal: boolean | null, units: Array<{cost: number, subtotal: number} | null>, warnings: any[], provisional: true}}
 */
export function quickCheck(r, presets) {
  const units = r.units.map((line) => {
    const p = line.preset ? presets.get(line.preset) : null;
    return p && canonical(p.stats) === canonical(line.stats) ? { cost: p.total_cost, subtotal: p.total_cost * line.count, p } : null;
  });
  const known = units.reduce((n, u) => n + (u ? u.subtotal : 0), 0);
  const complete = units.every(Boolean);
  const limit = r.points_limit;
  const over = Boolean(limit) && known > limit;
  /** @type {boolean | null} */
  let legal = null;
  if (over) legal = false;
  else if (complete) {
    const found = /** @type {Array<{p: any}>} */ (units);
    legal = !found.length || (found.every((u) => u.p.legal_alone) && found.some((u) => u.p.commander));
  }
  const total = complete ? known : null;
  return {
    total, known, points_limit: limit, remaining: limit && total !== null ? limit - total : null, over_limit: over, legal,
    units: units.map((u) => (u ? { cost: u.cost, subtotal: u.subtotal } : null)), warnings: [], provisional: true,
  };
}

/** @param {Record<string, any>} s */
export function weaponsText(s) {
  const targets = Number.isInteger(s.targets) ? Math.min(Math.max(s.targets, 1), RULES.max_targets) : 1;
  const main = Array(targets).fill(String(s.attack)).join(",");
  return s.alt_weapons ? `${main} or ${s.alt_weapons}` : main;
}

/** @param {Record<string, any>} s */
export function statLine(s) {
  const speed = `${s.must_move ? "(" : ""}${s.speed}"${s.must_move ? ")" : ""}`;
  const range = s.range ? `${s.min_range ? "(" : ""}${s.range}"${s.min_range ? ")" : ""}` : "0";
  const parts = [`Q${s.quality} (${tn(s.quality)}+)`, `Attack ${weaponsText(s)}`, `Armor ${s.armor}`,
    `Speed ${speed}`, `Range ${range}`];
  if (s.altitude !== "0") parts.push(`Altitude ${s.altitude}`);
  return parts.join(" · ");
}

/** @param {Record<string, any>} s @returns {string[]} */
export function featureList(s) {
  const out = [];
  if (s.commander) out.push("commander");
  if (s.stealth) out.push("stealth");
  if (s.amphibious) out.push("amphibious");
  if (s.transport) out.push(`transport ${s.transport_restricted ? `(${s.transport})` : s.transport}`);
  const support = [["support_reorganize", "reorganize"], ["support_armor", "+1 armor"], ["support_attack", "+1 attack"]]
    .filter(([k]) => s[k]).map(([, v]) => v);
  if (support.length) out.push(`support: ${support.join(", ")}`);
  if (s.special_weapons) out.push(`special weapons ${s.special_weapons}`);
  if (s.disembark) out.push("disembarks from altitude");
  if (s.armor_limited) out.push("armor vs some attacks only");
  return out;
}


// ---- storage problems: what is asked and shown ----------------------------------------

/** What the GM is told when saving fails (RosterStore.sync's `error`). */
export const SAVE_PROBLEMS = {
  full: "Your latest changes are NOT saved: this browser's storage is full. They stay in this tab until you close it. "
    + "Use Export all rosters now to keep them as a file; deleting rosters or kept copies you no longer need frees space, "
    + "and saving resumes with your next change.",
  blocked: "Nothing is being saved: this browser does not let the page keep data (its storage is blocked or unavailable), "
    + "so your rosters last only until you close this tab. Use Export all rosters to keep them as a file.",
  frozen: "Saving is paused: the saved data is damaged and there is no room to set it aside, so saving now would overwrite it. "
    + "Download it below, then delete it to resume saving; Export all rosters keeps your work as a file meanwhile.",
};

/** What the GM is told while rosters of the old single-key store could not be moved (no
 *  room): which, why, where they are, and when they move. Shown until they are moved;
 *  a later save's success does not hide it.
 *  @param {{names: string[], total: number}} unmoved */
export function unmovedMessage({ names, total }) {
  if (!names.length) return "";
  const shown = names.slice(0, 8).map((n) => `“${n}”`);
  if (names.length > shown.length) shown.push(`and ${names.length - shown.length} more`);
  return `${names.length} of the ${countOf(total, "roster")} saved by an earlier version of the builder could not be moved `
    + `into this version's storage, because this browser's storage is full: ${shown.join(", ")}. They are not lost: they stay `
    + "where the earlier version saved them, untouched, and move as soon as there is room (at your next visit, or when you "
    + "delete rosters or kept copies you no longer need). Export all rosters saves the ones shown here as a file.";
}

/** The report of damaged saved data: which rosters, why, and where they went.
 * @param {Array<{label: string, reason: string, kept: boolean}>} parts */
export function damageMessage(parts) {
  const shown = parts.slice(0, 8).map((p) => `${p.label} (${p.reason})`);
  if (parts.length > shown.length) shown.push(`and ${parts.length - shown.length} more damaged part(s)`);
  const list = shown.join("; ");
  return `Some saved data could not be read: ${list}. `
    + (parts.some((p) => !p.kept) ? "There was no room to set it aside, so it was left where it was. "
      : "It was set aside, not deleted: see the kept copies below. ")
    + "Everything else was loaded.";
}

export const QUESTIONS = {
  conflict: (/** @type {string} */ name) => ({
    title: `“${name}” was changed in another tab`,
    text: "This tab has changes to the same roster. Keep both saves this tab's version as a separate roster, so nothing is "
      + "overwritten; or drop this tab's changes and use the other tab's version.",
    choices: [["both", "Keep both"], ["theirs", "Use the other tab's version"]],
    cancel: "both",
  }),
  /** @param {string} name @param {string} source @param {number} left clashes after this one
   *  @param {string} [difference] how the two differ (rosterDifference) */
  clash: (name, source, left, difference = "") => ({
    title: `You already have a roster called “${name}”`,
    text: `${source} holds a different roster of that name. ${difference ? `${difference} ` : ""}Keep both adds it as a separate roster; Replace overwrites `
      + "your saved version with it (Undo brings yours back); "
      + (left ? "Skip leaves this one out; " : "")
      + "Cancel stops the import and changes nothing."
      + (left ? ` ${countOf(left, "more roster")} of the import ${left === 1 ? "has a name" : "have names"} you already use.` : ""),
    choices: [["both", "Keep both"], ["replace", "Replace"], ...(left ? [["skip", "Skip this one"]] : []), ["cancel", "Cancel"],
      ...(left ? [["both-all", `Keep both for all ${left + 1}`], ["replace-all", `Replace all ${left + 1}`]] : [])],
    cancel: "cancel",
  }),
  dropKept: {
    title: "Delete this kept copy?",
    text: "It is saved data that could not be read. Once deleted it cannot be brought back; download it first if you may need it.",
    choices: [["keep", "Keep it"], ["delete", "Delete"]],
    cancel: "keep",
  },
};

/** How a saved roster and one received under the same name differ, in a sentence: the
 *  points limit, the lines and units, and the first lines that are not the same.
 *  @param {import("./sucs_roster_store.js").Roster} mine @param {import("./sucs_roster_store.js").Roster} theirs */
export function rosterDifference(mine, theirs) {
  const parts = [];
  if (mine.name !== theirs.name) parts.push(`the name is written “${mine.name}” here and “${theirs.name}” in it`);
  if (mine.points_limit !== theirs.points_limit) {
    parts.push(`the points limit is ${mine.points_limit || "none"} here and ${theirs.points_limit || "none"} in it`);
  }
  const models = (/** @type {typeof mine} */ r) => r.units.reduce((n, u) => n + u.count, 0);
  const size = (/** @type {typeof mine} */ r) => `${countOf(r.units.length, "line")} (${countOf(models(r), "unit")})`;
  if (size(mine) !== size(theirs)) parts.push(`yours has ${size(mine)}, it has ${size(theirs)}`);
  const line = (/** @type {typeof mine.units[number] | undefined} */ u) => (u ? `${u.count} × ${u.name}` : "nothing");
  const differ = [];
  for (let i = 0; i < Math.max(mine.units.length, theirs.units.length); i += 1) {
    const a = mine.units[i];
    const b = theirs.units[i];
    if (canonical(a) === canonical(b)) continue;
    const what = a && b && line(a) === line(b) ? `${line(a)}, with other stats` : `${line(a)} here, ${line(b)} in it`;
    differ.push(`line ${i + 1}: ${what}`);
  }
  if (differ.length) parts.push(differ.slice(0, 3).join("; ") + (differ.length > 3 ? `; and ${differ.length - 3} more line(s) differ` : ""));
  return parts.length ? `How they differ: ${parts.join("; ")}.` : "";
}

/** The app's computations (through the bridge) and timers keep root._busy true, as does
 *  the start until setStarting(false); waiting for the GM's answer to a question does not.
 * @param {HTMLElement & {_busy?: boolean}} root @param {any} bridge @param {HTMLDialogElement} dialog */
export function busyTracker(root, bridge, dialog) {
  let inFlight = 0;
  let starting = true;
  /** @type {Map<string, ReturnType<typeof setTimeout>>} */
  const timers = new Map();
  const update = () => { root._busy = starting || inFlight > 0 || timers.size > 0; };
  update();
  return {
    timers,
    /** @param {boolean} value */
    setStarting(value) { starting = value; update(); },
    /** @param {string} name @param {object} inputs @returns {Promise<any>} */
    async run(name, inputs) {
      inFlight += 1;
      update();
      try {
        return await bridge.run(root, name, inputs);
      } finally {
        inFlight -= 1;
        update();
      }
    },
    /** @param {string} key @param {() => unknown} fn @param {number} ms */
    schedule(key, fn, ms) {
      clearTimeout(timers.get(key));
      timers.set(key, setTimeout(() => {
        timers.delete(key);
        Promise.resolve(fn()).catch((/** @type {unknown} */ err) => bridge.runtimeFailed(root, err)).finally(update);
      }, ms));
      update();
    },
    /** @param {{title: string, text: string, choices: string[][], cancel: string, returnTo?: HTMLElement | null}} q */
    async question(q) {
      const held = starting;
      starting = false;
      update();
      try {
        return await ask(dialog, q);
      } finally {
        starting = held;
        update();
      }
    },
  };
}
