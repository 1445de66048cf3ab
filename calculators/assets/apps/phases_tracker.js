// @ts-check
// The action dice tracker (2d6 combat phases): the view. Every change of state goes
// through the rules core's `phases.tracker` (state + event -> next state) in the shared
// worker; phases_tracker_store.js keeps the history (for undo and the log) in
// localStorage without ever losing a saved fight. All text reaches the page through
// textContent.
//
// This file is the tracker's core: its state (TrackerApp, the one place the tracker keeps
// any), the start, the steps sent to the core and the controls' wiring. Each other part is
// a module of functions given the app: what the page shows (phases_tracker_view.js), the
// buttons and fight files (_actions), and saving and other tabs (_sync).
import { FightStore } from "./phases_tracker_store.js";
import { render, showError, notice } from "./phases_tracker_view.js";
import { ACTIONS, importFight } from "./phases_tracker_actions.js";
import { save, SAVE_PROBLEMS, watchOtherTabs, watchLeaving, recoveredNotice } from "./phases_tracker_sync.js";

const CALC = "phases.tracker";

/**
 * @typedef {import("./phases_tracker_store.js").Step} Step
 * @typedef {{run: Function, roll: Function, setStatus: Function, runtimeFailed: Function, startUpFailed: Function}} Bridge
 */

/** @param {HTMLElement & {_busy?: boolean}} root @param {Bridge} bridge */
export async function mount(root, bridge) {
  const app = new TrackerApp(root, bridge);
  app.bind();
  await app.start();
}

/** One tracker on a page: what it keeps between events, and its steps through the core. */
export class TrackerApp {
  /** @param {HTMLElement & {_busy?: boolean}} root @param {Bridge} bridge */
  constructor(root, bridge) {
    this.root = root;
    this.bridge = bridge;
    /** the page's data block: the core's state keys, format version and limits */
    this.data = JSON.parse(this.$(".pt-data").dataset.json);
    this.store = new FightStore(this.data);
    this.maxHistory = this.data.max_history;

    // -- the tracker's state: every value that changes between events is one of these
    /** @type {Step[]} the fight, step by step (the last is the current state) */
    this.history = [];
    this.busy = false; // a step is with the core: no other starts
    this.saveProblem = "";
    this.persistText = "";
    this.unsaved = false; // this tab has steps storage does not hold
    this.live = false;
    this.syncing = false; // another tab's fight is being taken in
    this.asking = false; // the GM is asked which fight to keep (another tab's save)
  }

  /** @param {string} sel @returns {any} */
  $(sel) {
    return this.root.querySelector(sel);
  }

  current() {
    return this.history.length ? this.history[this.history.length - 1] : null;
  }

  /** Run one event through the core and record the step.
   *  @param {Record<string, unknown>} event @param {string} [op] */
  async send(event, op = "run") {
    const { root, bridge } = this;
    if (this.busy) return null;
    this.busy = true;
    root._busy = true;
    /** @type {NodeListOf<HTMLButtonElement>} */
    const buttons = root.querySelectorAll("button");
    /** @type {Map<HTMLButtonElement, boolean>} each button's state before the step */
    const wasDisabled = new Map();
    buttons.forEach((b) => { wasDisabled.set(b, b.disabled); b.disabled = true; });
    try {
      const entry = this.current();
      /** @type {Record<string, unknown>} */
      const inputs = { event };
      if (entry && event.type !== "start") inputs.state = entry.state;
      const reply = op === "roll" ? await bridge.roll(root, CALC, inputs) : await bridge.run(root, CALC, inputs);
      if (!reply.ok) {
        showError(this, reply.error.message);
        return null;
      }
      showError(this, "");
      const report = reply.result.report;
      if (report.event === "action" || report.phase_ended) this.$("#pt-extra").checked = false;
      if (report.event !== "look") {
        if (report.event === "start") this.history = [];
        this.history.push({ state: reply.result.state, view: reply.result.view, text: report.text,
                            round: report.round, phase: report.phase });
        if (this.history.length > this.maxHistory) this.history = this.history.slice(-this.maxHistory);
        await save(this);
      }
      return reply;
    } catch (err) {
      bridge.runtimeFailed(root, err);
      return null;
    } finally {
      this.busy = false;
      root._busy = false;
      buttons.forEach((b) => { b.disabled = wasDisabled.get(b) === true; });
      render(this);
    }
  }

