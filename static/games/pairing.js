// "Pair round R": the pickers append a chosen player to their text field, and the
// preview's rows are written into the one text field the form sends ("#black #white
// handicap komi" per table), so the form has a few fields whatever the size of the
// round.  Without JavaScript the text fields are edited directly.
(() => {
  "use strict";
  document.querySelectorAll("input[data-into]").forEach((picker) => {
    const target = document.getElementById(picker.dataset.into);
    const add = () => {
      const value = picker.value.trim();
      if (value && target) {
        target.value = (target.value.trim() ? `${target.value.trim()}\n` : "") + value;
        picker.value = "";
      }
    };
    picker.addEventListener("change", add);
    picker.addEventListener("keydown", (event) => {
      if (event.key === "Enter") {
        event.preventDefault();
        add();
      }
    });
  });

  const form = document.getElementById("edit");
  if (!form) {
    return;
  }
  const text = form.elements.games_text;
  let rowsEdited = false;
  form.querySelectorAll("tr[data-row] input").forEach((input) => {
    input.addEventListener("input", () => {
      rowsEdited = true;
    });
    input.addEventListener("change", () => {
      rowsEdited = true;
    });
  });
  const id = (value) => {
    const match = /#(\d+)\s*$/.exec(value) || /^\s*(\d+)\s*$/.exec(value);
    return match ? match[1] : "";
  };
  form.addEventListener("submit", () => {
    if (!rowsEdited) {
      return; // the text field as sent, or as edited by hand
    }
    const lines = [];
    form.querySelectorAll("tr[data-row]").forEach((row) => {
      const get = (role) => row.querySelector(`[data-role="${role}"]`);
      let black = id(get("black").value);
      let white = id(get("white").value);
      if (!black || !white) {
        return; // an unpaired row
      }
      if (get("swap").checked) {
        [black, white] = [white, black];
      }
      const komi = get("komi").value.trim();
      lines.push(`#${black} #${white} ${get("handicap").value || 0}${komi ? ` ${komi}` : ""}`);
    });
    text.value = lines.join("\n");
  });
})();
