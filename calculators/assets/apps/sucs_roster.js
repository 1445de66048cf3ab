// @ts-check
// The SUCS army builder: the view. Costs, checks and file validation all come from the
// rules core through the bridge (sucs.unit_cost, sucs.roster_check, sucs.roster_import);
// this module shows the rosters, and sucs_roster_store.js keeps them safe in localStorage
// (one key per roster; damaged data set aside, other tabs' changes merged, conflicts
// asked about). Every text from storage, files or the address reaches the page through
// textContent only.
//
// This file is the app's core: its state (RosterApp, the one place the app keeps any),
// the start, the roster shown (picker, lines, check, cards) and the controls' wiring. Each
// other part is a module of functions given the app: the buttons (sucs_roster_actions.js),
// the unit editor (_editor), the points-limit field (_limit), a received roster shown
// before it is checked (_preview), saving and other tabs (_sync) and what the GM is told
// (_messages); sucs_roster_import.js reads files and links.
import {
  RULES, HASH_KEY, clone, canonical, configure, limits, busyTracker, quickCheck, unmovedMessage,
} from "./sucs_roster_lib.js";
import { el, showCards, lineNode, showCheck, pendingEdits } from "./sucs_roster_dom.js";
import { RosterStore } from "./sucs_roster_store.js";
import { importer } from "./sucs_roster_import.js";
import { ACTIONS } from "./sucs_roster_actions.js";
import { listenForSuggestions } from "./sucs_roster_suggest.js";
import { buildEditor, openEditor, closeEditor } from "./sucs_roster_editor.js";
import { bindLimitField, limitError, lineCount } from "./sucs_roster_limit.js";
import { showPreview, endPreview } from "./sucs_roster_preview.js";
import { lineLimitProblem, roomProblem } from "./sucs_roster_room.js";
import { notice, showProblems, renderStorage, reportDamage, problemText } from "./sucs_roster_messages.js";
import {
  save, keepForGood, validateEntries, watchOtherTabs, watchLeaving, recoveredNotice,
} from "./sucs_roster_sync.js";

/**
 * @typedef {import("./sucs_roster_store.js").Roster} Roster
 * @typedef {{run: Function, roll: Function, setStatus: Function, runtimeFailed: Function, startUpFailed: Function}} Bridge
 */

/** The rules core's calculators the builder calls (the store and the importer get theirs
 *  from here). */
export const ENGINES = { check: "sucs.roster_check", cost: "sucs.unit_cost", file: "sucs.roster_import" };

/** @param {HTMLElement & {_busy?: boolean}} root @param {Bridge} bridge */
export async function mount(root, bridge) {
  const app = new RosterApp(root, bridge);
  // Two tasks, not one: building the controls, then loading and showing the rosters made
  // one long task on a phone's first visit. Nothing runs in between that the start needs
  // (the controls are still inert, and no event is listened to before bind).
  await nextTask();
  app.bind();
  await app.start();
}

/** Resolves in a task of its own, after what the browser has waiting (input first). */
function nextTask() {
  const scheduler = /** @type {any} */ (globalThis).scheduler;
  if (scheduler && typeof scheduler.yield === "function") return scheduler.yield();
  return new Promise((resolve) => setTimeout(resolve, 0));
}

