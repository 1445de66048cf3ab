// @ts-check
// The SUCS army builder's saved rosters: the store half of the builder (sucs_roster.js
// is the view). Each roster lives under its own localStorage key, scoped to this copy of
// the site, as {id, rev, order, roster}. A damaged key is moved aside whole under a kept
// key (never deleted); other tabs' saves are merged key by key; a roster another tab
// changed since this tab read it is never overwritten (reported as a conflict). The
// single-key store of earlier versions is migrated on first load (see sucs_roster_legacy.js).
import { scopedKey, storageArea, guardedParse, isObj, KeptCopies, kb } from "./storage_kit.js";
import { newId, nameKey, canonical, nameInText, shapeProblem } from "./sucs_roster_lib.js";
import { migrateLegacy } from "./sucs_roster_legacy.js";

export const ENTRY_PREFIX = scopedKey("sucs-roster:");
export const ACTIVE_KEY = scopedKey("sucs-rosters:active");
export const KEPT_PREFIX = scopedKey("sucs-rosters:kept:");
/** the ids already moved from a damaged old store still in place (sucs_roster_legacy.js) */
export const MOVED_KEY = scopedKey("sucs-rosters:moved");
const ID = /^[A-Za-z0-9_-]{1,64}$/;

/**
 * @typedef {{format?: string, version?: number, name: string, points_limit: number,
 *   units: Array<{name: string, count: number, preset: string | null, stats: Record<string, any>}>}} Roster
 * @typedef {{id: string, rev: number, order: number, roster: Roster}} Saved
 * @typedef {Saved & {dirty: boolean, conflict: Saved | null, asking?: boolean}} Entry
 * @typedef {{label: string, reason: string, kept: boolean}} Damage
 * @typedef {{maxChars: number, maxDepth: number, maxUnits: number, maxName: number}} Limits
 * @typedef {{added: string[], removed: string[], refreshed: string[], restored: string[], kept: string[],
 *   conflicts: string[], damage: Damage[], error: string | null, freed: boolean}} SyncResult
 */

/** @param {string} key */
const idOf = (key) => key.slice(ENTRY_PREFIX.length);

/** Read one saved roster's text; `problem` says why it cannot be used.
 *  @param {string} raw @param {string} id @param {Limits} limits
 *  @returns {{saved: Saved | null, problem: string, name: string}} */
export function readEntry(raw, id, limits) {
  const parsed = guardedParse(raw, { maxChars: limits.maxChars + 1000, maxDepth: limits.maxDepth + 1 });
  const value = parsed.ok ? parsed.value : null;
  const roster = isObj(value) ? value.roster : undefined;
  const name = isObj(roster) && typeof roster.name === "string" ? roster.name : nameInText(raw.slice(0, 2000));
  let problem = parsed.ok ? "" : parsed.reason;
  if (!problem && !isObj(value)) problem = "it is not a saved roster";
  if (!problem && !ID.test(id)) problem = "its storage name is not one this page writes";
  if (!problem) problem = shapeProblem(roster, limits) || "";
  if (problem || !isObj(value)) return { saved: null, problem, name };
  // fields a newer version may add are ignored; the roster itself is checked by the core
  const rev = Number.isSafeInteger(value.rev) && value.rev >= 0 ? value.rev : 0;
  const order = typeof value.order === "number" && Number.isFinite(value.order) ? value.order : 0;
  return { saved: { id, rev, order, roster: /** @type {Roster} */ (roster) }, problem: "", name };
}

/** @param {{order: number, id: string}} a @param {{order: number, id: string}} b */
const byOrder = (a, b) => a.order - b.order || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);

/** The rosters of this tab, kept in step with the saved copies. */
export class RosterStore {
  /** @param {Limits} limits */
  constructor(limits) {
    this.limits = limits;
    this.area = storageArea();
    /** @type {Entry[]} */
    this.entries = [];
    /** @type {string | null} */
    this.active = null;
    /** @type {Map<string, number>} id -> revision this tab deleted */
    this.deleted = new Map();
    this.kept = new KeptCopies(this.area, KEPT_PREFIX);
    /** @type {Set<string>} damaged keys that could not be copied aside: left in place */
    this.stuck = new Set();
    /** @type {Map<string, {key: string, label: string, size: string}>} */
    this.labels = new Map();
    /** the rosters of the old store not moved yet (no room), and how many it held */
    this.unmoved = { names: /** @type {string[]} */ ([]), total: 0 };
  }

