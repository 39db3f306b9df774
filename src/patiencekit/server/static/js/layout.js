// Where each pile of each game sits on the board.
//
// A layout is a grid of card-sized slots: `cols` gives each grid column's width in card widths
// (spacers are narrower), and every pile gets a row, a column, a span and a way of fanning its
// cards:
//   "down"   a column: cards overlap downwards, each one showing its corner index;
//   "right"  cards overlap to the right (Royal Cotillion's left piles);
//   "waste3" the waste of draw-3 Klondike: its last three cards fanned to the right;
//   "stack"  only the top card shows (foundations, cells, reserve, waste);
//   "stock"  face-down stack with a count, clicked to turn cards.
// `budget` is roughly how many card heights the board needs, to size cards on wide screens.

const SUITS = ["C", "S", "H", "D"];

const KIND_WORD = {
  stock: "stock",
  waste: "waste",
  foundation: "foundation",
  column: "column",
  hand: "hand cell",
  reserve: "reserve",
  packet: "packet",
  index: "index card",
};

export function pileName(gameId, pile) {
  if (pile.kind === "stock" || pile.kind === "waste") return KIND_WORD[pile.kind];
  if (pile.kind === "column" && gameId === "royal-cotillion") return `left pile ${pile.index}`;
  return `${KIND_WORD[pile.kind] || pile.kind} ${pile.index}`;
}

function byKind(piles) {
  const out = {};
  for (const p of piles) (out[p.kind] ||= []).push(p);
  for (const k of Object.keys(out)) out[k].sort((a, b) => a.index - b.index);
  return out;
}

// hint: what an empty foundation takes, shown faintly in its slot ({rank, suit} or {rank}).
function klondike(k, gameId) {
  const place = {};
  place.s = { row: 1, col: 1, fan: "stock" };
  place.w = gameId === "klondike"
    ? { row: 1, col: 2, span: 2, fan: "waste3" }
    : { row: 1, col: 2, fan: "stack" };
  (k.foundation || []).forEach((p, i) => {
    place[p.label] = { row: 1, col: 4 + i, fan: "stack", hint: { rank: "A", suit: SUITS[i % 4] } };
  });
  (k.column || []).forEach((p, i) => {
    place[p.label] = { row: 2, col: 1 + i, fan: "down" };
  });
  return { cols: Array(7).fill(1), place, budget: 4.5, strings: true };
}

function patiencemax(k) {
  const place = {};
  (k.foundation || []).forEach((p, i) => {
    place[p.label] = { row: 1, col: 2 + i, fan: "stack", hint: { rank: "A" } };
  });
  (k.hand || []).forEach((p, i) => {
    place[p.label] = { row: 2, col: 4 + i, fan: "stack", cell: true };
  });
  (k.column || []).forEach((p, i) => {
    place[p.label] = { row: 3, col: 1 + i, fan: "down" };
  });
  return { cols: Array(10).fill(1), place, budget: 5.7, strings: true };
}

const FAMILY_HINTS = {
  patriarchs: ["A", "K"],
  "picture-patience": ["A", "K"],
  "odd-and-even": ["A", "2"],
  "royal-cotillion": ["A", "2"],
};

function patriarchs(k, gameId) {
  // Ace-side foundations on the left, king-side (or two-side) on the right, the 3 x 3 reserve
  // between them, stock and waste under the reserve.
  const [lo, hi] = FAMILY_HINTS[gameId] || ["", ""];
  const place = {};
  (k.foundation || []).forEach((p, i) => {
    const left = i < 4;
    place[p.label] = {
      row: 1 + (i % 4),
      col: left ? 1 : 7,
      fan: "stack",
      hint: { rank: left ? lo : hi, suit: SUITS[i % 4] },
    };
  });
  (k.reserve || []).forEach((p, i) => {
    place[p.label] = { row: 1 + Math.floor(i / 3), col: 3 + (i % 3), fan: "stack", cell: true };
  });
  place.s = { row: 4, col: 3, fan: "stock" };
  place.w = { row: 4, col: 4, fan: "stack" };
  return { cols: [1, 0.35, 1, 1, 1, 0.35, 1], place, budget: 4.3 };
}