  /** Check the current step's state with the core (a "look" event changes nothing). A
   *  step the core refuses is dropped from the end, back to the last one it accepts,
   *  after a copy of the fight as it was (``asWas()``, by default the history now; null:
   *  a copy is kept already) is kept aside. The copy is made only when a step is dropped.
   *  @param {string} okText @param {(() => string | null) | null} [asWas] */
  async restore(okText, asWas = () => this.store.text(this.history)) {
    const { root, bridge } = this;
    this.busy = true;
    root._busy = true;
    let dropped = 0;
    try {
      while (this.current()) {
        const entry = /** @type {Step} */ (this.current());
        const reply = await bridge.run(root, CALC, { state: entry.state, event: { type: "look" } });
        if (reply.ok) {
          entry.view = reply.result.view; // as the current rules engine words it
          this.$("#pt-offense").value = String(reply.result.state.offense_dice);
          this.$("#pt-defence").value = String(reply.result.state.defence_dice);
          break;
        }
        if (!dropped) {
          showError(this, `The saved fight's last step was refused by the rules engine (${reply.error.message}).`);
          const copy = asWas && asWas();
          if (copy && this.store.kept.keep(copy) !== null) {
            notice(this, "The saved fight's last step(s) were refused by the rules engine; a copy of the fight as it was is kept aside below.");
          }
        }
        this.history.pop();
        dropped += 1;
      }
    } catch (err) {
      bridge.runtimeFailed(root, err);
      return false;
    } finally {
      this.busy = false;
      root._busy = false;
    }
    if (this.live) bridge.setStatus(root, "ready", okText);
    return dropped === 0 || Boolean(this.current());
  }

  /** The controls' events: the buttons (ACTIONS), the forms (never submitted), the fight
   *  file input; and other tabs' saves. */
  bind() {
    const { root, bridge } = this;
    root.addEventListener("click", (e) => {
      const button = /** @type {HTMLElement | null} */ (e.target instanceof Element ? e.target.closest("button[data-pt]") : null);
      if (!button || !root.contains(button)) return;
      const action = ACTIONS[button.dataset.pt || ""];
      if (action) Promise.resolve(action(this, button)).catch((err) => bridge.runtimeFailed(root, err));
    });
    root.querySelectorAll("form").forEach((form) => form.addEventListener("submit", (e) => e.preventDefault()));
    this.$(".pt-import").addEventListener("change", (/** @type {Event} */ e) => {
      const input = /** @type {HTMLInputElement} */ (e.target);
      const file = input.files && input.files[0];
      input.value = "";
      if (file) importFight(this, file).catch((err) => bridge.runtimeFailed(root, err));
    });
    watchOtherTabs(this);
    watchLeaving(this);
  }

  /** Start the runtime and check the saved fight with the core itself. */
  async start() {
    this.bridge.setStatus(this.root, "loading", "Starting the rules engine…");
    this.root._busy = true;
    const loaded = this.store.load();
    this.history = loaded.history;
    if (loaded.error) this.saveProblem = SAVE_PROBLEMS[/** @type {"full"} */ (loaded.error)];
    if (loaded.problems.length) {
      notice(this, `Some of the fight saved in this browser could not be read (${loaded.problems.join("; ")}). `
        + (loaded.kept ? "A copy of it as it was is kept aside below; " : "There was no room to copy it, so it was left where it was; ")
        + (this.history.length ? "the rest was loaded." : "start a new fight."));
    }
    recoveredNotice(this);
    await this.startUp(loaded.problems.length > 0);
  }

  /** The part of the start that needs the runtime: run again by itself once the runtime
   *  is back. @param {boolean} damaged the saved fight was read with problems */
  async startUp(damaged) {
    const { root, bridge } = this;
    root._busy = true;
    try {
      // a fight read with problems has its copy kept already
      if (this.current()) {
        await this.restore("The fight saved in this browser was restored.", damaged ? null : () => this.store.readRaw());
      }
      if (!this.current()) await bridge.run(root, CALC, { event: { type: "start", offense_dice: 5, defence_dice: 5 } });
    } catch (err) {
      root._busy = false;
      bridge.startUpFailed(root, err, () => this.startUp(damaged));
      return;
    }
    this.live = true;
    root._busy = false;
    bridge.setStatus(root, "ready", this.saveProblem ? "The tracker is live, but this fight is not being saved (see below)."
      : this.history.length ? "The fight saved in this browser was restored." : "The tracker is live; the fight is kept in this browser.");
    render(this);
  }
}
