// The round's results page: a click (or a key) on a result saves that game at once,
// without leaving the page.  Each form sends the result the page showed ("seen"): if
// another operator or a player entered one meanwhile, the server refuses (409) and the
// row shows what it is now.  Every 10 s the page asks for the round's results and
// updates the rows that changed.  Without JavaScript each button posts its form.
(() => {
  "use strict";
  const table = document.querySelector("table.results");
  if (!table) {
    return;
  }
  const known = document.getElementById("known");
  // The finalise button is on the page from the start, hidden while nothing waits for it:
  // the results entered here since the page loaded count too.
  const finalise = document.getElementById("finalise");
  const toFinalise = document.getElementById("to-finalise");
  const disputed = document.getElementById("disputed");
  const disputedNote = document.getElementById("disputed-note");
  function count(body) {
    known.textContent = body.known;
    if (disputed && disputedNote && body.disputed !== undefined) {
      disputed.textContent = body.disputed;
      disputedNote.hidden = body.disputed === 0;
    }
    if (finalise && toFinalise) {
      toFinalise.textContent = body.to_finalise;
      finalise.hidden = body.to_finalise === 0;
    }
  }
  const rows = () => Array.from(table.querySelectorAll("tbody tr[data-game]"));

  function show(row, game) {
    row.dataset.seen = game.result;
    row.querySelector(".value").textContent = game.result || "?";
    row.querySelector(".state").textContent = game.result ? game.state_display : "";
    const seen = row.querySelector("input[name=seen]");
    if (seen) {
      seen.value = game.result;
    }
    row.querySelectorAll("button[name=result]").forEach((b) => {
      b.classList.toggle("chosen", b.value === game.result);
      b.disabled = game.locked;
    });
  }

  // A fast typist has several saves in flight at once. Each answer counts the results
  // as its own save left them, and answers may arrive out of order: after such a burst
  // the counts are read afresh once the last answer is back.
  let inFlight = 0;
  let overlapped = false;

  async function send(form, value) {
    const row = form.closest("tr");
    const data = new FormData(form);
    data.set("result", value);
    const note = row.querySelector(".row-error");
    note.textContent = "saving…";
    inFlight += 1;
    overlapped = overlapped || inFlight > 1;
    try {
      const response = await fetch(window.location.pathname, {
        method: "POST",
        body: data,
        headers: { Accept: "application/json" },
        credentials: "same-origin",
      });
      const body = await response.json();
      note.textContent = body.error || "";
      if (body.game) {
        show(row, body.game);
      }
      if (!overlapped) {
        count(body);
      }
    } catch (error) {
      note.textContent = "Not saved: the server could not be reached. Try again.";
    } finally {
      inFlight -= 1;
      if (inFlight === 0 && overlapped) {
        overlapped = false;
        refresh().catch(() => {});
      }
    }
  }

  table.addEventListener("submit", (event) => {
    event.preventDefault();
    const button = event.submitter;
    if (button && button.name === "result") {
      send(event.target, button.value);
    }
  });

  function focusRow(row) {
    rows().forEach((r) => r.classList.remove("current"));
    if (row) {
      row.classList.add("current");
      row.focus();
    }
  }
  table.addEventListener("click", (event) => {
    const row = event.target.closest("tr[data-game]");
    if (row) {
      focusRow(row);
    }
  });
  document.addEventListener("keydown", (event) => {
    if (event.ctrlKey || event.metaKey || event.altKey) {
      return;
    }
    const all = rows();
    const current = table.querySelector("tr.current") || null;
    const at = current ? all.indexOf(current) : -1;
    if (event.key === "ArrowDown" || event.key === "ArrowUp") {
      event.preventDefault();
      const next = event.key === "ArrowDown" ? Math.min(at + 1, all.length - 1) : Math.max(at - 1, 0);
      focusRow(all[next]);
      return;
    }
    if (!current) {
      return;
    }
    const button = current.querySelector(`button[data-key="${event.key.toLowerCase()}"]`);
    if (button && !button.disabled) {
      event.preventDefault();
      send(button.form, button.value);
      focusRow(all[Math.min(at + 1, all.length - 1)]);
    }
  });
  if (rows().length) {
    focusRow(rows()[0]);
  }

  // Live updates: rows another operator or a player changed.
  async function refresh() {
    const response = await fetch(`${window.location.pathname}?format=json`, {
      headers: { Accept: "application/json" },
      credentials: "same-origin",
    });
    if (response.ok) {
      const body = await response.json();
      count(body);
      const byId = new Map(body.games.map((g) => [String(g.id), g]));
      rows().forEach((row) => {
        const game = byId.get(row.dataset.game);
        if (game && game.result !== row.dataset.seen) {
          show(row, game);
        }
      });
    }
  }

  async function poll() {
    try {
      await refresh();
    } finally {
      window.setTimeout(poll, 10000);
    }
  }
  window.setTimeout(poll, 10000);
})();
