// A player's phone: the character's panel, refreshed with the screen; its steps carry the
// link's token in a header (never a cookie), so a page of another site cannot forge one.
// A step is the JSON the docs describe: {seen, command_id, action, targets, fields, dice}.
"use strict";
(function () {
  const body = document.body;
  const base = body.dataset.base;
  const token = body.dataset.token;
  const panel = document.getElementById("panel");
  const refusal = document.getElementById("refusal");
  // What the player chose, kept while the panel is drawn again (a refusal, a new step).
  const kept = { action: null, values: {}, refused: null };
  let acting = null;

  function newId() {
    const bytes = new Uint8Array(16);
    crypto.getRandomValues(bytes);
    return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
  }

  function seen() { return Number(panel.querySelector(".me").dataset.seen); }

  // One panel request at a time, and one more after it if the screen moved meanwhile; a
  // caller waits for a drawing begun after its call (a 409's refusal is said on it).
  let drawing = null, queued = null;
  function refresh() {
    if (!drawing) {
      drawing = draw().finally(() => { drawing = null; });
      return drawing;
    }
    if (!queued) queued = drawing.catch(() => {}).then(() => { queued = null; return refresh(); });
    return queued;
  }
  async function draw() {
    const response = await fetch(base + "/panel", { cache: "no-store" });
    if (response.status === 403) { gone(await response.text()); return; }
    if (!response.ok) { setTimeout(refresh, 1000); return; }  // busy (429) or failing: again
    const html = await response.text();
    keep();
    const held = buttonsTop();
    panel.innerHTML = html;
    wire();
    forget();
    sayAgain();
    holdButtons(held);
    if (cue) { cue.scrollIntoView({ block: "start" }); cue = null; }  // a chance offered, a turn come
    document.dispatchEvent(new Event("fracas:panel"));
  }

  // The link was revoked: its line alone, and the page stops asking for the table.
  function gone(line) {
    refusal.textContent = line.trim();
    panel.innerHTML = "";
    body.classList.add("revoked");
    document.dispatchEvent(new Event("fracas:gone"));
  }

  function chosenSet() {
    return kept.action && panel.querySelector(`fieldset.chosen[data-action="${kept.action}"]`);
  }

  // A refusal's line goes beside the button that was pressed: `near` names the line's
  // place (looked up after the panel is drawn again), else the chosen action's, else the top.
  function say(line, near) {
    kept.refused = { line, near, seen: seen() };
    placed(line, near).scrollIntoView({ block: "center" });
  }
  function placed(line, near) {
    const set = chosenSet() || document.getElementById("react");
    const where = (near && panel.querySelector(near)) || (set && set.querySelector(".refused")) || refusal;
    where.textContent = line;
    return where;
  }
  // A refusal answers the attempt it was said on: it stays beside its button while the
  // panel is drawn again for the fight as it stood (a push, the waiting poll), and the
  // player corrects the form; once the panel stands after another step (the GM's, the
  // next turn) it is gone, from beside its button and from the top of the page.
  function forget() {
    if (!kept.refused || kept.refused.seen === seen()) return;
    kept.refused = null;
    refusal.textContent = "";
  }
  function sayAgain() {
    if (kept.refused) placed(kept.refused.line, kept.refused.near);
  }

  // The player's buttons stay where they were on the screen when the panel is drawn
  // again (shorter or taller, a form closed): the page never jumps away from them; after
  // a step lands they are brought into view if the player had scrolled down past them.
  function buttons() { return panel.querySelector(".actions") || panel; }
  function buttonsTop() { return buttons().getBoundingClientRect().top; }
  function holdButtons(top) {
    const moved = buttonsTop() - top;
    if (moved) window.scrollBy(0, moved);
  }
  function keepButtonsInView() {
    const top = buttonsTop();
    if (top < 0 || top > innerHeight) window.scrollBy(0, top - 8);  // a little room above
  }
  // What came of a step that landed is in sight once the panel stands after it: the
  // character's latest line, or the step's wait for the GM's nod (above the buttons).
  function showResult(pending) {
    const line = pending ? [...panel.querySelectorAll(".waiting")].pop() : panel.querySelector("#latest");
    if (line) line.scrollIntoView({ block: "nearest" });
  }

  async function send(step, near) {
    kept.refused = null;
    panel.querySelectorAll(".refused").forEach((line) => { line.textContent = ""; });  // stale
    const response = await fetch(base + "/act", {
      method: "POST",
      headers: { "X-Fracas-Token": token, "Content-Type": "application/json" },
      body: JSON.stringify({ seen: seen(), command_id: newId(), ...step }),
    });
    if (response.ok) {
      kept.action = null; kept.values = {};
      refusal.textContent = "";
      const answer = await response.json().catch(() => ({}));
      await refresh();
      keepButtonsInView();
      showResult(Boolean(answer.pending));
      return;
    }
    const line = await response.text();
    if (response.status === 403 && body.classList.contains("revoked")) return;
    if (response.status === 409) await refresh();  // the fight moved on: look again
    say(line.trim(), near);
  }

  function inputs(set) {
    return set.querySelectorAll("[data-field], [data-target], [data-dice], [data-times]");
  }

  function keyOf(input) {
    if (input.dataset.dice !== undefined) return "dice";
    if (input.dataset.target !== undefined) return "targets";
    if (input.dataset.times !== undefined) return "times:" + input.dataset.times;
    if (input.dataset.key !== undefined) return input.dataset.field + ":" + input.dataset.key;
    return input.dataset.field;
  }

  function keep() {
    const set = chosenSet();
    if (!set) return;
    const values = {};
    inputs(set).forEach((input) => {
      const key = keyOf(input);
      if (key === "targets") { if (input.checked) (values.targets = values.targets || []).push(input.value); }
      else if (input.type === "radio") { if (input.checked) values[key] = input.value; }
      else values[key] = input.type === "checkbox" ? input.checked : input.value;
    });
    kept.values = values;
  }

  function restore(set) {
    inputs(set).forEach((input) => {
      const key = keyOf(input);
      if (!(key in kept.values)) return;
      const value = kept.values[key];
      if (key === "targets") input.checked = value.includes(input.value);
      else if (input.type === "radio") input.checked = input.value === value;
      else if (input.type === "checkbox") input.checked = value;
      else input.value = value;
    });
  }

  // A part that applies only with some values of another field (range: with a ranged
  // weapon; how many darts: with a spell of darts) shows then alone, and sends nothing else.
  function applies(set) {
    set.querySelectorAll("[data-when]").forEach((part) => {
      const source = set.querySelector(`[data-field="${part.dataset.when}"]`);
      part.hidden = !(source && JSON.parse(part.dataset.values).includes(source.value));
    });
    least(set);
  }

  // A slot for a levelled spell: its own level and up (with a slot left) alone, never
  // none; `fresh` (another spell chosen): the lowest of them.
  function least(set, fresh) {
    set.querySelectorAll("select[data-least]").forEach((select) => {
      const part = select.closest("[data-when]");
      const source = part && set.querySelector(`[data-field="${part.dataset.when}"]`);
      const from = (source && JSON.parse(select.dataset.least)[source.value]) || 1;
      const options = [...select.options];
      options.forEach((o) => { o.hidden = o.disabled = Number(o.value) < from; });
      const now = options.find((o) => o.value === select.value);
      if (fresh || !now || now.disabled) {
        const first = options.find((o) => !o.disabled);
        select.value = first ? first.value : "";
      }
    });
  }

  // Where the ruleset says how many times an action names its targets in all (magic
  // missile's darts, by the spell and the slot's level), the boxes of how many at each
  // target tapped start shared out to add up to it; the player may change them.
  function share(set) {
    if (!set.dataset.totals) return;
    const by = set.querySelector(`[data-field="${set.dataset.totalsBy}"]`);
    const totals = JSON.parse(set.dataset.totals)[by ? by.value : ""];
    if (!totals) return;
    const level = set.querySelector("[data-counted]");
    const said = level && !level.closest("[data-when][hidden]") ? level.value : "";
    const total = totals[said] ?? totals[""];
    const boxes = [...set.querySelectorAll("[data-target]:checked")]
      .map((target) => set.querySelector(`[data-times="${target.value}"]`)).filter(Boolean);
    boxes.forEach((box, n) => {
      box.value = Math.floor(total / boxes.length) + (n < total % boxes.length ? 1 : 0);
    });
    counted(set);
  }

  // How many in all a spell of darts shoots at the level chosen ({"": at its own level,
  // "2": from a level 2 slot, ...}), or undefined where the action counts none.
  function totalOf(set) {
    if (!set.dataset.totals) return undefined;
    const by = set.querySelector(`[data-field="${set.dataset.totalsBy}"]`);
    const totals = JSON.parse(set.dataset.totals)[by ? by.value : ""];
    if (!totals) return undefined;
    const level = set.querySelector("[data-counted]");
    const said = level && !level.closest("[data-when][hidden]") ? level.value : "";
    return totals[said] ?? totals[""];
  }

  // The darts' running total under the boxes: "darts: 3 of 3".
  function counted(set) {
    const line = set.querySelector("[data-times-total]");
    if (!line) return;
    const total = totalOf(set);
    const boxes = [...set.querySelectorAll("[data-target]:checked")]
      .map((target) => set.querySelector(`[data-times="${target.value}"]`)).filter(Boolean);
    line.hidden = total === undefined || !boxes.length;
    const sum = boxes.reduce((n, box) => n + (Number(box.value) || 0), 0);
    line.textContent = `darts: ${sum} of ${total}`;
    line.classList.toggle("off", sum !== total);
  }

  // A spell counted by level (darts) starts at the lowest level it may be cast with a
  // slot left, not unsaid.
  function lowest(set) {
    if (!set.dataset.totals) return;
    const by = set.querySelector(`[data-field="${set.dataset.totalsBy}"]`);
    const totals = JSON.parse(set.dataset.totals)[by ? by.value : ""];
    const level = set.querySelector("[data-counted]");
    if (!totals || !level || level.value !== "") return;
    const first = [...level.options].find((o) => o.value !== "" && o.value in totals);
    if (first) level.value = first.value;
  }

  function choose(form, action) {
    kept.action = action;
    form.querySelectorAll("button.action").forEach((button) => {
      button.setAttribute("aria-pressed", String(button.dataset.action === action));
    });
    form.querySelectorAll("fieldset.chosen").forEach((set) => {
      set.hidden = set.dataset.action !== action;
      if (!set.hidden) applies(set);
    });
  }

  function stepOf(set) {
    // a second form of one action (a bonus action's Dash) sends its action and fixed fields
    const step = { action: set.dataset.sends || set.dataset.action, fields: JSON.parse(set.dataset.fixed || "{}") };
    const targets = [];
    set.querySelectorAll("[data-target]:checked").forEach((input) => {
      const times = set.querySelector(`[data-times="${input.value}"]`);  // darts: one a name
      const count = times && !times.hidden ? Math.max(1, Math.min(16, Number(times.value) || 1)) : 1;
      for (let n = 0; n < count; n++) targets.push(input.value);
    });
    if (set.dataset.targets === "yes" && targets.length) step.targets = targets;
    set.querySelectorAll("[data-field]").forEach((input) => {
      if (input.closest("[data-when][hidden]")) return;  // it does not apply: unsaid
      const name = input.dataset.field, kind = input.dataset.kind;
      if (kind === "maybe") { if (input.checked && input.value) step.fields[name] = input.value === "yes"; }
      else if (kind === "several") { if (input.checked) (step.fields[name] = step.fields[name] || []).push(input.value); }
      else if (kind === "counts") {  // how many of each (dice kept for a dodge): those given some
        if (input.value !== "" && Number(input.value) !== 0) (step.fields[name] = step.fields[name] || {})[input.dataset.key] = Number(input.value);
      }
      else if (kind === "each") return;  // a number beside each target tapped: below
      else if (input.type === "radio") { if (input.checked && input.value) step.fields[name] = input.value; }
      else if (kind === "check") {
        // only what differs from the rules' own default is said
        if (input.checked !== (input.dataset.default === "yes")) step.fields[name] = input.checked;
      }
      else if (input.value !== "") step.fields[name] = kind === "int" ? Number(input.value) : input.value;
    });
    // a number at each target tapped, in the order tapped (a split pool's dice at each);
    // none typed: unsaid (the rules share them out)
    const each = {};
    set.querySelectorAll('[data-kind="each"]').forEach((input) => {
      if (input.closest("[data-when][hidden]")) return;
      (each[input.dataset.field] = each[input.dataset.field] || {})[input.dataset.key] = input.value.trim();
    });
    Object.entries(each).forEach(([name, by]) => {
      const said = targets.map((who) => by[who] ?? "");
      if (said.some((v) => v !== "")) step.fields[name] = said.map((v) => (/^\d+$/.test(v) ? Number(v) : v));
    });
    const box = set.querySelector("[data-dice]");
    const dice = box ? box.value.trim() : "";
    if (dice) step.dice = dice.split(/[ ,]+/).map(Number);
    return step;
  }

  // The dice box's help says every roll of the character's the action as filled in takes,
  // in order, as the server counts typed faces (it decides the step to find them); until
  // the form says enough (a target), the ruleset's words for the action.
  let asking = 0;
  async function diceSaid(set) {
    const said = set && set.querySelector("[data-dice-said]");
    if (!said) return;
    const { dice, ...draft } = stepOf(set);
    const ask = ++asking;
    let words = said.dataset.rules;
    try {
      const response = await fetch(base + "/dice", {
        method: "POST",
        headers: { "X-Fracas-Token": token, "Content-Type": "application/json" },
        body: JSON.stringify(draft),
      });
      // a form not yet complete (no target yet): the ruleset's words stand
      if (response.ok) words = (await response.json()).dice || words;
    } catch (error) { /* offline: the ruleset's words */ }
    if (ask === asking) said.textContent = words;
  }

  let asked = false, chance = null, cue = null, turn = null;
  function yourTurn() {
    const me = panel.querySelector(".me");
    const now = Boolean(me && me.dataset.acting === "yes");
    const waits = Boolean(me && me.dataset.asked === "yes");
    // a reaction offered for a moment (a foe leaving reach): cued as a turn is
    const offered = Boolean(me && me.dataset.chance === "yes") && !now && !waits;
    body.classList.toggle("chance", offered);
    if (offered && chance === false) {
      cue = me.querySelector("#your-chance");
      if (navigator.vibrate) navigator.vibrate([200, 100, 200]);
    }
    chance = offered;
    // the turn just come round: "Your turn" into view, wherever the player had scrolled
    // (once: a redraw while the turn goes on leaves the page where the player has it)
    const mine = now && !waits;
    if (mine && turn === false) cue = me.querySelector("#your-turn");
    turn = mine;
    body.classList.toggle("my-turn", mine);
    body.classList.toggle("asked", waits);  // the reaction asked is the one thing on screen
    if (now && acting === false && navigator.vibrate) navigator.vibrate([200, 100, 200]);
    if (waits && !asked && navigator.vibrate) navigator.vibrate([400, 100, 400]);
    if (waits && !asked) window.scrollTo(0, 0);
    acting = now;
    asked = waits;
  }

  // The time left to answer an attack, counted down each second.
  function countDown() {
    const clock = panel.querySelector(".countdown[data-deadline]");
    if (!clock) return;
    const left = Math.max(0, Math.round((Date.parse(clock.dataset.deadline) - Date.now()) / 1000));
    clock.textContent = left > 0 ? `${left} s left to answer` : "Time is up: the rules decide";
    clock.classList.toggle("late", left <= 5);
  }
  setInterval(countDown, 1000);

  function wire() {
    yourTurn();
    countDown();
    const form = document.getElementById("act");
    if (form) {
      form.querySelectorAll("button.action").forEach((button) =>
        button.addEventListener("click", () => {
          choose(form, button.dataset.action);
          diceSaid(chosenSet());
          // an action with nothing to fill in (End turn) goes at once; its take-back is offered
          if (button.hasAttribute("data-at-once")) send(stepOf(chosenSet()));
          // the form it opens, its top at the top as far as the page scrolls (a tap, not a redraw)
          else if (chosenSet()) chosenSet().scrollIntoView({ block: "start" });
        }));
      const set = chosenSet();
      if (set) { choose(form, kept.action); restore(set); applies(set); diceSaid(set); } else kept.action = null;
      form.addEventListener("change", (event) => {
        const chosen = chosenSet();
        if (!chosen) return;
        applies(chosen);
        const part = chosen.querySelector("select[data-least]")?.closest("[data-when]");
        if (part && event.target.matches(`[data-field="${part.dataset.when}"]`)) least(chosen, true);
        if (event.target.matches(`[data-field="${chosen.dataset.totalsBy}"]`)) lowest(chosen);
        if (!event.target.matches("[data-times]")) share(chosen);  // the player's own split stays
        else counted(chosen);
        if (!event.target.matches("[data-dice]")) diceSaid(chosen);
      });
      form.addEventListener("submit", (event) => {
        event.preventDefault();
        const set = chosenSet();
        if (set) { keep(); send(stepOf(set)); }
      });
    }
    const react = document.getElementById("react");
    if (react) react.querySelectorAll("button[data-choice]").forEach((button) =>
      button.addEventListener("click", () => {
        send({ action: "answer", fields: { choice: button.dataset.choice } })
      }));
    const undo = document.getElementById("undo");
    if (undo) undo.addEventListener("click", () => send({ action: "undo" }, "#undo-refused"));
  }

  // The screen stays awake while the page is open (asked again when the page comes back).
  async function awake() {
    if (!("wakeLock" in navigator) || document.visibilityState !== "visible") return;
    try { await navigator.wakeLock.request("screen"); } catch (error) { /* refused: fine */ }
  }
  document.addEventListener("visibilitychange", awake);
  awake();

  // A step waiting for the GM's nod: look again until it is answered (a refusal moves no log).
  setInterval(() => { if (panel.querySelector(".waiting")) refresh(); }, 2000);
  document.addEventListener("fracas:screen", () => { refresh(); });
  document.addEventListener("fracas:closed", refresh);
  document.addEventListener("fracas:ended", (event) => gone(event.detail));
  wire();
})();