  /** @param {string | null} id */
  get(id) {
    return this.entries.find((e) => e.id === id) || null;
  }

  /** The position value for a roster placed at `index` of the list. @param {number} index */
  orderAt(index) {
    const before = this.entries[index - 1];
    const after = this.entries[index];
    if (!before) return after ? after.order - 1 : 0;
    return after ? (before.order + after.order) / 2 : before.order + 1;
  }

  /** @param {Roster} roster @param {number} [index] @returns {Entry} */
  add(roster, index = this.entries.length) {
    /** @type {Entry} */
    const entry = { id: newId(), rev: 0, order: this.orderAt(index), roster, dirty: true, conflict: null };
    this.entries.splice(index, 0, entry);
    return entry;
  }

  /** @param {string | null} id */
  remove(id) {
    const index = this.entries.findIndex((e) => e.id === id);
    if (index < 0) return null;
    const [entry] = this.entries.splice(index, 1);
    this.deleted.set(entry.id, entry.rev);
    return { entry, index };
  }

  /** Put back a roster this tab deleted (undo), unless another tab kept it meanwhile.
   *  @param {Entry} entry @param {number} index */
  restore(entry, index) {
    if (this.get(entry.id)) return;
    this.deleted.delete(entry.id);
    this.entries.splice(Math.min(index, this.entries.length), 0, Object.assign(entry, { dirty: true }));
  }

  /** For each roster to import: the saved roster of the same name, and whether it is the
   *  same roster ("same"), the untouched `starter` a first visit made ("starter": nothing
   *  to lose, so no question), a different one ("clash") or there is none ("new").
   *  @param {Roster[]} rosters @param {Roster | null} [starter] */
  planImport(rosters, starter = null) {
    const untouched = starter ? canonical(starter) : null;
    const filled = new Set();
    return rosters.map((r) => {
      const match = this.entries.find((e) => nameKey(e.roster.name) === nameKey(r.name)) || null;
      let kind = !match ? "new" : canonical(match.roster) === canonical(r) ? "same" : "clash";
      if (match && kind === "clash" && canonical(match.roster) === untouched && !filled.has(match.id)) {
        kind = "starter";
        filled.add(match.id);
      }
      return { r, match, kind };
    });
  }

  /** Apply an import, each roster with its decision: "add" (a new roster), "rename"
   *  (added under `rename(name)`: keep both), "fill" (added in the place of the untouched
   *  starter roster of the same name), "replace" (the matching roster takes its
   *  content; Undo puts it back), "open" (the same roster is saved already) or "skip".
   *  Every roster is handled, not only the first. Returns the first roster touched, the
   *  counts, and [{entry, before}] for each replaced one.
   *  @param {Array<{r: Roster, match: Entry | null, action: string}>} items
   *  @param {(name: string) => string} rename */
  applyImport(items, rename) {
    /** @type {string | null} */
    let first = null;
    const counts = { added: 0, replaced: 0, same: 0, skipped: 0 };
    /** @type {Array<{entry: Entry, before: Roster}>} */
    const replaced = [];
    for (const { r, match, action } of items) {
      if (action === "replace" && match && this.get(match.id)) {
        replaced.push({ entry: match, before: match.roster });
        Object.assign(match, { roster: r, dirty: true });
        counts.replaced += 1;
        first = first || match.id;
      } else if (action === "fill" && match && this.get(match.id)) {
        Object.assign(match, { roster: r, dirty: true }); // the untouched starter takes its place
        counts.added += 1;
        first = first || match.id;
      } else if (action === "open" && match && this.get(match.id)) {
        counts.same += 1;
        first = first || match.id;
      } else if (action === "skip") {
        counts.skipped += 1;
      } else {
        const entry = this.add(action === "rename" ? { ...r, name: rename(r.name) } : r);
        counts.added += 1;
        first = first || entry.id;
      }
    }
    return { first, counts, replaced };
  }

  /** Take another tab's version of a roster (after a conflict or a reload).
   *  @param {string} id @param {Saved} theirs */
  accept(id, theirs) {
    const entry = this.get(id);
    if (!entry) return;
    Object.assign(entry, { roster: theirs.roster, rev: theirs.rev, order: theirs.order, dirty: false, conflict: null });
  }

