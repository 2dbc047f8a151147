// The GM's page: a link (and QR code) per character, the links given (revoking one), and
// the players' steps that wait for the GM's nod.
"use strict";
(function () {
  const base = document.body.dataset.base;
  const token = document.getElementById("console").dataset.token;
  const invited = document.getElementById("invited");
  const links = document.getElementById("links");
  const who = document.getElementById("invitee");
  const given = document.getElementById("given");

  async function post(path, data) {
    const response = await fetch(base + path, {
      method: "POST",
      headers: { "X-Fracas-Token": token, "Content-Type": "application/json" },
      body: JSON.stringify(data),
    });
    if (!response.ok) { invited.textContent = await response.text(); return null; }
    return response.json();
  }

  // The links' list carries the warning that the players wait on a secret's disclosure: it
  // is shown under the console, where the GM types the disclosure.
  const secretWaits = document.getElementById("secret-waits");
  // The attack the fight waits on, with a button per answer for each player, and a monster's
  // reaction it may take now (an opportunity attack): each runs its line as typed on the
  // console.
  const asked = document.getElementById("asked");
  const console_ = document.getElementById("console");
  asked.addEventListener("click", (event) => {
    const button = event.target.closest("button[data-line]");
    if (!button) return;
    document.getElementById("line").value = button.dataset.line;
    console_.requestSubmit();
  });
  async function list() {
    const response = await fetch(base + "/links", { headers: { "X-Fracas-Token": token } });
    if (!response.ok) return;
    links.innerHTML = await response.text();
    const waits = links.querySelector(".secret-waits");
    secretWaits.replaceChildren(...(waits ? [waits] : []));
    // the attack waiting and the reactions the GM may take now: at the top, by the command line
    asked.replaceChildren(...links.querySelectorAll(".asked-gm"));
    invitable(links.querySelector("template.invitees"));
    const fresh = links.querySelector("template.given");
    if (fresh) { given.replaceChildren(fresh.content); fresh.remove(); }
  }

  // The Invite list as the fight stands (a combatant added since the page loaded is in it),
  // the GM's choice kept while it is still there.
  function invitable(fresh) {
    if (!fresh) return;
    const chosen = who.value;
    who.replaceChildren(fresh.content);
    fresh.remove();
    if ([...who.options].some((option) => option.value === chosen)) who.value = chosen;
  }

  document.getElementById("invite").addEventListener("submit", async (event) => {
    event.preventDefault();
    const made = await post("/invite", { combatant: who.value });
    if (!made) return;
    // the QR code captioned with whose it is, the link beside it
    const figure = document.createElement("figure");
    figure.className = "qr";
    figure.innerHTML = made.svg;
    const caption = document.createElement("figcaption");
    const whose = document.createElement("strong");
    whose.textContent = `Link for ${made.name}`;
    const link = document.createElement("p");
    link.className = "link";
    link.textContent = made.link;
    // once the player has scanned it, Close puts it away (the link stays given)
    const close = document.createElement("button");
    close.type = "button";
    close.className = "close";
    close.textContent = "Close";
    close.addEventListener("click", () => invited.replaceChildren());
    caption.append(whose, link, close);
    figure.appendChild(caption);
    invited.replaceChildren(figure);
    list();
  });
  // Revoke, by the Invite control (the character chosen) or on a line of the links given
  async function revoke(combatant) {
    const done = await post("/revoke", { combatant });
    if (done) {
      const links_ = done.revoked === 1 ? "link" : "links";
      invited.textContent = `Revoked ${done.revoked} ${links_} of ${done.name}.`;
    }
    list();
  }
  document.getElementById("revoke").addEventListener("click", () => revoke(who.value));
  given.addEventListener("click", (event) => {
    const button = event.target.closest("button[data-revoke]");
    if (button) revoke(button.dataset.revoke);
  });
  links.addEventListener("click", async (event) => {
    const button = event.target.closest("button[data-nod]");
    if (!button) return;
    await post(`/pending/${button.dataset.pending}/${button.dataset.nod}`, {});
    list();
  });
  // Undo names the step it would take back (the server refuses it if another landed since)
  const undo = document.querySelector("button[data-line=undo]");
  const undoing = document.getElementById("undoing");
  async function named() {
    const response = await fetch(base + "/undo", { headers: { "X-Fracas-Token": token } });
    if (!response.ok) return;
    const found = await response.json();
    // the button stays short (a sentence beside it squeezed the command line); the line
    // under the console says what it takes back
    undo.textContent = found.step === null ? "Undo" : `Undo step ${found.step}`;
    undo.title = found.label;
    undoing.textContent = found.label;
    undo.disabled = found.step === null;
  }
  if (undo) { document.addEventListener("fracas:screen", named); named(); }
  document.addEventListener("fracas:screen", list);
  if (document.querySelector(".phones").dataset.mode === "nod") setInterval(list, 1000);
  list();
})();
