// Where each pile sits on the board, by the game's layout family (`layout` in GET /api/games).
//
// A layout is a grid of card-sized slots: `cols` gives each grid column's width in card widths
// (spacers are narrower), and every pile gets a row, a column, a span and a way of fanning its
// cards:
//   "down"   a column: cards overlap downwards, each one showing its corner index;
//   "right"  cards overlap to the right (the short piles on the left of a cotillion board);
//   "waste3" the waste of a stock turned several cards at a time: its last three fanned right;
//   "stack"  only the top card shows (foundations, cells, reserve, waste);
//   "stock"  face-down stack with a count, clicked to turn cards.
// `budget` is roughly how many card heights the board needs, to size cards on wide screens.
// An empty foundation shows its base card faintly (`hint`: the game's `foundation_bases`).
// A game of no family the pages know gets a generic layout by pile kind.

import { has, t } from "./i18n.js";

// A pile's name for the player: the game's own word for its kind (`pile_words`, e.g. "left
// pile", in the page's language: the server's answer is), or the usual one (the catalogue's
// pile.<kind>), with its number (the stock and the waste have none: one of each).
export function pileName(game, pile) {
  const words = (game && game.pile_words) || {};
  const word = words[pile.kind] || (has(`pile.${pile.kind}`) ? t(`pile.${pile.kind}`) : pile.kind);
  if (pile.kind === "stock" || pile.kind === "waste") return word;
  return t("pile.numbered", { word, n: pile.index });
}

function byKind(piles) {
  const out = {};
  for (const p of piles) (out[p.kind] ||= []).push(p);
  for (const k of Object.keys(out)) out[k].sort((a, b) => a.index - b.index);
  return out;
}

// What the i-th foundation takes when empty, shown faintly in its slot ({rank, suit}).
function base(game, i) {
  const bases = (game && game.foundation_bases) || [];
  return bases[i] || null;
}

function sevenColumnsLayout(k, game) {
  const place = {};
  place.s = { row: 1, col: 1, fan: "stock" };
  place.w = game.draw > 1
    ? { row: 1, col: 2, span: 2, fan: "waste3" }
    : { row: 1, col: 2, fan: "stack" };
  (k.foundation || []).forEach((p, i) => {
    place[p.label] = { row: 1, col: 4 + i, fan: "stack", hint: base(game, i) };
  });
  (k.column || []).forEach((p, i) => {
    place[p.label] = { row: 2, col: 1 + i, fan: "down" };
  });
  return { cols: Array(7).fill(1), place, budget: 4.5, strings: true };
}

function columnsAndHandLayout(k, game) {
  const place = {};
  (k.foundation || []).forEach((p, i) => {
    place[p.label] = { row: 1, col: 2 + i, fan: "stack", hint: base(game, i) };
  });
  (k.hand || []).forEach((p, i) => {
    place[p.label] = { row: 2, col: 4 + i, fan: "stack", cell: true };
  });
  (k.column || []).forEach((p, i) => {
    place[p.label] = { row: 3, col: 1 + i, fan: "down" };
  });
  return { cols: Array(10).fill(1), place, budget: 5.7, strings: true };
}

function reserveBetweenLayout(k, game) {
  // The first four foundations on the left, the other four on the right, the 3 x 3 reserve
  // between them, stock and waste under the reserve.
  const place = {};
  (k.foundation || []).forEach((p, i) => {
    place[p.label] = { row: 1 + (i % 4), col: i < 4 ? 1 : 7, fan: "stack", hint: base(game, i) };
  });
  (k.reserve || []).forEach((p, i) => {
    place[p.label] = { row: 1 + Math.floor(i / 3), col: 3 + (i % 3), fan: "stack", cell: true };
  });
  place.s = { row: 4, col: 3, fan: "stock" };
  place.w = { row: 4, col: 4, fan: "stack" };
  return { cols: [1, 0.35, 1, 1, 1, 0.35, 1], place, budget: 4.3 };
}

function leftPilesLayout(k, game) {
  const place = {};
  (k.column || []).forEach((p, i) => {
    place[p.label] = { row: 1 + i, col: 1, span: 1, fan: "right" };
  });
  (k.foundation || []).forEach((p, i) => {
    place[p.label] = { row: 1 + (i % 4), col: i < 4 ? 3 : 4, fan: "stack", hint: base(game, i) };
  });
  (k.reserve || []).forEach((p, i) => {
    place[p.label] = { row: 1 + Math.floor(i / 4), col: 6 + (i % 4), fan: "stack", cell: true };
  });
  place.s = { row: 5, col: 6, fan: "stock" };
  place.w = { row: 5, col: 7, fan: "stack" };
  // The left piles fan to the right over a column 1.6 cards wide.
  return { cols: [1.7, 0.3, 1, 1, 0.3, 1, 1, 1, 1], place, budget: 5.4 };
}

function twoRowsLayout(k, game) {
  const place = {};
  (k.foundation || []).forEach((p, i) => {
    place[p.label] = { row: i < 8 ? 1 : 2, col: 1 + (i % 8), fan: "stack", hint: base(game, i) };
  });
  place.s = { row: 3, col: 4, fan: "stock" };
  place.w = { row: 3, col: 5, fan: "stack" };
  return { cols: Array(8).fill(1), place, budget: 3.3 };
}

