// The action dice tracker (2d6 combat phases). Every change of state goes through the
// rules core's `phases.tracker` (state + event -> next state) in the shared worker; this
// module only keeps the history (for undo and the log) in localStorage and shows it.
// All text reaches the page through textContent.
const CALC = "phases.tracker";
const STORAGE_KEY = "phases-tracker:v1";
const MAX_HISTORY = 300;

function load() {
  let raw;
  try {
    raw = localStorage.getItem(STORAGE_KEY);
  } catch {
    return { history: [], problem: null };
  }
  if (raw === null) return { history: [], problem: null };
  try {
    const data = JSON.parse(raw);
    if (!data || typeof data !== "object" || data.version !== 1 || !Array.isArray(data.history)) {
      throw new Error("it is not a saved fight");
    }
    for (const entry of data.history) {
      if (!entry || typeof entry !== "object" || !entry.state || typeof entry.state !== "object"
          || !entry.view || typeof entry.view !== "object" || typeof entry.text !== "string") {
        throw new Error("an entry of its log is damaged");
      }
    }
    return { history: data.history.slice(-MAX_HISTORY), problem: null };
  } catch (err) {
    return { history: [], problem: err && err.message ? err.message : String(err) };
  }
}

function save(history) {
  try {
    if (history.length) {
      localStorage.setItem(STORAGE_KEY, JSON.stringify({ version: 1, history: history.slice(-MAX_HISTORY) }));
    } else {
      localStorage.removeItem(STORAGE_KEY);
    }
  } catch {
    /* storage full or blocked: the fight still works for this page view */
  }
}

function parseFaces(text) {
  const parts = text.split(/[\s,;+]+/).filter(Boolean);
  // numbers go as numbers; anything else is sent as received so the core names it
  return parts.map((p) => (/^\d+$/.test(p) ? parseInt(p, 10) : p));
}

