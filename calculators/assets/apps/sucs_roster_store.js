// The SUCS army builder's saved rosters (used by sucs_roster.js). One localStorage key
// holds every roster with a revision number each; this module reads it defensively
// (a damaged part is kept aside under its own key, never deleted, and the rest is
// recovered), merges what other tabs saved, and refuses to overwrite a roster that
// another tab changed since this tab last read it: that is reported as a conflict.
import { STORE_KEY, STORE_SCHEMA, VERSION, MAX_ROSTER_CHARS, newId, nameKey, canonical } from "./sucs_roster_lib.js";

export const KEPT_PREFIX = `${STORE_KEY}:damaged`;
const ID = /^[A-Za-z0-9_-]{1,64}$/;
const ENTRY_START = /\{\s*"id"\s*:\s*"/g;
let stamp = 0;

const isObj = (v) => v !== null && typeof v === "object" && !Array.isArray(v);

/** localStorage, or null where the browser blocks it (reading the property can throw). */
export function storageArea() {
  try {
    return window.localStorage || null;
  } catch {
    return null;
  }
}

/** Enough shape to show a roster without errors; the rules core checks it fully later. */
export function shapeProblem(r) {
  if (!isObj(r)) return "it is not a roster";
  if (typeof r.name !== "string" || !r.name || r.name.length > 500) return "its name is missing or far too long";
  if (!Number.isSafeInteger(r.points_limit)) return "its points limit is not a whole number";
  if (!Array.isArray(r.units) || r.units.length > 100) return "its list of units is missing or too long";
  const bad = r.units.findIndex((u) => !isObj(u) || typeof u.name !== "string" || u.name.length > 500
    || !Number.isSafeInteger(u.count) || !isObj(u.stats) || !(u.preset == null || typeof u.preset === "string"));
  return bad < 0 ? null : `its unit ${bad + 1} is damaged`;
}

/** A roster's name found in damaged text, or "". */
export function nameInText(text) {
  const m = /"name"\s*:\s*"((?:[^"\\\n]|\\.){1,80})"/.exec(String(text));
  if (!m) return "";
  try {
    return JSON.parse(`"${m[1]}"`);
  } catch {
    return m[1];
  }
}

function label(index, name) {
  return `roster ${index + 1}${name ? ` “${String(name).slice(0, 80)}”` : ""}`;
}

/** Where each entry of a store that is not valid JSON ends, so the rest can be read. */
function entryEnd(raw, from) {
  let depth = 0;
  let inString = false;
  let escaped = false;
  for (let i = from; i < raw.length; i += 1) {
    const c = raw[i];
    if (inString) {
      if (escaped) escaped = false;
      else if (c === "\\") escaped = true;
      else if (c === '"') inString = false;
    } else if (c === '"') inString = true;
    else if (c === "{" || c === "[") depth += 1;
    else if ((c === "}" || c === "]") && --depth === 0) return i + 1;
  }
  return -1;
}

/** Recover the entries of a store whose text is damaged: each is read on its own. */
function salvage(raw) {
  const starts = [...raw.matchAll(ENTRY_START)].map((m) => m.index);
  const found = [];
  const bad = [];
  let coveredTo = 0;
  starts.forEach((start, k) => {
    if (start < coveredTo) return;
    const end = entryEnd(raw, start);
    let value;
    try {
      value = end > 0 ? JSON.parse(raw.slice(start, end)) : undefined;
    } catch { value = undefined; }
    if (value !== undefined) {
      found.push(value);
      coveredTo = end;
    } else {
      const text = raw.slice(start, k + 1 < starts.length ? starts[k + 1] : raw.length).replace(/\s*,\s*$/, "");
      bad.push({ index: found.length + bad.length, text });
    }
  });
  return { found, bad };
}