/** One army builder on a page: what it keeps between events, and the roster it shows. */
export class RosterApp {
  /** @param {HTMLElement & {_busy?: boolean}} root @param {Bridge} bridge */
  constructor(root, bridge) {
    this.root = root;
    this.bridge = bridge;
    /** the page's data block: the core's rules, the published units, the starter roster */
    this.data = JSON.parse(this.$(".sucs-data").dataset.json);
    configure(this.data.rules);
    /** @type {Map<string, any>} */
    this.presetById = new Map(this.data.presets.map((/** @type {any} */ p) => [p.id, p]));
    this.ui = this.$(".sucs-ui");
    this.store = new RosterStore(limits());

    // -- the app's state: every value that changes between events is one of these
    /** @type {number | null} index of the line in the editor */
    this.editing = null;
    /** @type {{rosterId: string | null, result: any} | null} the core's last check */
    this.lastCheck = null;
    this.checkSeq = 0; // the latest check started: an older reply is dropped
    this.costSeq = 0; // the latest pricing of the editor, likewise
    this.limitSeq = 0; // the latest check of a refused points limit, likewise
    this.countSeq = 0; // the latest check of a refused line count, likewise
    /** @type {{rosterId: string | null, index: number, typed: string, message: string} | null} a refused count */
    this.countError = null;
    this.pricing = 0; // edits being priced: not in the roster yet
    /** @type {{restore: () => void, id: string | null} | null} the last delete or replace */
    this.undo = null;
    this.saveProblem = "";
    this.damageText = "";
    this.moveText = ""; // the old store's rosters not moved yet (unmovedMessage)
    this.persistText = "";
    this.previewNotice = ""; // the notice a received roster's preview shows
    this.live = false; // the start (share link included) is done: the status may say ready
    this.fightWaiting = false; // "Fight this roster" was pressed before the start was done
    /** @type {import("./sucs_roster_suggest.js").Suggestion | null} a change the fair-fight finder offers */
    this.suggestion = null;
    /** @type {HTMLElement | null} the control that opened the import under way (its questions return there) */
    this.opener = null;
    /** The last check started at once (the start waits for it before saying ready). */
    this.checking = Promise.resolve();
    // busy while a computation is in flight or scheduled, or until the start is done
    this.busy = busyTracker(root, bridge, this.$(".sucs-ask"));

    this.editorInputs = buildEditor(this);
    this.fillLists();
    this.imports = importer({
      store: this.store, starter: this.data.first,
      preview: {
        show: (rosters, source) => showPreview(this, rosters, source),
        end: () => endPreview(this),
      },
      checkFile: (file) => this.run("file", { file }),
      // a file's questions give the focus back to the file button
      question: (q) => this.busy.question({ ...q, returnTo: this.opener }),
      notice: (text, withUndo) => notice(this, text, withUndo),
      showProblems: (title, problems) => showProblems(this, title, problems),
      switchTo: (id) => this.switchTo(id),
      setUndo: (value) => { this.undo = value; },
      openedAt: root.dataset.openedAt || window.location.href, presetById: this.presetById,
      addLine: (line) => this.addLine(line),
    });
  }

  /** @param {string} sel @returns {any} */
  $(sel) {
    return this.root.querySelector(sel);
  }

  /** One of the rules core's calculators (ENGINES), through the bridge.
   *  @param {keyof typeof ENGINES} engine @param {object} inputs @returns {Promise<any>} */
  run(engine, inputs) {
    return this.busy.run(ENGINES[engine], inputs);
  }

  active() {
    return /** @type {import("./sucs_roster_store.js").Entry} */ (this.store.get(this.store.active));
  }

  roster() {
    return this.active().roster;
  }

  ensureActive() {
    if (!this.store.entries.length) this.store.add(clone(this.data.first));
    if (!this.store.get(this.store.active)) this.store.active = this.store.entries[0].id;
  }

  /** Edits typed but not yet committed (a field still being typed in) count as changes.
   *  @param {boolean} apply */
  pending(apply) {
    const found = pendingEdits(this.root, this.roster(), apply);
    if (found && apply) this.active().dirty = true;
    return found;
  }

  // -- roster picker and header
  renderPicker() {
    const pick = this.$(".sucs-pick");
    pick.replaceChildren(...this.store.entries.map((e) => el("option", { value: e.id, text: e.roster.name })));
    pick.value = this.store.active;
    // the enemy for "Fight this roster": kept while it exists, else the first other roster
    const foe = this.$(".sucs-foe");
    const wanted = this.store.get(foe.value) ? foe.value
      : (this.store.entries.find((e) => e.id !== this.store.active) || this.store.entries[0]).id;
    foe.replaceChildren(...this.store.entries.map((e) => el("option", { value: e.id, text: e.roster.name })));
    foe.value = wanted;
    this.$(".sucs-name").value = this.roster().name;
    // a refused value stays in the field, next to its message, until it is fixed
    if (this.$(".sucs-limit-error").hidden) this.$(".sucs-limit").value = String(this.roster().points_limit);
  }

  // -- lines
  /** The core's check of the shown roster, or until it is in, the one made from the
   *  published units' costs (the page knows them from the build). */
  currentCheck() {
    if (this.lastCheck && this.lastCheck.rosterId === this.store.active) return this.lastCheck.result;
    // a first visit's starter roster: the core's own check of it, made at build time (and
    // prerendered: nothing moves when the builder starts)
    if (canonical(this.roster()) === canonical(this.data.first)) return this.data.check;
    return quickCheck(this.roster(), this.presetById);
  }

