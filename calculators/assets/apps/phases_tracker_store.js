// @ts-check
// The action dice tracker's saved fight (the store half; phases_tracker.js is the view).
// One key, scoped to this copy of the site, holds {version, history}. It gives the fight
// the army builder's guarantees: text too large or too deep is never parsed; damaged or
// newer-format data is copied aside (never deleted) before anything is written over it,
// and with no room for the copy nothing is written over it at all; keys this version does
// not know are dropped on reading; a save never overwrites what another tab saved since
// this tab last read it (it reports a conflict instead).
import { scopedKey, storageArea, guardedParse, isObj, KeptCopies, kb } from "./storage_kit.js";

export const FIGHT_KEY = scopedKey("phases-tracker:v1");
export const KEPT_PREFIX = scopedKey("phases-tracker:kept:");
const LEGACY_KEY = "phases-tracker:v1"; // before storage names were scoped

/**
 * The core's data for the tracker (rules_core.phases.calc_tracker.tracker_app_data, in
 * the page's data block): the keys of a state, the saved fight's format and limits.
 * @typedef {{state_keys: string[], version: number, max_history: number, max_file_chars: number,
 *   max_depth: number}} TrackerData
 */

/**
 * @typedef {{state: Record<string, unknown>, view: Record<string, any>, text: string, round: unknown, phase: unknown}} Step
 * @typedef {{history: Step[], problems: string[], whole: boolean}} Read
 */

/** One log entry, with only the keys this version knows (a newer version's are dropped).
 *  @param {unknown} e @param {string[]} stateKeys @returns {Step | null} */
function cleanStep(e, stateKeys) {
  if (!isObj(e) || !isObj(e.state) || !isObj(e.view) || typeof e.text !== "string") return null;
  /** @type {Record<string, unknown>} */
  const state = {};
  for (const key of stateKeys) if (Object.prototype.hasOwnProperty.call(e.state, key)) state[key] = e.state[key];
  return { state, view: e.view, text: e.text.slice(0, 2000), round: e.round, phase: e.phase };
}

/**
 * Read a saved fight's text: its usable steps and what was wrong.
 * @param {string} raw @param {TrackerData} core
 * @returns {Read}
 */
export function readFight(raw, core) {
  const parsed = guardedParse(raw, { maxChars: core.max_file_chars, maxDepth: core.max_depth });
  if (!parsed.ok) return { history: [], problems: [parsed.reason], whole: true };
  const data = parsed.value;
  if (!isObj(data) || !Array.isArray(data.history)) return { history: [], problems: ["it is not a saved fight"], whole: true };
  const problems = [];
  if (typeof data.version !== "number" || data.version > core.version) {
    problems.push(`it was saved by a newer version of this page (format ${String(data.version).slice(0, 20)})`);
  }
  // only the kept length is read: a history of 100,000 steps costs no more than the kept length
  const steps = data.history.slice(-core.max_history).map((e) => cleanStep(e, core.state_keys));
  const history = /** @type {Step[]} */ (steps.filter(Boolean));
  if (history.length < steps.length) problems.push(`${steps.length - history.length} step(s) of its log are damaged`);
  return { history, problems, whole: false };
}

export class FightStore {
  /** @param {TrackerData} core */
  constructor(core) {
    this.core = core;
    this.area = storageArea();
    this.kept = new KeptCopies(this.area, KEPT_PREFIX);
    /** @type {string | null} the saved text as this tab last read or wrote it */
    this.lastRaw = null;
    /** damaged data could not be copied aside: never write over it */
    this.frozen = false;
  }

  /** @returns {string | null} */
  readRaw() {
    try {
      return this.area ? this.area.getItem(FIGHT_KEY) : null;
    } catch {
      return null;
    }
  }

  /** Read the saved fight for the first time (moving the unscoped key of earlier versions).
   *  @returns {{history: Step[], problems: string[], kept: boolean, error: string | null}} */
  load() {
    if (!this.area) return { history: [], problems: [], kept: true, error: "blocked" };
    try {
      const old = this.area.getItem(LEGACY_KEY);
      if (old !== null && this.area.getItem(FIGHT_KEY) === null) {
        this.area.setItem(FIGHT_KEY, old);
        this.area.removeItem(LEGACY_KEY);
      }
    } catch { /* no room to move it: it stays where it was, untouched */ }
    const raw = this.readRaw();
    this.lastRaw = raw;
    if (raw === null) return { history: [], problems: [], kept: true, error: null };
    const found = readFight(raw, this.core);
    let kept = true;
    if (found.problems.length) {
      kept = this.kept.keep(raw) !== null;
      if (!kept) this.frozen = true;
    }
    return { history: found.history, problems: found.problems, kept, error: this.frozen ? "frozen" : null };
  }

  /** The fight as the saved text (the core's format version, the last steps kept): what
   *  is saved, exported and kept aside.
   *  @param {Step[]} history @param {number} [indent] */
  text(history, indent) {
    return JSON.stringify({ version: this.core.version, history: history.slice(-this.core.max_history) },
      null, indent);
  }

  /** Save the fight unless another tab saved since this tab read it ("conflict").
   *  @param {Step[]} history @param {{force?: boolean}} [options]
   *  @returns {string | null} the problem: "conflict", "full", "blocked", "frozen" or null */
  save(history, { force = false } = {}) {
    if (!this.area) return "blocked";
    if (this.frozen) return "frozen";
    const now = this.readRaw();
    if (!force && now !== this.lastRaw) return "conflict";
    const text = this.text(history);
    try {
      this.area.setItem(FIGHT_KEY, text);
    } catch (err) {
      return err instanceof DOMException && err.name === "QuotaExceededError" ? "full" : "blocked";
    }
    this.lastRaw = text;
    return null;
  }

  /** What another tab saved, if it differs from what this tab knows.
   *  @returns {(Read & {raw: string | null}) | null} */
  theirs() {
    const raw = this.readRaw();
    if (raw === this.lastRaw) return null;
    if (raw === null) return { raw, history: [], problems: [], whole: false };
    return { raw, ...readFight(raw, this.core) };
  }

  /** Take the saved text as this tab's starting point. @param {string | null} raw */
  adopt(raw) {
    this.lastRaw = raw;
  }

  /** Copies kept aside: [{key, label, size}], oldest first. */
  keptList() {
    const keys = [...(this.frozen ? [FIGHT_KEY] : []), ...this.kept.keys()];
    return keys.map((key) => {
      const text = this.kept.text(key) || "";
      return { key, size: kb(text), label: key === FIGHT_KEY ? "the saved fight (damaged, left in place)" : "a saved fight" };
    });
  }

  /** Delete a kept copy, or (frozen) the damaged fight itself, which lets saving resume.
   *  @param {string} key */
  dropKept(key) {
    this.kept.drop(key);
    if (key === FIGHT_KEY) {
      this.frozen = false;
      this.lastRaw = null;
    }
  }
}
