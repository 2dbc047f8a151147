// A player's phone: the character's panel, refreshed with the screen; its steps carry the
// link's token in a header (never a cookie), so a page of another site cannot forge one.
"use strict";
(function () {
  const body = document.body;
  const base = body.dataset.base;
  const token = body.dataset.token;
  const panel = document.getElementById("panel");
  const refusal = document.getElementById("refusal");

  function newId() {
    const bytes = new Uint8Array(16);
    crypto.getRandomValues(bytes);
    return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
  }

  function seen() { return Number(panel.querySelector(".me").dataset.seen); }

  // One panel request at a time, and one more after it if the screen moved meanwhile.
  let fetching = false, again = false;
  async function refresh() {
    if (fetching) { again = true; return; }
    fetching = true;
    try {
      const response = await fetch(base + "/panel", { cache: "no-store" });
      if (response.status === 403) { gone(await response.text()); return; }
      if (response.ok) { panel.innerHTML = await response.text(); wire(); }
    } finally {
      fetching = false;
      if (again) { again = false; refresh(); }
    }
  }

  function gone(line) {
    refusal.textContent = line;
    panel.innerHTML = "";
    body.classList.add("revoked");
  }

  async function send(step) {
    const response = await fetch(base + "/act", {
      method: "POST",
      headers: { "X-Fracas-Token": token, "Content-Type": "application/json" },
      body: JSON.stringify({ seen: seen(), command_id: newId(), ...step }),
    });
    refusal.textContent = response.ok ? "" : await response.text();
    if (response.status === 403 && body.classList.contains("revoked")) return;
    await refresh();
  }

  function chosen(form) {
    const action = form.querySelector("#action").value;
    const step = { action, fields: {} };
    const option = form.querySelector(`#action option[value="${action}"]`);
    const target = form.querySelector("#target").value;
    if (option && option.dataset.targets === "yes" && target) step.targets = [target];
    form.querySelectorAll(`label.field[data-action="${action}"] [data-field]`).forEach((input) => {
      const kind = input.dataset.kind;
      if (kind === "bool") step.fields[input.dataset.field] = input.checked;
      else if (input.value === "") return;
      else step.fields[input.dataset.field] = kind === "int" ? Number(input.value) : input.value;
    });
    const dice = form.querySelector("#dice").value.trim();
    if (dice) step.dice = dice.split(/[ ,]+/).map(Number);
    return step;
  }

  function wire() {
    const form = document.getElementById("act");
    if (form) {
      const select = form.querySelector("#action");
      const fields = () => form.querySelectorAll("label.field").forEach((label) => {
        label.hidden = label.dataset.action !== select.value;
      });
      select.addEventListener("change", fields);
      fields();
      form.addEventListener("submit", (event) => { event.preventDefault(); send(chosen(form)); });
    }
    const react = document.getElementById("react");
    if (react) react.querySelectorAll("button[data-choice]").forEach((button) =>
      button.addEventListener("click", () => {
        send({ action: "answer", fields: { choice: button.dataset.choice } })
      }));
    const undo = document.getElementById("undo");
    if (undo) undo.addEventListener("click", () => send({ action: "undo" }));
  }

  // A step waiting for the GM's nod: look again until it is answered (a refusal moves no log).
  setInterval(() => { if (panel.querySelector(".waiting")) refresh(); }, 2000);
  document.addEventListener("fracas:screen", refresh);
  document.addEventListener("fracas:closed", refresh);
  wire();
})();