/** Read a store's text: good entries, damaged parts (to keep aside) and what was wrong. */
export function analyze(raw) {
  const out = { entries: [], bad: [], whole: null, active: null };
  if (raw === null || raw === undefined) return out;
  let candidates = [];
  let data;
  try {
    data = JSON.parse(raw);
  } catch {
    const { found, bad } = salvage(raw);
    candidates = found.map((value, i) => ({ value, index: i }));
    out.bad = bad.map((b) => ({ label: label(b.index, nameInText(b.text)), reason: "its saved text is damaged", text: b.text }));
    if (!bad.length) out.whole = { reason: "the saved data is damaged (it is not valid JSON)", text: raw };
  }
  if (data !== undefined) {
    if (!isObj(data)) {
      out.whole = { reason: "the saved data is not a set of rosters", text: raw };
    } else if (data.schema !== STORE_SCHEMA || data.version !== VERSION || !Array.isArray(data.rosters)) {
      const version = typeof data.version === "number" ? ` (version ${data.version})` : "";
      out.whole = { reason: `the saved data is in a format this page does not know${version}`, text: raw };
      if (Array.isArray(data.rosters)) candidates = data.rosters.map((value, index) => ({ value, index }));
    } else {
      candidates = data.rosters.map((value, index) => ({ value, index }));
      out.active = typeof data.active === "string" ? data.active : null;
    }
  }
  const ids = new Set();
  for (const { value, index } of candidates) {
    const roster = isObj(value) ? value.roster : undefined;
    const text = JSON.stringify(value) || "";
    const problem = text.length > MAX_ROSTER_CHARS ? `it is ${text.length} characters long, far more than a roster takes`
      : shapeProblem(roster);
    if (problem) {
      const name = isObj(roster) && typeof roster.name === "string" ? roster.name : nameInText(text.slice(0, 2000));
      // the whole text is kept already when the store itself was unreadable
      out.bad.push({ label: label(index, name), reason: problem, text: out.whole ? null : text });
      continue;
    }
    // a missing or repeated id gets one derived from the position, the same at every read
    let id = typeof value.id === "string" && ID.test(value.id) ? value.id : `recovered-${index}`;
    while (ids.has(id)) id = `${id}x`.slice(-64);
    ids.add(id);
    const rev = Number.isSafeInteger(value.rev) && value.rev >= 0 ? value.rev : 0;
    out.entries.push({ id, rev, roster });
  }
  return out;
}

/** The rosters of this tab, kept in step with the saved copy. */
export class RosterStore {
  constructor() {
    this.area = storageArea();
    this.entries = []; // {id, rev, roster, dirty, conflict}
    this.active = null;
    this.deleted = new Map(); // id -> revision this tab deleted
    this.handledRaw = null; // damaged saved text already kept aside
    this.frozen = false; // damaged data could not be kept aside: never write over it
    this.labels = new Map(); // kept copy's key -> {key, label, size}
  }

  get(id) {
    return this.entries.find((e) => e.id === id) || null;
  }

  add(roster, index = this.entries.length) {
    const entry = { id: newId(), rev: 0, roster, dirty: true, conflict: null };
    this.entries.splice(index, 0, entry);
    return entry;
  }

  remove(id) {
    const index = this.entries.findIndex((e) => e.id === id);
    if (index < 0) return null;
    const [entry] = this.entries.splice(index, 1);
    this.deleted.set(entry.id, entry.rev);
    return { entry, index };
  }

  /** Put back a roster this tab deleted (undo), unless another tab kept it meanwhile. */
  restore(entry, index) {
    if (this.get(entry.id)) return;
    this.deleted.delete(entry.id);
    this.entries.splice(Math.min(index, this.entries.length), 0, Object.assign(entry, { dirty: true }));
  }

  /** For each roster to import: the saved roster of the same name, and whether they differ. */
  planImport(rosters) {
    return rosters.map((r) => {
      const match = this.entries.find((e) => nameKey(e.roster.name) === nameKey(r.name)) || null;
      return { r, match, clash: Boolean(match) && canonical(match.roster) !== canonical(r) };
    });
  }

  /** Apply an import plan with the GM's choice for clashes ("both" or "replace").
   *  Returns the first roster touched and [{entry, before}] for each replaced one. */
  applyImport(plan, choice, rename) {
    let first = null;
    const replaced = [];
    for (const { r, match, clash } of plan) {
      if (clash && choice === "replace" && this.get(match.id)) {
        replaced.push({ entry: match, before: match.roster });
        Object.assign(match, { roster: r, dirty: true });
        first = first || match.id;
      } else first = first || this.add(clash ? { ...r, name: rename(r.name) } : r).id;
    }
    return { first, replaced };
  }

