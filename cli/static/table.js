// The table's screen: live updates by Server-Sent Events, the timeline scrubber, the GM console.
"use strict";
(function () {
  const body = document.body;
  const base = body.dataset.base;
  const screen = document.getElementById("screen");
  const slider = document.getElementById("scrub");
  const at = document.getElementById("at");
  const detail = document.getElementById("detail");
  let live = true;
  let stale = false;  // changes came while an earlier step was shown: fetch the live screen
  let again = false;  // a change came while the live screen was being fetched

  function label() {
    const step = Number(slider.value), steps = Number(slider.max);
    at.textContent = `Step ${step} of ${steps}` + (live ? " (live)" : "");
    document.getElementById("live").classList.toggle("on", live);
  }

  function show(html) { screen.innerHTML = html; fit(); }

  // On a TV the log has a box of its own (table.css). Newest first, each step is shown
  // whole while it fits; the first that does not is cut after the last whole word that
  // fits, with an ellipsis (its whole in the title); older steps are left out. The log is
  // measured once a fit, and fitted again whenever its box changes size.
  function uncut(holder) {
    if (holder.dataset.full === undefined) return;
    holder.innerHTML = holder.dataset.full;  // (the sentence's "down" marks in it)
    delete holder.dataset.full;
    holder.removeAttribute("title");
  }

  // How many of the sentence's words end above `bottom`, leaving room for an ellipsis
  // after the last of them on its line.
  function wordsAbove(sentence, bottom, right, ellipsis) {
    const text = sentence.firstChild;
    if (!text || text.nodeType !== Node.TEXT_NODE) return 0;
    const range = document.createRange();
    let kept = 0, end = null;
    const words = [...text.textContent.matchAll(/\S+/g)];
    for (const word of words) {
      range.setStart(text, word.index);
      range.setEnd(text, word.index + word[0].length);
      const rects = range.getClientRects();
      const last = rects[rects.length - 1];
      if (!last || last.bottom > bottom + 0.5) break;
      kept += 1;
      end = last;
    }
    // the ellipsis after the last word kept would wrap below: it goes after the word before
    if (kept < words.length && end && end.right + ellipsis > right) kept -= 1;
    return kept;
  }

  function fitLog(log) {
    const lines = [...log.children];
    lines.forEach((line) => { line.hidden = false; });
    log.querySelectorAll("li .sentence").forEach(uncut);
    if (getComputedStyle(log).overflowY !== "hidden") return;
    const box = log.getBoundingClientRect();
    const bottom = box.top + log.clientHeight;
    const over = lines.findIndex((line) => line.getBoundingClientRect().bottom > bottom + 0.5);
    if (over < 0) return;
    const line = lines[over], sentence = line.querySelector(".sentence");
    const pad = parseFloat(getComputedStyle(line).paddingBottom) || 0;
    const right = line.getBoundingClientRect().right - (parseFloat(getComputedStyle(line).paddingRight) || 0);
    const ellipsis = parseFloat(getComputedStyle(line).fontSize);  // "…" is narrower than 1em
    const kept = sentence ? wordsAbove(sentence, bottom - pad, right, ellipsis) : 0;
    lines.slice(over + 1).forEach((older) => { older.hidden = true; });
    if (!sentence || (kept === 0 && over > 0)) { line.hidden = true; return; }
    const full = sentence.textContent;
    const words = full.trim().split(/\s+/);
    sentence.dataset.full = sentence.innerHTML;
    const keep = (n) => { sentence.textContent = words.slice(0, n).join(" ").replace(/[,;:]$/, "") + "…"; };
    if (!sentence.title) sentence.title = full;  // a headline keeps its whole sentence there
    // a mark after the sentence ("★ critical") may wrap below: a word less until it fits
    for (let n = Math.max(1, kept); n >= 1; n--) {
      keep(n);
      if (log.scrollHeight <= log.clientHeight || n === 1) break;
    }
    if (log.scrollHeight > log.clientHeight && over > 0) line.hidden = true;
  }

  // The log is fitted again whenever its box changes size (the dice beside it grow or
  // shrink, the type loads, the window is resized), not only when a push redraws it.
  const resized = new ResizeObserver(() => fit());
  let watched = null;
  function fit() {
    const log = screen.querySelector("ol.log");
    if (log !== watched) {
      if (watched) resized.unobserve(watched);
      if (log) resized.observe(log);
      watched = log;
    }
    if (log) fitLog(log);
  }

  // A push is the whole screen (when the page opens, or fell behind) or the parts of it
  // that changed: each replaces the element of its data-part; a list (the board's rows, the
  // log's lines) is put in the order given, its new elements from the parts sent.
  function fromHtml(html) {
    const holder = document.createElement("template");
    holder.innerHTML = html.trim();
    return holder.content.firstElementChild;
  }

  function applyChange(update) {
    const root = screen.querySelector(".screen");
    const listed = new Set(Object.values(update.lists).flat());
    for (const [key, html] of Object.entries(update.parts)) {
      if (listed.has(key)) continue;
      const old = root.querySelector(`[data-part="${key}"]`);
      if (old) old.replaceWith(fromHtml(html));
    }
    root.querySelectorAll("[data-list]").forEach((list) => {
      const keys = update.lists[list.dataset.list];
      if (!keys) return;
      const have = new Map([...list.children].map((el) => [el.dataset.part, el]));
      list.replaceChildren(...keys.map((key) =>
        key in update.parts ? fromHtml(update.parts[key]) : have.get(key)).filter(Boolean));
    });
    root.dataset.step = update.step;
    root.dataset.steps = update.steps;
    fit();
  }

  // The table's stream. Where the server could not open it (its log's server down: an
  // answer other than the stream) the browser gives it up: the page says it lost the table
  // and opens it again, sooner first, until the table answers (its first message is the
  // whole screen as it stands); a dropped stream the browser opens again itself, said too.
  let retry = 1000;
  const lost = document.createElement("p");
  lost.className = "lost";
  lost.setAttribute("role", "status");
  lost.hidden = true;
  screen.before(lost);
  function losing(line) { lost.textContent = line; lost.hidden = false; }
  // A page whose link was revoked (a phone's `fracas:gone`) stops: no table to look for.
  let stream = null, over = false;
  document.addEventListener("fracas:gone", () => {
    over = true;
    lost.hidden = true;
    if (stream) stream.close();
  });
  function connect() {
    if (over) return;
    const follows = body.dataset.follows === "yes";  // a page that named no encounter
    const opened = stream = new EventSource(base + "/stream" + (follows ? "?follow" : ""));
    opened.addEventListener("screen", onScreen);
    // the file's current encounter is another (`fracas new`): such a page loads it
    opened.addEventListener("encounter", () => { over = true; opened.close(); location.reload(); });
    // a phone's link the GM revoked: the stream's last word, its line for the page to say
    opened.addEventListener("gone", (event) => {
      over = true;
      opened.close();
      lost.hidden = true;
      document.dispatchEvent(new CustomEvent("fracas:ended", { detail: event.data }));
    });
    opened.addEventListener("error", () => {
      if (over) return;
      if (opened.readyState !== EventSource.CLOSED) {
        losing("Lost the table: trying again…");
        return;
      }
      losing(`Lost the table: trying again in ${Math.round(retry / 1000)} s…`);
      document.dispatchEvent(new Event("fracas:closed"));
      setTimeout(connect, retry);
      retry = Math.min(retry * 2, 10000);
    });
  }
  function onScreen(event) {
    lost.hidden = true;
    retry = 1000;
    const update = JSON.parse(event.data);
    slider.max = update.steps;
    if (update.html !== undefined && live) { show(update.html); stale = false; }
    else if (update.html === undefined && live && !stale) applyChange(update);
    else { stale = true; again = true; }
    if (live) slider.value = update.steps;
    label();
    document.dispatchEvent(new CustomEvent("fracas:screen", { detail: update }));
  }
  connect();

  let pending = 0;
  async function goTo(step) {
    step = Math.max(0, Math.min(Number(slider.max), step));
    slider.value = step;
    live = step === Number(slider.max);
    label();
    const ticket = ++pending;
    if (live) {  // back to live after scrubbing: the whole screen, as often as it moved meanwhile
      stale = true;
      do {
        again = false;
        const response = await fetch(`${base}/screen`);
        if (ticket !== pending) return;
        show(await response.text());
      } while (again && live);
      stale = false;
      return;
    }
    const response = await fetch(`${base}/screen?step=${step}`);
    if (ticket === pending) show(await response.text());
  }

  async function openStep(step) {
    if (step < 1) { detail.textContent = "Step 0 is the start: nothing was decided yet."; return; }
    const response = await fetch(`${base}/step/${step}`);
    detail.innerHTML = await response.text();
    // on a TV the replay covers the board: a button and Escape put it away
    const close = document.createElement("button");
    close.type = "button";
    close.className = "close-detail";
    close.textContent = "Close";
    close.addEventListener("click", closeStep);
    detail.prepend(close);
    detail.scrollIntoView({ block: "nearest" });
  }
  function closeStep() { detail.replaceChildren(); }
  document.addEventListener("keydown", (event) => {
    if (event.key === "Escape" && detail.childElementCount) closeStep();
  });

  slider.addEventListener("input", () => goTo(Number(slider.value)));
  document.getElementById("back").addEventListener("click", () => goTo(Number(slider.value) - 1));
  document.getElementById("forward").addEventListener("click", () => goTo(Number(slider.value) + 1));
  document.getElementById("live").addEventListener("click", () => goTo(Number(slider.max)));
  document.getElementById("open-step").addEventListener("click", () => openStep(Number(slider.value)));
  screen.addEventListener("click", (event) => {
    const link = event.target.closest(".step-link");
    if (link) { goTo(Number(link.dataset.step)); openStep(Number(link.dataset.step)); }
  });

  const large = document.getElementById("large");
  function setLarge(on) {
    body.classList.toggle("large", on);
    // the button says what a tap does; pressed while the large type is on
    large.setAttribute("aria-pressed", String(on));
    large.textContent = on ? "Smaller text" : "Larger text";
    fit();
  }
  large.addEventListener("click", () => {
    setLarge(!body.classList.contains("large"));
    localStorage.setItem("fracas-large", body.classList.contains("large") ? "1" : "0");
  });
  // Large type with ?tv, or as chosen here before; else the players' screen on a screen as
  // wide as a TV (not a phone, not the GM's page) is read from across the room.
  const chosen = localStorage.getItem("fracas-large");
  const tv = body.dataset.audience === "players" && !document.getElementById("panel")
    && window.innerWidth >= 1600;
  setLarge(new URLSearchParams(location.search).has("tv") || chosen === "1" || (chosen !== "0" && tv));

  const form = document.getElementById("console");
  if (form) {
    const line = document.getElementById("line");
    const refusal = document.getElementById("refusal");
    const output = document.getElementById("output");
    const outputOf = document.getElementById("output-of");
    let outputAt = null;  // the step the fight stood at when the output shown was made
    function shown(text, said, step) {
      output.textContent = said;
      outputOf.textContent = said ? `${text} · at step ${step}` : "";
      outputAt = said ? step : null;
    }
    // a later step landed: the output shown is of a fight that has moved on
    document.addEventListener("fracas:screen", (event) => {
      if (outputAt !== null && event.detail.steps > outputAt) shown("", "", null);
    });
    let sent = 0;  // only the newest line's answer is shown: an older one may come back later
    async function run(text) {
      const mine = ++sent;
      const response = await fetch(base + "/command", {
        method: "POST",
        headers: { "X-Fracas-Token": form.dataset.token, "Content-Type": "application/json" },
        // the last step shown: a `next` ends that turn, an `undo` takes back that step
        body: JSON.stringify({ line: text, seen: Number(slider.max) }),
      });
      const result = response.ok ? await response.json() : { refusal: await response.text() };
      if (result.ok && line.value === text) line.value = "";
      if (mine !== sent) return;
      refusal.textContent = result.refusal;
      shown(text, result.output || "", result.step);
    }
    form.addEventListener("submit", (event) => { event.preventDefault(); run(line.value); });
    form.querySelectorAll("button[data-line]").forEach((button) =>
      button.addEventListener("click", () => run(button.dataset.line)));
  }
  // The time left to answer the reaction the fight waits on (`act --ask --wait`), counted
  // down each second from the deadline the screen carries; past it, the rules' default.
  function countdown() {
    document.querySelectorAll(".deadline[data-deadline]").forEach((clock) => {
      const due = Date.parse(clock.dataset.deadline);
      const left = Math.max(0, Math.round((due - Date.now()) / 1000));
      const at = clock.dataset.deadline.slice(11, 19);
      clock.textContent = left > 0
        ? `${Math.floor(left / 60)}:${String(left % 60).padStart(2, "0")} left to answer (by ${at} UTC)`
        : `time is up (${at} UTC): the rules' default applies when the GM says so`;
    });
  }
  countdown();
  setInterval(countdown, 1000);
  label();
})();