  /** Have the rules core check rosters read from storage; set aside (keep, then remove)
   *  each it refuses. `checkFile(inputs)` runs the core's roster file check. Returns the damage report.
   *  @param {string[]} ids @param {(inputs: object) => Promise<any>} checkFile
   *  @returns {Promise<Damage[]>} */
  async checkWithCore(ids, checkFile) {
    /** @type {Damage[]} */
    const parts = [];
    for (const id of ids) {
      const entry = this.get(id);
      if (!entry) continue;
      const reply = await checkFile({ file: JSON.stringify(entry.roster) });
      /** @type {Array<{field: string, message: string}>} */
      const problems = !reply.ok ? [reply.error] : reply.result.accepted ? [] : reply.result.problems;
      if (!problems.length || !this.get(id)) continue;
      const kept = this.kept.keep(JSON.stringify(entry.roster, null, 2)) !== null;
      const more = problems.length > 1 ? ` and ${problems.length - 1} more problem(s)` : "";
      if (kept) {
        this.remove(id);
        this.deleted.set(id, -1); // its saved key goes at the next save, whatever its revision
      }
      parts.push({ label: `“${String(entry.roster.name).slice(0, this.limits.maxName)}”`, kept,
        reason: `the rules engine refused it: ${problems[0].message}${more}` });
    }
    return parts;
  }

  /** Every saved roster (valid ones), and each damaged key moved aside (or, with no room,
   *  left in place and listed). @returns {{disk: Map<string, Saved>, damage: Damage[], error: string | null}} */
  readDisk() {
    /** @type {Map<string, Saved>} */
    const disk = new Map();
    /** @type {Damage[]} */
    const damage = [];
    if (!this.area) return { disk, damage, error: "blocked" };
    try {
      const keys = [];
      for (let i = 0; i < this.area.length; i += 1) {
        const key = this.area.key(i);
        if (key && key.startsWith(ENTRY_PREFIX)) keys.push(key);
      }
      for (const key of keys) {
        const raw = this.area.getItem(key);
        if (raw === null || this.stuck.has(key)) continue;
        const { saved, problem, name } = readEntry(raw, idOf(key), this.limits);
        if (saved) {
          disk.set(saved.id, saved);
          continue;
        }
        const kept = this.kept.move(key, raw);
        if (!kept) this.stuck.add(key);
        damage.push({ label: name ? `“${name.slice(0, this.limits.maxName)}”` : "a saved roster", reason: problem, kept });
      }
    } catch (err) {
      return { disk, damage, error: "blocked" };
    }
    return { disk, damage, error: null };
  }

  /** Move the old single-key store, or what is left of it (sucs_roster_legacy.js); the
   *  rosters it could not move are in `unmoved`. */
  moveLegacy() {
    if (!this.area) return { damage: [], error: null };
    const migrated = migrateLegacy(this.area, this.kept, ENTRY_PREFIX, ACTIVE_KEY, MOVED_KEY, this.limits);
    if (migrated.stuck) this.stuck.add(migrated.stuck);
    this.unmoved = { names: migrated.unmoved, total: migrated.total };
    return migrated;
  }

  /** Read the saved rosters for the first time (moving an older store first). A failed
   *  move is not a save's error: `unmoved` says what is left, until it is moved.
   *  @returns {{error: string | null, damage: Damage[]}} */
  load() {
    if (!this.area) return { error: "blocked", damage: [] };
    const migrated = this.moveLegacy();
    const { disk, damage, error } = this.readDisk();
    if (error) return { error, damage: migrated.damage };
    this.entries = [...disk.values()].sort(byOrder).map((s) => ({ ...s, dirty: false, conflict: null }));
    try {
      this.active = this.area.getItem(ACTIVE_KEY);
    } catch { this.active = null; }
    return { error: migrated.error === "blocked" ? "blocked" : null, damage: [...migrated.damage, ...damage] };
  }