export async function mount(root, bridge) {
  const $ = (sel) => root.querySelector(sel);
  const setup = $(".pt-setup");
  const board = $(".pt-board");
  const error = $(".pt-error");
  let { history, problem } = load();
  let busy = false;

  const current = () => (history.length ? history[history.length - 1] : null);

  function showError(text) {
    error.textContent = text;
    error.hidden = !text;
  }

  function render() {
    const entry = current();
    root.dataset.phase = entry ? entry.view.phase : "";
    board.hidden = !entry;
    $('[data-pt="set-pools"]').hidden = !entry;
    $('[data-pt="start"]').textContent = entry ? "Restart the fight" : "Start the fight";
    if (!entry) return;
    const view = entry.view;
    $(".pt-round").textContent = String(view.round);
    $(".pt-phase").textContent = view.phase_label;
    $(".pt-left").textContent = String(view.dice_left);
    $(".pt-turn").textContent = view.turn;
    $(".pt-next").textContent = view.next_action;
    $(".pt-extra-label").textContent = view.extra_label;
    const extra = $("#pt-extra");
    extra.disabled = view.extra_die !== "optional";
    if (view.extra_die === "automatic") extra.checked = true;
    else if (view.extra_die === "none") extra.checked = false;
    const dice = $(".pt-dice");
    dice.replaceChildren(...Array.from({ length: Math.min(view.dice_left, 12) }, () => {
      const span = document.createElement("span");
      span.className = "calc-die pt-die";
      return span;
    }));
    const goalBox = $(".pt-goal-box");
    goalBox.hidden = !view.goal;
    if (view.goal) {
      $(".pt-goal").textContent = `${view.goal.marked} / ${view.goal.spaces}` +
        (view.goal.complete ? " (reached)" : "");
    }
    $(".pt-last").textContent = entry.text;
    const log = $(".pt-log");
    log.replaceChildren(...history.slice().reverse().map((e) => {
      const li = document.createElement("li");
      li.textContent = `Round ${e.round} · ${e.text}`;
      return li;
    }));
    $(".pt-log-count").textContent = String(history.length);
    $('[data-pt="undo"]').disabled = history.length === 0;
  }

  async function send(event, op = "run") {
    if (busy) return null;
    busy = true;
    root._busy = true;
    root.querySelectorAll("button").forEach((b) => { b.dataset.wasDisabled = b.disabled; b.disabled = true; });
    try {
      const entry = current();
      const inputs = { event };
      if (entry && event.type !== "start") inputs.state = entry.state;
      const reply = op === "roll" ? await bridge.roll(root, CALC, inputs) : await bridge.run(root, CALC, inputs);
      if (!reply.ok) {
        showError(`${reply.error.field}: ${reply.error.message}`);
        return null;
      }
      showError("");
      const report = reply.result.report;
      if (report.event === "action" || report.phase_ended) $("#pt-extra").checked = false;
      if (report.event !== "look") {
        if (report.event === "start") history = [];
        history.push({ state: reply.result.state, view: reply.result.view, text: report.text,
                       round: report.round, phase: report.phase });
        if (history.length > MAX_HISTORY) history = history.slice(-MAX_HISTORY);
        save(history);
      }
      bridge.setStatus(root, "ready", "The tracker is live; the fight is kept in this browser.");
      return reply;
    } catch (err) {
      bridge.runtimeFailed(root, err);
      return null;
    } finally {
      busy = false;
      root._busy = false;
      root.querySelectorAll("button").forEach((b) => { b.disabled = b.dataset.wasDisabled === "true"; });
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
    const event = { type: "action", extra_die: $("#pt-extra").checked && !$("#pt-extra").disabled };
    const note = $("#pt-note").value.trim();
    if (note) event.note = note.slice(0, 200);
    return event;
  }

  root.addEventListener("click", async (e) => {
    const button = e.target.closest("button[data-pt]");
    if (!button || !root.contains(button)) return;
    const action = button.dataset.pt;
    if (action === "start") {
      const goal = $("#pt-goal").value.trim();
      await send({ type: "start", ...setupValues(), first_phase: $("#pt-first").value,
                   goal_spaces: /^\d+$/.test(goal) ? parseInt(goal, 10) : goal || 0 });
    } else if (action === "set-pools") {
      await send({ type: "set_pools", ...setupValues() });
    } else if (action === "roll") {
      if (await send(actionEvent(), "roll")) $("#pt-note").value = "";
    } else if (action === "enter") {
      const text = $("#pt-faces").value.trim();
      if (!text) {
        showError("Type the dice the table rolled, e.g. 6 4, or press Roll the action.");
        return;
      }
      if (await send({ ...actionEvent(), faces: parseFaces(text) })) {
        $("#pt-faces").value = "";
        $("#pt-note").value = "";
      }
    } else if (action === "end-phase") {
      await send({ type: "end_phase" });
    } else if (action === "add-die" || action === "remove-die") {
      await send({ type: "adjust", change: action === "add-die" ? 1 : -1 });
    } else if (action === "undo") {
      if (busy) return;
      history.pop();
      save(history);
      showError("");
      if (current()) await restore("Undone.");
      render();
    } else if (action === "new") {
      history = [];
      save(history);
      showError("");
      render();
    }
  });
  root.querySelectorAll("form").forEach((form) => form.addEventListener("submit", (e) => e.preventDefault()));

  function clearDamaged(why) {
    history = [];
    save(history);
    showError(`The fight saved in this browser could not be read (${why}), so it was cleared. Start a new one.`);
  }

  /** Check the current entry's state with the core (a "look" event changes nothing). */
  async function restore(okText) {
    const entry = current();
    let reply;
    busy = true;
    root._busy = true;
    try {
      reply = await bridge.run(root, CALC, { state: entry.state, event: { type: "look" } });
    } catch (err) {
      bridge.runtimeFailed(root, err);
      return false;
    } finally {
      busy = false;
      root._busy = false;
    }
    if (!reply.ok) {
      clearDamaged(`${reply.error.field}: ${reply.error.message}`);
      bridge.setStatus(root, "ready", "The tracker is live.");
      return false;
    }
    entry.view = reply.result.view; // as the current rules engine words it
    $("#pt-offense").value = String(reply.result.state.offense_dice);
    $("#pt-defence").value = String(reply.result.state.defence_dice);
    bridge.setStatus(root, "ready", okText);
    return true;
  }

  // Start the runtime and check the saved fight with the core itself.
  bridge.setStatus(root, "loading", "Starting the rules engine…");
  root._busy = true;
  if (problem) clearDamaged(problem);
  if (current()) {
    await restore("The fight saved in this browser was restored.");
  } else {
    try {
      await bridge.run(root, CALC, { event: { type: "start", offense_dice: 5, defence_dice: 5 } });
    } catch (err) {
      root._busy = false;
      bridge.runtimeFailed(root, err);
      return;
    }
    root._busy = false;
    bridge.setStatus(root, "ready", "The tracker is live; the fight is kept in this browser.");
  }
  render();
}
