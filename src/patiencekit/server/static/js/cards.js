// Card faces drawn as inline SVG (viewBox 100 x 140, so they are crisp at any size), card
// backs drawn with CSS, and the words a screen reader says for a card.
//
// A card's text is the engine's: rank then suit, "7H", "TC" (ten of clubs), "AS", "KD".
// Its name is said in the page's language ("five of clubs", "klaveren vijf", "cinco de
// tréboles": the catalogue's card.name, rank.* and suit.*).

import { t } from "./i18n.js";

const RANKS = new Set(["A", "2", "3", "4", "5", "6", "7", "8", "9", "T", "J", "Q", "K"]);
const RANK_SHOWN = { T: "10" };
const RANK_VALUE = { A: 1, T: 10, J: 11, Q: 12, K: 13 };
const SUITS = new Set(["C", "S", "H", "D"]);
export const SUIT_SYMBOL = { C: "\u2663", S: "\u2660", H: "\u2665", D: "\u2666" };

// Suit shapes in a 100 x 100 box, drawn as paths (font glyphs vary, and some render as emoji).
function circle(cx, cy, r) {
  return `M${cx - r} ${cy}a${r} ${r} 0 1 0 ${2 * r} 0a${r} ${r} 0 1 0 ${-2 * r} 0Z`;
}
export const SUIT_PATH = {
  H: "M50 94C45 86 5 60 3 33C1.5 15 14 4 28 4C39 4 46 11 50 20C54 11 61 4 72 4C86 4 98.5 15 97 33C95 60 55 86 50 94Z",
  D: "M50 2L89 50L50 98L11 50Z",
  S: "M50 3C57 17 97 39 97 62C97 77 86 86 74 86C65 86 58 82 54 76C55 86 59 93 68 98L32 98C41 93 45 86 46 76C42 82 35 86 26 86C14 86 3 77 3 62C3 39 43 17 50 3Z",
  C:
    circle(50, 27, 21) + circle(25, 59, 21) + circle(75, 59, 21) +
    "M41 36L36 62L64 62L59 36Z" +
    "M46 56C46 80 42 91 32 98L68 98C58 91 54 80 54 56Z",
};

export function parseCard(code) {
  if (typeof code !== "string" || code.length < 2) return null;
  const text = code.toUpperCase();
  const suit = text[text.length - 1];
  let rank = text.slice(0, -1);
  if (rank === "10") rank = "T";
  if (!RANKS.has(rank) || !SUITS.has(suit)) return null;
  return {
    code: rank + suit,
    rank,
    suit,
    value: RANK_VALUE[rank] || Number(rank),
    red: suit === "H" || suit === "D",
    shown: RANK_SHOWN[rank] || rank,
    name: t("card.name", { rank: t(`rank.${rank}`), suit: t(`suit.${suit}`) }),
  };
}

export function cardName(code) {
  if (code === null || code === undefined) return t("card.face_down");
  const c = parseCard(code);
  return c ? c.name : String(code);
}

function pip(suit, cx, cy, size, flip = false) {
  const s = size / 100;
  const x = cx - size / 2;
  const y = cy - size / 2;
  const rot = flip ? ` rotate(180 50 50)` : "";
  return `<path d="${SUIT_PATH[suit]}" transform="translate(${x} ${y}) scale(${s})${rot}"/>`;
}

// Pip positions (x, y) on the 100 x 140 face, below the corner index.
const L = 36, M = 53, R = 70;
const TOP = 48, BOT = 123, MID = 85.5;
const Q1 = TOP + (BOT - TOP) / 3, Q2 = TOP + (2 * (BOT - TOP)) / 3;
const PIPS = {
  2: [[M, TOP], [M, BOT]],
  3: [[M, TOP], [M, MID], [M, BOT]],
  4: [[L, TOP], [R, TOP], [L, BOT], [R, BOT]],
  5: [[L, TOP], [R, TOP], [M, MID], [L, BOT], [R, BOT]],
  6: [[L, TOP], [R, TOP], [L, MID], [R, MID], [L, BOT], [R, BOT]],
  7: [[L, TOP], [R, TOP], [M, (TOP + MID) / 2], [L, MID], [R, MID], [L, BOT], [R, BOT]],
  8: [[L, TOP], [R, TOP], [M, (TOP + MID) / 2], [L, MID], [R, MID], [M, (MID + BOT) / 2], [L, BOT], [R, BOT]],
  9: [[L, TOP], [R, TOP], [L, Q1], [R, Q1], [M, MID], [L, Q2], [R, Q2], [L, BOT], [R, BOT]],
  10: [[L, TOP], [R, TOP], [M, (TOP + Q1) / 2], [L, Q1], [R, Q1], [L, Q2], [R, Q2], [M, (Q2 + BOT) / 2], [L, BOT], [R, BOT]],
};

