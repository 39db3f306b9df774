// Tables that fit a phone. A table marked `stack-narrow` is drawn on a narrow screen as one
// block per row (the style sheet, pk.css): the row's header (or first cell) as its title, then
// each cell under the words of its column. Those words come from the table's own column
// headers: this labels each body cell with its column's header (`data-label`), again whenever
// the page fills the table, and names the parts' roles (table, row, cell...), which a table
// drawn as blocks would otherwise lose in some browsers.

function headerWords(table) {
  const row = table.tHead && table.tHead.rows[0];
  if (!row) return [];
  // A header that is there only for screen readers (an "Actions" column) labels nothing.
  return [...row.cells].map((th) => (th.querySelector(".visually-hidden") ? "" : th.textContent.trim()));
}

function label(table) {
  const words = headerWords(table);
  table.setAttribute("role", "table");
  for (const group of [table.tHead, ...table.tBodies]) if (group) group.setAttribute("role", "rowgroup");
  for (const row of table.rows) {
    row.setAttribute("role", "row");
    let col = 0;
    for (const cell of row.cells) {
      const head = cell.closest("thead") !== null;
      if (cell.tagName === "TH") cell.setAttribute("role", head ? "columnheader" : "rowheader");
      else cell.setAttribute("role", "cell");
      if (!head) {
        const word = cell.colSpan === 1 ? words[col] : "";
        if (word) cell.dataset.label = word;
        else delete cell.dataset.label;
      }
      col += cell.colSpan || 1;
    }
  }
}

/** Labels every `table.stack-narrow` of the page now and whenever its rows change. */
export function fitTables(root = document) {
  for (const table of root.querySelectorAll("table.stack-narrow")) {
    label(table);
    new MutationObserver(() => label(table)).observe(table, { childList: true, subtree: true });
  }
}
