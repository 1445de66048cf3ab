// @ts-check
// The action dice tracker (2d6 combat phases): the view. Every change of state goes
// through the rules core's `phases.tracker` (state + event -> next state) in the shared
// worker; phases_tracker_store.js keeps the history (for undo and the log) in
// localStorage without ever losing a saved fight. All text reaches the page through
// textContent.
import { FightStore, FIGHT_KEY, KEPT_PREFIX, readFight } from "./phases_tracker_store.js";
import { askPersist, PERSIST_REFUSED, download, guardedParse, ask } from "./storage_kit.js";

const CALC = "phases.tracker";

/**
 * @typedef {import("./phases_tracker_store.js").Step} Step
 * @typedef {{run: Function, roll: Function, setStatus: Function, runtimeFailed: Function, startUpFailed: Function}} Bridge
 */

/** @param {string} text */
function parseFaces(text) {
  const parts = text.split(/[\s,;+]+/).filter(Boolean);
  // numbers go as numbers; anything else is sent as received so the core names it
  return parts.map((p) => (/^\d+$/.test(p) ? parseInt(p, 10) : p));
}

const SAVE_PROBLEMS = {
  full: "This fight is NOT saved: the browser's storage is full. It stays in this tab until you close it; "
    + "Export the fight keeps it as a file. Saving resumes with your next action once there is room.",
  blocked: "Nothing is being saved: this browser does not let the page keep data, so the fight lasts only until "
    + "you close this tab. Export the fight keeps it as a file.",
  frozen: "Saving is paused: the saved fight is damaged and there is no room to set it aside, so saving now would "
    + "overwrite it. Download it below, then delete it to resume saving.",
};

