// "Where do I play": the rows whose player names hold every word typed stay shown, as
// the server's ?q= search does (games.tournament.selectors.matches).  A static file: the CSP
// allows no inline script without the page's nonce.
(() => {
  const box = document.getElementById("q");
  const table = document.getElementById("where");
  const count = document.getElementById("where-count");
  if (!box || !table) return;
  const rows = Array.from(table.querySelectorAll("tbody tr[data-names]"));
  const resting = Array.from(document.querySelectorAll("#resting tr[data-names]"));
  const plain = { "ø": "o", "æ": "ae", "œ": "oe", "ł": "l", "đ": "d", "ı": "i", "ß": "ss" };
  const fold = (text) =>
    text.toLowerCase().normalize("NFKD").replace(/\p{M}/gu, "").replace(/[øæœłđıß]/g, (c) => plain[c]);
  const filter = () => {
    const words = fold(box.value).split(/\s+/).filter(Boolean);
    const keep = (row) => {
      const names = row.dataset.names.split("|");
      const hit = !words.length || names.some((n) => words.every((w) => n.includes(w)));
      row.hidden = !hit;
      return hit;
    };
    const shown = rows.filter(keep).length;
    resting.forEach(keep);
    const total = Number(count.dataset.total);
    count.textContent = shown === total ? `${total} tables` : `${shown} of ${total} tables`;
  };
  box.addEventListener("input", filter);
})();