function threeRowsLayout(k, game) {
  const place = {};
  (k.foundation || []).forEach((p, i) => {
    place[p.label] = { row: 1 + Math.floor(i / 4), col: 1 + (i % 4), fan: "stack", hint: base(game, i) };
  });
  place.s = { row: 1, col: 6, fan: "stock" };
  place.w = { row: 2, col: 6, fan: "stack" };
  return { cols: [1, 1, 1, 1, 0.5, 1], place, budget: 3.3 };
}

function indexCardsLayout(k, game) {
  const place = {};
  (k.index || []).forEach((p, i) => {
    place[p.label] = { row: 1, col: 1 + i, fan: "stack", index: true };
  });
  (k.foundation || []).forEach((p, i) => {
    place[p.label] = { row: 2, col: 1 + i, fan: "stack", hint: base(game, i) };
  });
  (k.packet || []).forEach((p, i) => {
    place[p.label] = { row: 3, col: 1 + i, fan: "down", up: 0.2 };
  });
  return { cols: Array(8).fill(1), place, budget: 5.6 };
}

// Any other game: one row per kind, columns fanned, rows wrapping at the widest kind.
function genericLayout(k, game) {
  const place = {};
  const width = Math.max(7, ...Object.values(k).map((ps) => Math.min(ps.length, 10)));
  let row = 1;
  const topKinds = ["stock", "waste", "foundation", "hand", "reserve", "index"];
  let col = 1;
  for (const kind of topKinds) {
    for (const p of k[kind] || []) {
      if (col > width) { row += 1; col = 1; }
      place[p.label] = { row, col, fan: kind === "stock" ? "stock" : "stack" };
      if (kind === "foundation") place[p.label].hint = base(game, p.index - 1);
      col += 1;
    }
  }
  for (const kind of ["column", "packet"]) {
    if (!k[kind]) continue;
    row += 1;
    col = 1;
    for (const p of k[kind]) {
      if (col > width) { row += 1; col = 1; }
      place[p.label] = { row, col, fan: "down" };
      col += 1;
    }
  }
  return { cols: Array(width).fill(1), place, budget: row + 3 };
}

// Each family's layout, under its name in GET /api/games (the only place the pages name one;
// tests/browser/test_static_files.py checks that every family the registry has is here).
const FAMILIES = {
  "seven-columns": sevenColumnsLayout,
  "columns-and-hand": columnsAndHandLayout,
  "reserve-between": reserveBetweenLayout,
  "left-piles": leftPilesLayout,
  "two-rows": twoRowsLayout,
  "three-rows": threeRowsLayout,
  "index-cards": indexCardsLayout,
};

// The layout seen in a mirror, for the left-handed: each pile's grid column counted from the
// other side, so that the stock and waste and the foundations swap sides. Two things stay as
// they read: a row of side-by-side piles of one kind keeps its order from left to right
// (column 1 is still the leftmost column, the foundations still go 1, 2, 3, 4; piles of a
// kind apart, such as foundations on both sides of a reserve, do swap sides), and cards still
// fan to the right (a card's index is in its top left corner: a fan to the left would hide
// them). A layout that is symmetric (columns and hand, index cards) stays as it is.
function mirrored(layout, piles) {
  const width = layout.cols.length;
  const place = {};
  for (const [label, spot] of Object.entries(layout.place)) {
    place[label] = { ...spot, col: width + 2 - spot.col - (spot.span || 1) };
  }
  const rows = new Map(); // "kind row" -> the labels of its piles
  for (const p of piles) {
    if (p.kind === "stock" || p.kind === "waste" || !place[p.label]) continue;
    const key = `${p.kind} ${place[p.label].row}`;
    if (!rows.has(key)) rows.set(key, []);
    rows.get(key).push(p);
  }
  for (const group of rows.values()) {
    // Runs of piles side by side (each spanning one column), each put back in reading order.
    const byCol = [...group].sort((a, b) => place[a.label].col - place[b.label].col);
    let run = [];
    const flush = () => {
      const cols = run.map((p) => place[p.label].col);
      [...run].sort((a, b) => a.index - b.index).forEach((p, i) => {
        place[p.label].col = cols[i];
      });
      run = [];
    };
    for (const p of byCol) {
      const last = run[run.length - 1];
      const single = (place[p.label].span || 1) === 1;
      if (last && !(single && place[p.label].col === place[last.label].col + 1)) flush();
      if (single) run.push(p);
    }
    flush();
  }
  return { ...layout, cols: [...layout.cols].reverse(), place };
}

// The layout of a play's piles; game: the play's item of GET /api/games (null if unknown);
// leftHanded: mirrored (see mirrored).
export function layoutFor(game, piles, { leftHanded = false } = {}) {
  const k = byKind(piles);
  const family = game && Object.hasOwn(FAMILIES, game.layout) ? FAMILIES[game.layout] : genericLayout;
  const drawn = family(k, game || {});
  const layout = leftHanded ? mirrored(drawn, piles) : drawn;
  // Any pile the layout forgot still gets a place, so no card is ever hidden.
  const missing = piles.filter((p) => !layout.place[p.label]);
  if (missing.length) {
    const rows = Math.max(...Object.values(layout.place).map((p) => p.row), 0);
    missing.forEach((p, i) => {
      layout.place[p.label] = {
        row: rows + 1 + Math.floor(i / layout.cols.length),
        col: 1 + (i % layout.cols.length),
        fan: p.kind === "column" ? "down" : "stack",
      };
    });
  }
  layout.rows = Math.max(...Object.values(layout.place).map((p) => p.row));
  return layout;
}