  /** Have the rules core check rosters read from storage; set aside (keep, then remove)
   *  each it refuses. `run(name, inputs)` calls the core. Returns the damage report. */
  async checkWithCore(ids, run) {
    const parts = [];
    for (const id of ids) {
      const entry = this.get(id);
      if (!entry) continue;
      const text = JSON.stringify(entry.roster);
      let problems = [];
      if (text.length > MAX_ROSTER_CHARS) problems = [{ field: "roster", message: `is ${text.length} characters long` }];
      else {
        const reply = await run("sucs.roster_import", { file: text });
        problems = reply.ok ? reply.result.problems : [reply.error];
      }
      if (!problems.length || !this.get(id)) continue;
      const kept = this.keep([JSON.stringify(entry.roster, null, 2)]);
      if (kept) this.remove(id);
      const more = problems.length > 1 ? ` and ${problems.length - 1} more problem(s)` : "";
      parts.push({ label: `“${String(entry.roster.name).slice(0, 80)}”`, kept,
        reason: `the rules engine refused it: ${problems[0].field} ${problems[0].message}${more}` });
    }
    return parts;
  }

  /** Take another tab's version of a roster (after a conflict or a reload). */
  accept(id, theirs) {
    const entry = this.get(id);
    if (!entry) return;
    Object.assign(entry, { roster: theirs.roster, rev: theirs.rev, dirty: false, conflict: null });
  }

  readRaw() {
    if (!this.area) return { raw: null, error: "blocked" };
    try {
      return { raw: this.area.getItem(STORE_KEY), error: null };
    } catch (err) {
      return { raw: null, error: "blocked", detail: err && err.name };
    }
  }

  /** Read the saved rosters for the first time. Returns what was damaged. */
  load() {
    const { raw, error } = this.readRaw();
    if (error) return { error, damage: [] };
    const found = analyze(raw);
    this.entries = found.entries.map((e) => ({ ...e, dirty: false, conflict: null }));
    this.active = found.active;
    const damage = this.keepDamage(found, raw);
    const { error: saveError } = !damage.length ? { error: null } : this.frozen ? { error: "frozen" } : this.sync();
    return { error: saveError, damage };
  }

  /** Keep damaged parts aside under their own keys; on success the saved copy gets rewritten. */
  keepDamage(found, raw) {
    const parts = [...(found.whole ? [{ label: "all saved rosters, as they were", reason: found.whole.reason, text: found.whole.text }] : []),
      ...found.bad];
    if (!parts.length) return [];
    const texts = parts.filter((p) => p.text !== null).map((p) => p.text);
    const kept = this.keep(texts);
    // no room to copy it: leave the damaged text where it is and write nothing over it
    if (!kept) this.frozen = true;
    this.handledRaw = raw; // the next save writes the rest without the damaged parts
    return parts.map(({ label: what, reason }) => ({ label: what, reason, kept }));
  }

  keep(texts) {
    const keys = [];
    try {
      for (const text of texts) {
        stamp += 1;
        const key = `${KEPT_PREFIX}:${Date.now().toString(36)}-${stamp}`;
        this.area.setItem(key, text);
        keys.push(key);
      }
      return true;
    } catch {
      keys.forEach((key) => { try { this.area.removeItem(key); } catch { /* gone */ } });
      return false;
    }
  }

  /** Data kept aside: [{key, label, size}] (the oldest first; the saved copy itself
   *  when it is damaged and could not be copied). */
  keptList() {
    if (!this.area) return [];
    const out = [];
    const kb = (text) => `${Math.max(1, Math.round(text.length / 1024))} kB`;
    if (this.frozen) out.push({ key: STORE_KEY, label: "all saved rosters, as they were (damaged)", size: kb(this.keptText(STORE_KEY) || "") });
    try {
      for (let i = 0; i < this.area.length; i += 1) {
        const key = this.area.key(i);
        if (!key || !key.startsWith(KEPT_PREFIX)) continue;
        if (!this.labels.has(key)) { // a kept copy never changes: read it once
          const text = this.area.getItem(key) || "";
          let value = null;
          try { value = JSON.parse(text); } catch { /* damaged text */ }
          const name = isObj(value) && typeof value.name === "string" ? value.name : nameInText(text.slice(0, 2000));
          this.labels.set(key, { key, size: kb(text), label: isObj(value) && "schema" in value ? "all saved rosters, as they were"
            : name ? `“${name.slice(0, 80)}”` : "unreadable saved data" });
        }
        out.push(this.labels.get(key));
      }
    } catch { return out; }
    return out.sort((a, b) => (a.key < b.key ? -1 : 1));
  }