  /** Data kept aside: [{key, label, size}], oldest first, then damaged data left in place. */
  keptList() {
    const out = [];
    const keys = [...this.kept.keys(), ...[...this.stuck].filter((k) => this.kept.text(k) !== null)];
    for (const key of keys) {
      let item = this.labels.get(key);
      if (!item) { // a kept copy never changes: read it once
        const text = this.kept.text(key) || "";
        const head = text.slice(0, 2000);
        const name = nameInText(head);
        const whole = /"schema"\s*:\s*"sucs-roster-store"/.test(head) || /"rosters"\s*:/.test(head);
        const label = whole ? "all saved rosters, as they were" : name ? `“${name.slice(0, this.limits.maxName)}”` : "unreadable saved data";
        item = { key, size: kb(text), label: this.stuck.has(key) ? `${label} (damaged, left in place)` : label };
        this.labels.set(key, item);
      }
      out.push(item);
    }
    return out;
  }

  /** @param {string} key */
  keptText(key) {
    return this.kept.text(key);
  }

  /** Delete a kept copy (or damaged data left in place). @param {string} key */
  dropKept(key) {
    this.kept.drop(key);
    this.stuck.delete(key);
    this.labels.delete(key);
  }

  /** Merge the saved copies into this tab and, with write, save this tab's changes.
   *  busy: ids with edits not yet in the model (they count as changed).
   *  @param {{write?: boolean, busy?: string[]}} [options] @returns {SyncResult} */
  sync({ write = true, busy = [] } = {}) {
    /** @type {SyncResult} */
    const res = { added: [], removed: [], refreshed: [], restored: [], kept: [], conflicts: [], damage: [], error: null, freed: false };
    const { disk, damage, error } = this.readDisk();
    res.damage = damage;
    if (error) {
      res.error = error;
      return res;
    }
    /** @type {Array<{entry: Entry, rev: number}>} */
    const toWrite = [];
    /** @type {string[]} */
    const toRemove = [];
    let reorder = false;
    for (const d of disk.values()) {
      const mine = this.get(d.id);
      const gone = this.deleted.get(d.id);
      if (gone !== undefined) {
        if (gone === -1 || d.rev === gone) {
          toRemove.push(d.id);
          continue;
        }
        this.deleted.delete(d.id); // changed elsewhere after this tab deleted it: keep it
        this.entries.push({ ...d, dirty: false, conflict: null });
        res.restored.push(d.id);
        reorder = true;
      } else if (!mine) {
        this.entries.push({ ...d, dirty: false, conflict: null });
        res.added.push(d.id);
        reorder = true;
      } else if (d.rev === mine.rev) {
        if (mine.dirty) toWrite.push({ entry: mine, rev: mine.rev + 1 });
      } else if (mine.dirty || busy.includes(mine.id)) {
        if (!mine.conflict) res.conflicts.push(mine.id);
        mine.conflict = d;
      } else {
        this.accept(d.id, d);
        res.refreshed.push(d.id);
      }
    }
    for (const mine of [...this.entries]) {
      if (disk.has(mine.id)) continue;
      if (mine.dirty || busy.includes(mine.id)) {
        if (mine.rev > 0) res.kept.push(mine.id); // deleted elsewhere, changed here
        mine.dirty = true;
        mine.conflict = null;
        toWrite.push({ entry: mine, rev: mine.rev + 1 });
      } else {
        this.entries.splice(this.entries.indexOf(mine), 1); // deleted in another tab
        res.removed.push(mine.id);
      }
    }
    if (reorder) this.entries.sort(byOrder);
    for (const id of [...this.deleted.keys()]) if (!disk.has(id)) this.deleted.delete(id);
    if (!write || !this.area) return res;
    try {
      for (const { entry, rev } of toWrite) {
        const { id, order, roster } = entry;
        this.area.setItem(ENTRY_PREFIX + id, JSON.stringify({ id, rev, order, roster }));
        Object.assign(entry, { rev, dirty: false });
      }
      for (const id of toRemove) {
        this.area.removeItem(ENTRY_PREFIX + id);
        this.deleted.delete(id);
        res.freed = true;
      }
      if (this.active && this.area.getItem(ACTIVE_KEY) !== this.active) this.area.setItem(ACTIVE_KEY, this.active);
    } catch (err) {
      res.error = err instanceof DOMException && err.name === "QuotaExceededError" ? "full" : "blocked";
    }
    return res;
  }

  /** Every roster as saved in this tab, for an export. */
  rosters() {
    return this.entries.map((e) => e.roster);
  }
}
