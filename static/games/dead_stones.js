// The stone-removal page: a click on a stone marks its chain dead, or alive again.
// It posts the page's toggle form with the stone's point, as the chain's button in
// the table does, so the server toggles the same chain with the same checks; the
// table stays for keyboard use and for browsers without JavaScript.
(() => {
  "use strict";
  const board = document.querySelector("#board svg.goban");
  const form = document.getElementById("board-toggle");
  if (!board || !form) {
    return;
  }
  const hint = document.getElementById("click-hint");
  if (hint) {
    hint.hidden = false; // the board only answers clicks when this script runs
  }
  let sent = false;
  board.addEventListener("click", (event) => {
    const stone = event.target.closest(".clickable[data-point]");
    if (!stone || sent) {
      return;
    }
    sent = true; // a double click would toggle the chain twice
    form.elements.point.value = stone.dataset.point;
    form.submit();
  });
  // A page restored by the Back button keeps its state: let it answer clicks again.
  window.addEventListener("pageshow", () => {
    sent = false;
  });
})();