  renderLines() {
    const list = this.$(".sucs-lines");
    const r = this.roster();
    const costs = this.currentCheck().units;
    list.replaceChildren(...r.units.map((line, i) => lineNode(line, i, {
      cost: costs[i], preset: line.preset ? this.presetById.get(line.preset) : null, editing: this.editing === i,
      onChange: () => this.changed(),
      onEdit: () => openEditor(this, i),
      onCopy: () => this.addLine(clone(line), i + 1),
      onCount: (text) => { lineCount(this, i, text).catch((err) => this.bridge.runtimeFailed(this.root, err)); },
      countError: this.countError && this.countError.rosterId === this.store.active && this.countError.index === i
        ? this.countError : null,
      onRemove: () => {
        r.units.splice(i, 1);
        this.countError = null;
        if (this.editing !== null) closeEditor(this);
        this.changed();
      },
    })));
  }

  renderCards() {
    showCards(this.root, this.roster(), this.currentCheck());
  }

  /** Totals and legality shown from the first paint: the core's check when it is in for
   *  the shown roster, else the one from the published units' costs. */
  renderCheck() {
    if (!(this.lastCheck && this.lastCheck.rosterId === this.store.active)) {
      showCheck(this.root, { ok: true, result: this.currentCheck() });
    }
  }

  // -- checks
  async recheck() {
    const seq = ++this.checkSeq;
    const rosterId = this.store.active;
    try {
      const reply = await this.run("check", { roster: this.roster() });
      if (seq !== this.checkSeq) return;
      this.lastCheck = reply.ok ? { rosterId, result: reply.result } : null;
      showCheck(this.root, reply);
      this.renderLines();
      this.renderCards();
      if (this.live) this.bridge.setStatus(this.root, "ready", "Live: costs and checks come from the rules engine.");
    } catch (err) {
      this.bridge.runtimeFailed(this.root, err);
    }
  }

  /** Save and show again; `changed` also marks the shown roster as edited. */
  refresh({ now = false } = {}) {
    save(this);
    this.renderPicker();
    this.renderLines();
    this.renderCheck();
    this.renderCards();
    if (now) {
      clearTimeout(this.busy.timers.get("check"));
      this.busy.timers.delete("check");
      this.checking = this.recheck();
    } else this.busy.schedule("check", () => this.recheck(), 120);
  }

  /** @param {{now?: boolean}} [options] */
  changed(options) {
    this.active().dirty = true;
    keepForGood(this);
    this.refresh(options);
  }

  // -- adding units
  /** The unit lists, and the published units of the chosen one. */
  fillLists() {
    const listSelect = this.$(".sucs-add-list");
    listSelect.replaceChildren(...this.data.lists.map((/** @type {string[]} */ [id, title]) => el("option", { value: id, text: title })));
    listSelect.addEventListener("change", () => this.fillUnits());
    this.fillUnits();
  }

  fillUnits() {
    const list = this.$(".sucs-add-list").value;
    this.$(".sucs-add-unit").replaceChildren(...this.data.presets.filter((/** @type {any} */ p) => p.list === list).map((/** @type {any} */ p) =>
      el("option", { value: p.id, text: `${p.name} (${p.total_cost} pts${p.reproduced ? "" : `, printed extra +${p.published_cost}`})` })));
  }

  /** A line added to the shown roster (at its end, or at `index`), unless the roster
   *  has the most lines it may take or storage has no room: then the notice says why.
   *  @param {Roster["units"][number]} line @param {number} [index] @returns {boolean} added */
  addLine(line, index = this.roster().units.length) {
    const refused = lineLimitProblem(this.roster()) || roomProblem(this.store.area, JSON.stringify(line).length + 1, "The unit was not added");
    notice(this, refused);
    if (refused) return false;
    this.countError = null;
    this.roster().units.splice(index, 0, line);
    this.changed({ now: true });
    return true;
  }

  // -- roster management
  /** @param {string} id */
  switchTo(id) {
    this.store.active = id;
    limitError(this, "");
    this.countError = null;
    if (this.editing !== null) closeEditor(this);
    this.lastCheck = null;
    this.refresh({ now: true });
  }