function royalCotillion(k) {
  const place = {};
  (k.column || []).forEach((p, i) => {
    place[p.label] = { row: 1 + i, col: 1, span: 1, fan: "right" };
  });
  (k.foundation || []).forEach((p, i) => {
    place[p.label] = {
      row: 1 + (i % 4),
      col: i < 4 ? 3 : 4,
      fan: "stack",
      hint: { rank: i < 4 ? "A" : "2", suit: SUITS[i % 4] },
    };
  });
  (k.reserve || []).forEach((p, i) => {
    place[p.label] = { row: 1 + Math.floor(i / 4), col: 6 + (i % 4), fan: "stack", cell: true };
  });
  place.s = { row: 5, col: 6, fan: "stock" };
  place.w = { row: 5, col: 7, fan: "stack" };
  // The left piles fan to the right over a column 1.6 cards wide.
  return { cols: [1.7, 0.3, 1, 1, 0.3, 1, 1, 1, 1], place, budget: 5.4 };
}

function contradance(k) {
  const place = {};
  (k.foundation || []).forEach((p, i) => {
    const fives = i < 8;
    place[p.label] = {
      row: fives ? 1 : 2,
      col: 1 + (i % 8),
      fan: "stack",
      hint: { rank: fives ? "5" : "6", suit: SUITS[Math.floor((i % 8) / 2)] },
    };
  });
  place.s = { row: 3, col: 4, fan: "stock" };
  place.w = { row: 3, col: 5, fan: "stack" };
  return { cols: Array(8).fill(1), place, budget: 3.3 };
}

function capturedQueens(k) {
  const place = {};
  const ranks = ["5", "Q", "6"];
  (k.foundation || []).forEach((p, i) => {
    place[p.label] = {
      row: 1 + Math.floor(i / 4),
      col: 1 + (i % 4),
      fan: "stack",
      hint: { rank: ranks[Math.floor(i / 4)], suit: SUITS[i % 4] },
    };
  });
  place.s = { row: 1, col: 6, fan: "stock" };
  place.w = { row: 2, col: 6, fan: "stack" };
  return { cols: [1, 1, 1, 1, 0.5, 1], place, budget: 3.3 };
}

const WRANGLER_START = ["4", "6", "8", "T", "Q", "A", "3", "5"];

function seniorWrangler(k) {
  const place = {};
  (k.index || []).forEach((p, i) => {
    place[p.label] = { row: 1, col: 1 + i, fan: "stack", index: true };
  });
  (k.foundation || []).forEach((p, i) => {
    place[p.label] = { row: 2, col: 1 + i, fan: "stack", hint: { rank: WRANGLER_START[i] || "" } };
  });
  (k.packet || []).forEach((p, i) => {
    place[p.label] = { row: 3, col: 1 + i, fan: "down", up: 0.2 };
  });
  return { cols: Array(8).fill(1), place, budget: 5.6 };
}

// Any other game: one row per kind, columns fanned, rows wrapping at the widest kind.
function generic(k) {
  const place = {};
  const width = Math.max(7, ...Object.values(k).map((ps) => Math.min(ps.length, 10)));
  let row = 1;
  const topKinds = ["stock", "waste", "foundation", "hand", "reserve", "index"];
  let col = 1;
  for (const kind of topKinds) {
    for (const p of k[kind] || []) {
      if (col > width) { row += 1; col = 1; }
      place[p.label] = { row, col, fan: kind === "stock" ? "stock" : "stack" };
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

export function layoutFor(gameId, piles) {
  const k = byKind(piles);
  let layout;
  if (gameId === "klondike" || gameId === "klondike-draw1") layout = klondike(k, gameId);
  else if (gameId.startsWith("patiencemax")) layout = patiencemax(k);
  else if (gameId === "patriarchs" || gameId === "picture-patience" || gameId === "odd-and-even")
    layout = patriarchs(k, gameId);
  else if (gameId === "royal-cotillion") layout = royalCotillion(k);
  else if (gameId === "contradance") layout = contradance(k);
  else if (gameId === "captured-queens") layout = capturedQueens(k);
  else if (gameId === "senior-wrangler") layout = seniorWrangler(k);
  else layout = generic(k);
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
