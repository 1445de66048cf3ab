// The rules core's data for an app (`python -m rules_core app NAME`), so these tests use
// the same limits and formats the page gets, never a retyped copy.
import { execFileSync } from "node:child_process";
import { fileURLToPath } from "node:url";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));
const PYTHON = process.env.PYTHON || `${ROOT}.venv/bin/python`;

/** @param {string} name */
export function appData(name) {
  return JSON.parse(execFileSync(PYTHON, ["-m", "rules_core", "app", name], { cwd: ROOT, encoding: "utf8" }));
}

/** A Storage-like area in memory (localStorage's methods), optionally with a quota in
 *  characters past which setItem throws as a full browser storage does. */
export class MemoryStorage {
  /** @param {number} [quota] */
  constructor(quota = Infinity) {
    this.map = new Map();
    this.quota = quota;
  }
  get length() { return this.map.size; }
  /** @param {number} i */
  key(i) { return [...this.map.keys()][i] ?? null; }
  /** @param {string} k */
  getItem(k) { return this.map.has(k) ? this.map.get(k) : null; }
  /** @param {string} k @param {string} v */
  setItem(k, v) {
    const used = [...this.map].reduce((n, [key, val]) => n + (key === k ? 0 : key.length + val.length), 0);
    if (used + k.length + String(v).length > this.quota) {
      const err = new Error("full");
      err.name = "QuotaExceededError";
      throw err;
    }
    this.map.set(k, String(v));
  }
  /** @param {string} k */
  removeItem(k) { this.map.delete(k); }
}