/** @param {HTMLElement & {_busy?: boolean}} root @param {Bridge} bridge */
export async function mount(root, bridge) {
  /** @param {string} sel @returns {any} */
  const $ = (sel) => root.querySelector(sel);
  const data = JSON.parse($(".pt-data").dataset.json);
  const store = new FightStore(data);
  const maxHistory = data.max_history;
  const setup = $(".pt-setup");
  const board = $(".pt-board");
  const error = $(".pt-error");
  /** @type {Step[]} */
  let history = [];
  let busy = false;
  let saveProblem = "";
  let persistText = "";
  let unsaved = false; // this tab has steps storage does not hold
  let live = false;

  const current = () => (history.length ? history[history.length - 1] : null);

  /** @param {string} text */
  function showError(text) {
    error.textContent = text;
    error.hidden = !text;
  }

  /** @param {string} text */
  function notice(text) {
    $(".pt-notice").textContent = text;
    $(".pt-notice").hidden = !text;
  }

  function renderStorage() {
    const kept = store.keptList();
    $(".pt-save-problem").textContent = saveProblem;
    $(".pt-save-problem").hidden = !saveProblem;
    $(".pt-persist-text").textContent = persistText;
    $(".pt-persist").hidden = !persistText;
    $(".pt-kept-box").hidden = !kept.length;
    $(".pt-kept").replaceChildren(...kept.map((k) => {
      const li = document.createElement("li");
      li.dataset.key = k.key;
      li.append(`${k.label}, ${k.size} `);
      for (const [action, label] of [["kept-download", "Download"], ["kept-delete", "Delete"]]) {
        const b = document.createElement("button");
        b.type = "button";
        b.className = "md-button";
        b.dataset.pt = action;
        b.textContent = label;
        li.append(b, " ");
      }
      return li;
    }));
  }

  function render() {
    const entry = current();
    setup.dataset.fight = entry ? "yes" : "no";
    root.dataset.phase = entry ? String(entry.view.phase) : "";
    board.hidden = !entry;
    $('[data-pt="set-pools"]').hidden = !entry;
    $('[data-pt="start"]').textContent = entry ? "Restart the fight" : "Start the fight";
    renderStorage();
    if (!entry) return;
    const view = entry.view;
    $(".pt-round").textContent = String(view.round);
    $(".pt-phase").textContent = String(view.phase_label);
    $(".pt-left").textContent = String(view.dice_left);
    $(".pt-turn").textContent = String(view.turn);
    $(".pt-next").textContent = String(view.next_action);
    $(".pt-extra-label").textContent = String(view.extra_label);
    const extra = $("#pt-extra");
    extra.disabled = view.extra_die !== "optional";
    if (view.extra_die === "automatic") extra.checked = true;
    else if (view.extra_die === "none") extra.checked = false;
    const left = Number.isInteger(view.dice_left) ? Math.max(0, Math.min(view.dice_left, 12)) : 0;
    $(".pt-dice").replaceChildren(...Array.from({ length: left }, () => {
      const span = document.createElement("span");
      span.className = "calc-die pt-die";
      return span;
    }));
    const goal = view.goal;
    $(".pt-goal-box").hidden = !goal;
    if (goal) $(".pt-goal").textContent = `${goal.marked} / ${goal.spaces}${goal.complete ? " (reached)" : ""}`;
    $(".pt-last").textContent = entry.text;
    $(".pt-log").replaceChildren(...history.slice(-maxHistory).reverse().map((e) => {
      const li = document.createElement("li");
      li.textContent = `Round ${String(e.round)} · ${e.text}`;
      return li;
    }));
    $(".pt-log-count").textContent = String(history.length);
    $('[data-pt="undo"]').disabled = history.length === 0;
  }

  /** Save the fight; another tab's newer save is never overwritten (the GM is asked). */
  async function save() {
    const problem = store.save(history);
    if (problem === "conflict") {
      await resolveConflict();
      return;
    }
    const before = saveProblem;
    saveProblem = problem ? SAVE_PROBLEMS[/** @type {"full"} */ (problem)] : "";
    unsaved = Boolean(problem);
    if (before && !saveProblem) notice("Saved again: the fight is stored in this browser.");
    if (live && before !== saveProblem) {
      bridge.setStatus(root, "ready", saveProblem ? "The tracker is live, but this fight is not being saved (see below)."
        : "The tracker is live; the fight is kept in this browser.");
    }
    if (!problem) askPersist(store.area).then((answer) => {
      if (answer === "refused-first") { persistText = PERSIST_REFUSED; renderStorage(); }
    }).catch(() => {});
    renderStorage();
  }

  /** Both tabs changed the fight: keep both, one as the fight and one aside. */
  async function resolveConflict() {
    const theirs = store.theirs();
    if (!theirs) { await save(); return; }
    const choice = await ask($(".pt-ask"), {
      title: "The fight was changed in another tab",
      text: "This tab's fight and the other tab's have both moved on. Use the other tab's fight (this tab's is kept "
        + "aside as a copy you can download), or keep this tab's (the other tab's is kept aside).",
      choices: [["theirs", "Use the other tab's fight"], ["mine", "Keep this tab's fight"]],
      cancel: "theirs",
    });
    const mine = store.text(history);
    if (choice === "mine") {
      if (theirs.raw !== null) store.kept.keep(theirs.raw);
      store.adopt(theirs.raw);
      const problem = store.save(history, { force: true });
      saveProblem = problem && problem !== "conflict" ? SAVE_PROBLEMS[/** @type {"full"} */ (problem)] : "";
      notice("This tab's fight is kept; the other tab's is kept aside below.");
    } else {
      store.kept.keep(mine);
      store.adopt(theirs.raw);
      history = theirs.history;
      unsaved = false;
      notice("This tab now shows the other tab's fight; this tab's is kept aside below.");
      if (current()) await restore("The fight from the other tab is shown.");
    }
    render();
  }

  /** Run one event through the core and record the step.
   *  @param {Record<string, unknown>} event @param {string} [op] */
  async function send(event, op = "run") {
    if (busy) return null;
    busy = true;
    root._busy = true;
    /** @type {NodeListOf<HTMLButtonElement>} */
    const buttons = root.querySelectorAll("button");
    buttons.forEach((b) => { b.dataset.wasDisabled = String(b.disabled); b.disabled = true; });
    try {
      const entry = current();
      /** @type {Record<string, unknown>} */
      const inputs = { event };
      if (entry && event.type !== "start") inputs.state = entry.state;
      const reply = op === "roll" ? await bridge.roll(root, CALC, inputs) : await bridge.run(root, CALC, inputs);
      if (!reply.ok) {
        showError(reply.error.message);
        return null;
      }
      showError("");
      const report = reply.result.report;
      if (report.event === "action" || report.phase_ended) $("#pt-extra").checked = false;
      if (report.event !== "look") {
        if (report.event === "start") history = [];
        history.push({ state: reply.result.state, view: reply.result.view, text: report.text,
                       round: report.round, phase: report.phase });
        if (history.length > maxHistory) history = history.slice(-maxHistory);
        await save();
      }
      return reply;
    } catch (err) {
      bridge.runtimeFailed(root, err);
      return null;
    } finally {
      busy = false;
      root._busy = false;
      buttons.forEach((b) => { b.disabled = b.dataset.wasDisabled === "true"; });
      render();
    }
  }

  function setupValues() {
    return {
      offense_dice: parseInt($("#pt-offense").value, 10),
      defence_dice: parseInt($("#pt-defence").value, 10),
    };
  }

  function actionEvent() {
    /** @type {Record<string, unknown>} */
    const event = { type: "action", extra_die: $("#pt-extra").checked && !$("#pt-extra").disabled };
    const note = $("#pt-note").value.trim();
    if (note) event.note = note.slice(0, 200);
    return event;
  }

  /** The fight as a file, and back. */
  function exportFight() {
    download("fight.phases.json", store.text(history, 2));
  }

  /** @param {File} file */
  async function importFight(file) {
    const text = file.size > data.max_file_chars ? null : await file.text();
    const checked = text === null ? null : guardedParse(text, { maxChars: data.max_file_chars, maxDepth: data.max_depth });
    const read = checked && checked.ok && text !== null ? readFight(text, data) : null;
    if (!read || read.whole || !read.history.length) {
      showError(`${file.name} is not a fight saved by this tracker; nothing was changed.`);
      return;
    }
    const before = history;
    history = read.history;
    if (await restore(`The fight from ${file.name} is loaded.`)) {
      if (before.length) store.kept.keep(store.text(before));
      await save();
      notice(before.length ? "The fight you had is kept aside below." : "");
    } else history = before;
    render();
  }

  /** @type {Record<string, (button: HTMLElement) => Promise<unknown> | unknown>} */
  const actions = {
    start: async () => {
      const goal = $("#pt-goal").value.trim();
      await send({ type: "start", ...setupValues(), first_phase: $("#pt-first").value,
                   goal_spaces: /^\d+$/.test(goal) ? parseInt(goal, 10) : goal || 0 });
    },
    "set-pools": () => send({ type: "set_pools", ...setupValues() }),
    roll: async () => { if (await send(actionEvent(), "roll")) $("#pt-note").value = ""; },
    enter: async () => {
      const text = $("#pt-faces").value.trim();
      if (!text) {
        showError("Type the dice the table rolled, e.g. 6 4, or press Roll the action.");
        return;
      }
      if (await send({ ...actionEvent(), faces: parseFaces(text) })) {
        $("#pt-faces").value = "";
        $("#pt-note").value = "";
      }
    },
    "end-phase": () => send({ type: "end_phase" }),
    "add-die": () => send({ type: "adjust", change: 1 }),
    "remove-die": () => send({ type: "adjust", change: -1 }),
    undo: async () => {
      if (busy) return;
      history.pop();
      showError("");
      if (current()) await restore("Undone.");
      await save(); // after any refused step was dropped (and the fight kept aside)
      render();
    },
    new: async () => {
      if (history.length) store.kept.keep(store.text(history));
      history = [];
      await save();
      showError("");
      notice(store.kept.keys().length ? "The previous fight is kept aside below until you delete it." : "");
      render();
    },
    export: () => exportFight(),
    "kept-download": (button) => {
      const key = /** @type {HTMLElement} */ (button.closest("li")).dataset.key || "";
      const text = key === FIGHT_KEY ? store.readRaw() : store.kept.text(key);
      if (text !== null) download(`fight-kept${key.slice(KEPT_PREFIX.length).replace(/[^a-z0-9-]/gi, "-")}.json`, text);
    },
    "kept-delete": async (button) => {
      const key = /** @type {HTMLElement} */ (button.closest("li")).dataset.key || "";
      const choice = await ask($(".pt-ask"), { title: "Delete this kept copy?",
        text: "Once deleted it cannot be brought back; download it first if you may need it.",
        choices: [["keep", "Keep it"], ["delete", "Delete"]], cancel: "keep" });
      if (choice === "delete") {
        store.dropKept(key);
        if (key === FIGHT_KEY) await save();
      }
      renderStorage();
    },
  };

  root.addEventListener("click", (e) => {
    const button = /** @type {HTMLElement | null} */ (e.target instanceof Element ? e.target.closest("button[data-pt]") : null);
    if (!button || !root.contains(button)) return;
    const action = actions[button.dataset.pt || ""];
    if (action) Promise.resolve(action(button)).catch((err) => bridge.runtimeFailed(root, err));
  });
  root.querySelectorAll("form").forEach((form) => form.addEventListener("submit", (e) => e.preventDefault()));
  $(".pt-import").addEventListener("change", (/** @type {Event} */ e) => {
    const input = /** @type {HTMLInputElement} */ (e.target);
    const file = input.files && input.files[0];
    input.value = "";
    if (file) importFight(file).catch((err) => bridge.runtimeFailed(root, err));
  });

  /** Check the current step's state with the core (a "look" event changes nothing). A
   *  step the core refuses is dropped from the end, back to the last one it accepts,
   *  after a copy of the fight as it was (``asWas()``, by default the history now; null:
   *  a copy is kept already) is kept aside. The copy is made only when a step is dropped.
   *  @param {string} okText @param {(() => string | null) | null} [asWas] */
  async function restore(okText, asWas = () => store.text(history)) {
    busy = true;
    root._busy = true;
    let dropped = 0;
    try {
      while (current()) {
        const entry = /** @type {Step} */ (current());
        const reply = await bridge.run(root, CALC, { state: entry.state, event: { type: "look" } });
        if (reply.ok) {
          entry.view = reply.result.view; // as the current rules engine words it
          $("#pt-offense").value = String(reply.result.state.offense_dice);
          $("#pt-defence").value = String(reply.result.state.defence_dice);
          break;
        }
        if (!dropped) {
          showError(`The saved fight's last step was refused by the rules engine (${reply.error.message}).`);
          const copy = asWas && asWas();
          if (copy && store.kept.keep(copy) !== null) {
            notice("The saved fight's last step(s) were refused by the rules engine; a copy of the fight as it was is kept aside below.");
          }
        }
        history.pop();
        dropped += 1;
      }
    } catch (err) {
      bridge.runtimeFailed(root, err);
      return false;
    } finally {
      busy = false;
      root._busy = false;
    }
    if (live) bridge.setStatus(root, "ready", okText);
    return dropped === 0 || Boolean(current());
  }

  // another tab saved: take its fight when this tab has nothing unsaved, else ask
  let syncing = false;
  async function onStorage(/** @type {StorageEvent} */ event) {
    if (!root.isConnected) { window.removeEventListener("storage", onStorage); return; }
    if (event.key !== null && event.key !== FIGHT_KEY && !event.key.startsWith(KEPT_PREFIX)) return;
    if (event.key && event.key.startsWith(KEPT_PREFIX)) { renderStorage(); return; }
    if (syncing || busy) {
      setTimeout(() => { onStorage(event).catch((err) => bridge.runtimeFailed(root, err)); }, 50);
      return;
    }
    const theirs = store.theirs();
    if (!theirs) return;
    syncing = true;
    root._busy = true;
    try {
      if (unsaved) await resolveConflict();
      else {
        store.adopt(theirs.raw);
        history = theirs.history;
        if (current()) await restore("The fight was updated from another tab.");
        notice("The fight was updated from another tab.");
        render();
      }
    } finally {
      syncing = false;
      root._busy = false;
    }
  }
  window.addEventListener("storage", (e) => { onStorage(e).catch((err) => bridge.runtimeFailed(root, err)); });

  // Start the runtime and check the saved fight with the core itself.
  bridge.setStatus(root, "loading", "Starting the rules engine…");
  root._busy = true;
  const loaded = store.load();
  history = loaded.history;
  if (loaded.error) saveProblem = SAVE_PROBLEMS[/** @type {"full"} */ (loaded.error)];
  if (loaded.problems.length) {
    notice(`Some of the fight saved in this browser could not be read (${loaded.problems.join("; ")}). `
      + (loaded.kept ? "A copy of it as it was is kept aside below; " : "There was no room to copy it, so it was left where it was; ")
      + (history.length ? "the rest was loaded." : "start a new fight."));
  }
  // the part that needs the runtime: run again by itself once the runtime is back
  const startUp = async () => {
    root._busy = true;
    try {
      // a fight read with problems has its copy kept already
      if (current()) {
        await restore("The fight saved in this browser was restored.", loaded.problems.length ? null : () => store.readRaw());
      }
      if (!current()) await bridge.run(root, CALC, { event: { type: "start", offense_dice: 5, defence_dice: 5 } });
    } catch (err) {
      root._busy = false;
      bridge.startUpFailed(root, err, startUp);
      return;
    }
    live = true;
    root._busy = false;
    bridge.setStatus(root, "ready", saveProblem ? "The tracker is live, but this fight is not being saved (see below)."
      : history.length ? "The fight saved in this browser was restored." : "The tracker is live; the fight is kept in this browser.");
    render();
  };
  await startUp();
}