  keptText(key) {
    try { return this.area.getItem(key); } catch { return null; }
  }

  /** Delete a kept copy (or the damaged saved copy, which lets saving resume). */
  dropKept(key) {
    try { this.area.removeItem(key); } catch { /* blocked */ }
    if (key === STORE_KEY) this.frozen = false;
  }

  /** Merge the saved copy into this tab and, with write, save this tab's changes.
   *  busy: ids with edits not yet in the model (they count as changed). */
  sync({ write = true, busy = [] } = {}) {
    const res = { added: [], removed: [], refreshed: [], restored: [], kept: [], conflicts: [], damage: [], error: null };
    const { raw, error } = this.readRaw();
    if (error) {
      res.error = error;
      return res;
    }
    let disk = null;
    if (raw !== null) {
      const found = analyze(raw);
      if (found.whole || found.bad.length) {
        if (raw !== this.handledRaw) res.damage = this.keepDamage(found, raw);
        write = !this.frozen;
      }
      disk = found.entries;
    }
    const out = [];
    const seen = new Set();
    for (const d of disk || []) {
      seen.add(d.id);
      const mine = this.get(d.id);
      if (this.deleted.has(d.id)) {
        if (d.rev === this.deleted.get(d.id)) {
          if (!write) out.push(d);
          continue;
        }
        this.deleted.delete(d.id); // changed elsewhere after this tab deleted it: keep it
        this.entries.push({ ...d, dirty: false, conflict: null });
        res.restored.push(d.id);
      } else if (!mine) {
        this.entries.push({ ...d, dirty: false, conflict: null });
        res.added.push(d.id);
      } else if (d.rev === mine.rev) {
        if (mine.dirty && write) {
          out.push({ id: mine.id, rev: mine.rev + 1, roster: mine.roster, mine });
          continue;
        }
      } else if (mine.dirty || busy.includes(mine.id)) {
        if (!mine.conflict) res.conflicts.push(mine.id);
        mine.conflict = d;
      } else {
        this.accept(d.id, d);
        res.refreshed.push(d.id);
      }
      out.push(d);
    }
    for (const mine of [...this.entries]) {
      if (seen.has(mine.id)) continue;
      if (mine.dirty || busy.includes(mine.id) || disk === null) {
        if (disk !== null && mine.rev > 0) res.kept.push(mine.id); // deleted elsewhere, changed here
        mine.dirty = mine.dirty || busy.includes(mine.id);
        mine.conflict = null;
        out.push({ id: mine.id, rev: mine.dirty ? mine.rev + 1 : mine.rev, roster: mine.roster, mine });
      } else {
        this.entries.splice(this.entries.indexOf(mine), 1); // deleted in another tab
        res.removed.push(mine.id);
      }
    }
    if (!write || this.frozen) {
      if (this.frozen) res.error = "frozen";
      return res;
    }
    // keep this tab's order: entries in memory first, then any others
    const order = new Map(this.entries.map((e, i) => [e.id, i]));
    out.sort((a, b) => (order.get(a.id) ?? 1e9) - (order.get(b.id) ?? 1e9));
    const text = JSON.stringify({ schema: STORE_SCHEMA, version: VERSION, active: this.active,
      rosters: out.map(({ id, rev, roster }) => ({ id, rev, roster })) });
    if (text !== raw) {
      try {
        this.area.setItem(STORE_KEY, text);
      } catch (err) {
        res.error = err && err.name === "QuotaExceededError" ? "full" : "blocked";
        return res;
      }
    }
    for (const o of out) {
      if (o.mine) Object.assign(o.mine, { rev: o.rev, dirty: false });
    }
    this.deleted.clear(); // each was dropped, or kept because another tab changed it
    return res;
  }
}