  /** The controls' events: the buttons (ACTIONS), the picker, the name, the points limit
   *  and the file input; and the window's, for other tabs and for leaving. */
  bind() {
    this.ui.addEventListener("click", (/** @type {MouseEvent} */ event) => {
      const button = event.target instanceof Element ? /** @type {HTMLElement | null} */ (event.target.closest("[data-sucs]")) : null;
      if (!button) return;
      const action = ACTIONS[button.dataset.sucs || ""];
      if (action) Promise.resolve(action(this, button)).catch((err) => this.bridge.runtimeFailed(this.root, err));
    });
    this.$(".sucs-pick").addEventListener("change", (/** @type {any} */ e) => this.switchTo(e.target.value));
    this.$(".sucs-name").addEventListener("change", (/** @type {any} */ e) => {
      const text = e.target.value.trim();
      if (text) { this.roster().name = text.slice(0, RULES.max_name); this.changed(); } else e.target.value = this.roster().name;
    });
    bindLimitField(this);
    this.$(".sucs-import").addEventListener("change", async (/** @type {any} */ e) => {
      const file = e.target.files && e.target.files[0];
      e.target.value = "";
      if (!file) return;
      // the core's one limit, in characters; a character is at most 3 bytes of UTF-8 (the
      // text's own length is checked before the core reads it)
      if (file.size > 3 * RULES.max_file_chars) {
        showProblems(this, `${file.name} was refused; nothing was changed.`, [{ field: "file",
          message: `It is ${(file.size / 1e6).toFixed(1)} MB; a roster file is at most ${RULES.max_file_chars.toLocaleString("en")} characters (an export of every roster fits).` }]);
        return;
      }
      this.opener = e.target;
      try {
        await this.imports.importText(await file.text(), `The file ${file.name}`);
      } catch (err) {
        this.bridge.runtimeFailed(this.root, err);
      } finally {
        this.opener = null;
      }
    });
    watchOtherTabs(this);
    watchLeaving(this);
    listenForSuggestions(this);
  }

  // A share link pasted into the address bar of this tab: only the "#" changes, so the
  // page stays and the link is opened here (once the builder is live). Read from the
  // event, not the address: the theme's anchor tracking (a reader mid-page) may have
  // rewritten the "#" by the time the event is handled, on a busy device.
  onHashChange = async (/** @type {HashChangeEvent} */ event) => {
    const root = this.root;
    if (!root.isConnected) { window.removeEventListener("hashchange", this.onHashChange); return; }
    const address = event.newURL || window.location.href;
    if (!new URL(address).hash.startsWith(`#${HASH_KEY}`)) return;
    root._busy = true;
    try {
      await this.imports.openSharedLink(address);
      await this.checking; // as at start-up: settled only once the roster it opened is checked
    } catch (err) {
      this.bridge.runtimeFailed(root, err);
    } finally {
      root._busy = false;
    }
  };

  /** The start: read what was saved, set damage aside, show, then let the core check it. */
  async start() {
    const loaded = this.store.load();
    this.ensureActive();
    if (loaded.error) this.saveProblem = problemText(loaded.error);
    this.moveText = unmovedMessage(this.store.unmoved);
    if (loaded.damage.length) reportDamage(this, loaded.damage);
    this.ui.inert = false;
    renderStorage(this);
    this.renderPicker();
    this.renderLines();
    this.renderCheck();
    this.renderCards();
    recoveredNotice(this);
    await this.startUp();
  }

  /** The part of the start that needs the runtime: run again by itself once the runtime
   *  is back. */
  async startUp() {
    const { root, bridge } = this;
    bridge.setStatus(root, "loading", "Starting the rules engine…");
    this.busy.setStarting(true);
    try {
      await this.imports.previewSharedLink();
      await validateEntries(this, this.store.entries.map((e) => e.id));
      save(this);
      await this.recheck();
      await this.imports.openSharedLink();
      await this.imports.openAddLink();
      await this.checking;
    } catch (err) {
      this.busy.setStarting(false);
      bridge.startUpFailed(root, err, () => this.startUp());
      return;
    }
    // ready only now: everything the start began (a share or add link's import too) is done
    if (!this.live) window.addEventListener("hashchange", this.onHashChange);
    this.live = true;
    bridge.setStatus(root, "ready", "Live: costs and checks come from the rules engine.");
    this.busy.setStarting(false);
    if (this.fightWaiting) ACTIONS.fight(this, this.$('[data-sucs="fight"]'));
  }
}