const FONT = `font-family="system-ui, 'Segoe UI', Roboto, 'DejaVu Sans', Arial, sans-serif"`;

const faceCache = new Map();

// The SVG markup of a card's face (cached per card).
export function faceSVG(code) {
  const c = parseCard(code);
  if (!c) return "";
  if (faceCache.has(c.code)) return faceCache.get(c.code);
  const parts = [];
  // Corner index: big enough to read in a tight fan (it sits in the top 20% of the card).
  const wide = c.shown.length > 1;
  parts.push(
    `<text x="6" y="25.5" font-size="27" font-weight="700" ${FONT}` +
      (wide ? ` textLength="33" lengthAdjust="spacingAndGlyphs"` : "") +
      `>${c.shown}</text>`,
  );
  parts.push(pip(c.suit, 15, 46, 14));
  parts.push(pip(c.suit, 82, 15.5, 22));
  if (c.rank === "A") {
    parts.push(pip(c.suit, 52, 86, c.suit === "D" || c.suit === "H" ? 46 : 50));
  } else if (c.rank === "J" || c.rank === "Q" || c.rank === "K") {
    parts.push(
      `<rect x="26" y="37" width="62" height="96" rx="5" fill="currentColor" fill-opacity="0.08" stroke="currentColor" stroke-width="1.6"/>`,
    );
    if (c.rank === "K") {
      parts.push(`<path d="M42 62L42 48L49 55L57 44L65 55L72 48L72 62Z" fill="currentColor" fill-opacity="0.85"/>`);
    } else if (c.rank === "Q") {
      parts.push(`<path d="M43 62L45 50L51 56L57 47L63 56L69 50L71 62Z" fill="currentColor" fill-opacity="0.85"/>` +
        `<circle cx="57" cy="45" r="2.6" fill="currentColor"/>`);
    } else {
      parts.push(`<path d="M45 62L46 55C47 49 52 46 57 46C62 46 67 49 68 55L69 62Z" fill="currentColor" fill-opacity="0.85"/><path d="M66 50L76 42L73 52Z" fill="currentColor" fill-opacity="0.6"/>`);
    }
    parts.push(
      `<text x="57" y="105" text-anchor="middle" font-size="40" font-weight="700" ${FONT}>${c.rank}</text>`,
    );
    parts.push(pip(c.suit, 57, 120, 16));
  } else {
    const n = Number(c.shown);
    const size = n >= 9 ? 16 : 18;
    for (const [x, y] of PIPS[n]) parts.push(pip(c.suit, x, y, size, y > MID + 1));
  }
  const svg =
    `<svg class="face" viewBox="0 0 100 140" preserveAspectRatio="xMidYMid meet" aria-hidden="true" focusable="false" fill="currentColor">` +
    parts.join("") +
    `</svg>`;
  faceCache.set(c.code, svg);
  return svg;
}

// A card element: a face (code) or a back (null).
export function makeCard(code) {
  const el = document.createElement("div");
  el.className = "card";
  if (code === null || code === undefined) {
    el.classList.add("back");
    el.setAttribute("aria-label", t("card.face_down"));
  } else {
    const c = parseCard(code);
    el.classList.add(c && c.red ? "red" : "black");
    el.dataset.card = c ? c.code : String(code);
    el.setAttribute("aria-label", cardName(code));
    el.innerHTML = faceSVG(code);
  }
  el.setAttribute("role", "img");
  return el;
}

// A small suit mark as inline SVG markup (for placeholders and decorations).
export function suitMark(suit, cls = "suit-mark") {
  return `<svg class="${cls}" viewBox="0 0 100 100" aria-hidden="true" focusable="false"><path fill="currentColor" d="${SUIT_PATH[suit]}"/></svg>`;
}
