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

function pip(suit, cx, cy, size, flip = false, cls = "") {
  const s = size / 100;
  const x = cx - size / 2;
  const y = cy - size / 2;
  const rot = flip ? ` rotate(180 50 50)` : "";
  const klass = cls ? ` class="${cls}"` : "";
  return `<path${klass} d="${SUIT_PATH[suit]}" transform="translate(${x} ${y}) scale(${s})${rot}"/>`;
}

// Pip positions (x, y) on the 100 x 140 face, below the corner index.
const L = 36, M = 53, R = 70;
const TOP = 52, BOT = 124, MID = 88;
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

// The ranks' letters and digits as outlines, so that a face is a picture that looks the same
// whatever fonts a machine has and whose only name is the card's (the element's aria-label):
// DejaVu Sans Bold's glyphs (Bitstream Vera licence), from tools/card_glyphs.py. Units of
// 1/100 em, the origin on the baseline at the glyph's left, y downwards; w: the advance.
const GLYPHS = {
  "A": { w: 77.4, d: "M53.4 -13.3H24L19.4 0H0.5L27.5 -72.9H49.9L76.9 0H58ZM28.7 -26.8H48.7L38.7 -55.8Z" },
  "0": { w: 69.6, d: "M46 -36.5Q46 -50.2 43.4 -55.8Q40.9 -61.4 34.8 -61.4Q28.8 -61.4 26.2 -55.8Q23.6 -50.2 23.6 -36.5Q23.6 -22.7 26.2 -17Q28.8 -11.4 34.8 -11.4Q40.8 -11.4 43.4 -17Q46 -22.7 46 -36.5ZM64.8 -36.4Q64.8 -18.3 57 -8.4Q49.2 1.4 34.8 1.4Q20.4 1.4 12.6 -8.4Q4.8 -18.3 4.8 -36.4Q4.8 -54.5 12.6 -64.4Q20.4 -74.2 34.8 -74.2Q49.2 -74.2 57 -64.4Q64.8 -54.5 64.8 -36.4Z" },
  "1": { w: 69.6, d: "M11.7 -13H28.3V-60.1L11.3 -56.6V-69.4L28.2 -72.9H46.1V-13H62.7V0H11.7Z" },
  "2": { w: 69.6, d: "M28.8 -13.8H60.9V0H7.9V-13.8L34.5 -37.3Q38.1 -40.5 39.8 -43.6Q41.5 -46.7 41.5 -50Q41.5 -55.1 38.1 -58.3Q34.6 -61.4 28.9 -61.4Q24.5 -61.4 19.3 -59.5Q14.1 -57.6 8.1 -53.9V-69.9Q14.5 -72 20.7 -73.1Q26.9 -74.2 32.8 -74.2Q45.9 -74.2 53.1 -68.5Q60.4 -62.7 60.4 -52.4Q60.4 -46.4 57.3 -41.3Q54.2 -36.1 44.4 -27.5Z" },
  "3": { w: 69.6, d: "M46.6 -39.3Q54 -37.4 57.8 -32.7Q61.6 -28 61.6 -20.7Q61.6 -9.9 53.3 -4.2Q45 1.4 29.1 1.4Q23.5 1.4 17.8 0.5Q12.2 -0.4 6.7 -2.2V-16.7Q12 -14.1 17.2 -12.7Q22.4 -11.4 27.4 -11.4Q34.9 -11.4 38.8 -14Q42.8 -16.6 42.8 -21.4Q42.8 -26.4 38.7 -28.9Q34.7 -31.5 26.7 -31.5H19.2V-43.6H27.1Q34.2 -43.6 37.6 -45.8Q41.1 -48 41.1 -52.6Q41.1 -56.8 37.7 -59.1Q34.4 -61.4 28.2 -61.4Q23.7 -61.4 19 -60.4Q14.4 -59.3 9.8 -57.3V-71.1Q15.4 -72.7 20.8 -73.4Q26.3 -74.2 31.6 -74.2Q45.8 -74.2 52.9 -69.6Q59.9 -64.9 59.9 -55.5Q59.9 -49.1 56.5 -45Q53.2 -41 46.6 -39.3Z" },
  "4": { w: 69.6, d: "M36.8 -57.4 16.2 -26.9H36.8ZM33.7 -72.9H54.6V-26.9H65V-13.3H54.6V0H36.8V-13.3H4.5V-29.4Z" },
  "5": { w: 69.6, d: "M10.6 -72.9H57.3V-59.1H25.6V-47.8Q27.7 -48.4 29.9 -48.7Q32.1 -49 34.4 -49Q47.8 -49 55.2 -42.4Q62.6 -35.7 62.6 -23.8Q62.6 -12 54.5 -5.3Q46.4 1.4 32.1 1.4Q25.9 1.4 19.8 0.2Q13.7 -1 7.7 -3.4V-18.2Q13.7 -14.8 19 -13.1Q24.4 -11.4 29.1 -11.4Q35.9 -11.4 39.9 -14.7Q43.8 -18.1 43.8 -23.8Q43.8 -29.5 39.9 -32.9Q35.9 -36.2 29.1 -36.2Q25 -36.2 20.5 -35.1Q15.9 -34.1 10.6 -31.9Z" },
  "6": { w: 69.6, d: "M36.2 -36Q31.2 -36 28.8 -32.8Q26.3 -29.6 26.3 -23.2Q26.3 -16.8 28.8 -13.6Q31.2 -10.4 36.2 -10.4Q41.2 -10.4 43.6 -13.6Q46.1 -16.8 46.1 -23.2Q46.1 -29.6 43.6 -32.8Q41.2 -36 36.2 -36ZM59.4 -71V-57.5Q54.8 -59.7 50.7 -60.8Q46.6 -61.8 42.7 -61.8Q34.3 -61.8 29.6 -57.2Q24.9 -52.5 24.1 -43.3Q27.3 -45.7 31.1 -46.9Q34.9 -48.1 39.3 -48.1Q50.5 -48.1 57.3 -41.6Q64.2 -35 64.2 -24.4Q64.2 -12.7 56.5 -5.6Q48.9 1.4 36 1.4Q21.8 1.4 14 -8.2Q6.2 -17.8 6.2 -35.4Q6.2 -53.5 15.3 -63.8Q24.4 -74.1 40.3 -74.1Q45.3 -74.1 50 -73.3Q54.8 -72.6 59.4 -71Z" },
  "7": { w: 69.6, d: "M6.7 -72.9H61.6V-62.3L33.2 0H14.9L41.8 -59.1H6.7Z" },
  "8": { w: 69.6, d: "M34.8 -32.6Q29.5 -32.6 26.7 -29.7Q23.9 -26.9 23.9 -21.5Q23.9 -16.1 26.7 -13.3Q29.5 -10.4 34.8 -10.4Q40 -10.4 42.8 -13.3Q45.6 -16.1 45.6 -21.5Q45.6 -26.9 42.8 -29.8Q40 -32.6 34.8 -32.6ZM21.1 -38.8Q14.5 -40.8 11.1 -45Q7.7 -49.1 7.7 -55.3Q7.7 -64.6 14.6 -69.4Q21.5 -74.2 34.8 -74.2Q48 -74.2 54.9 -69.4Q61.8 -64.6 61.8 -55.3Q61.8 -49.1 58.4 -45Q55 -40.8 48.4 -38.8Q55.8 -36.8 59.6 -32.2Q63.4 -27.5 63.4 -20.5Q63.4 -9.7 56.2 -4.1Q49 1.4 34.8 1.4Q20.6 1.4 13.4 -4.1Q6.1 -9.7 6.1 -20.5Q6.1 -27.5 9.9 -32.2Q13.7 -36.8 21.1 -38.8ZM25.5 -53.4Q25.5 -49.1 27.9 -46.7Q30.3 -44.4 34.8 -44.4Q39.2 -44.4 41.6 -46.7Q44 -49.1 44 -53.4Q44 -57.8 41.6 -60.1Q39.2 -62.4 34.8 -62.4Q30.3 -62.4 27.9 -60.1Q25.5 -57.7 25.5 -53.4Z" },
  "9": { w: 69.6, d: "M10 -1.6V-15.1Q14.5 -13 18.6 -11.9Q22.7 -10.9 26.7 -10.9Q35.1 -10.9 39.8 -15.6Q44.5 -20.2 45.3 -29.4Q42 -27 38.2 -25.7Q34.5 -24.5 30.1 -24.5Q18.9 -24.5 12 -31Q5.2 -37.5 5.2 -48.2Q5.2 -60 12.8 -67Q20.5 -74.1 33.3 -74.1Q47.6 -74.1 55.4 -64.5Q63.2 -54.9 63.2 -37.3Q63.2 -19.2 54.1 -8.9Q44.9 1.4 29 1.4Q23.9 1.4 19.2 0.7Q14.5 -0.1 10 -1.6ZM33.2 -36.7Q38.1 -36.7 40.6 -39.9Q43.1 -43.1 43.1 -49.5Q43.1 -55.9 40.6 -59.1Q38.1 -62.3 33.2 -62.3Q28.3 -62.3 25.8 -59.1Q23.3 -55.9 23.3 -49.5Q23.3 -43.1 25.8 -39.9Q28.3 -36.7 33.2 -36.7Z" },
  "J": { w: 37.2, d: "M9.2 -72.9H28V-7.1Q28 6.5 20.6 13.3Q13.2 20 -1.8 20H-5.6V5.8H-2.7Q3.2 5.8 6.2 2.5Q9.2 -0.7 9.2 -7.1Z" },
  "Q": { w: 85, d: "M44.5 1.3H43Q25 1.3 15 -8.6Q5 -18.6 5 -36.4Q5 -54.1 15 -64.2Q25 -74.2 42.5 -74.2Q60.2 -74.2 70.1 -64.3Q80 -54.3 80 -36.4Q80 -24.1 74.7 -15.2Q69.5 -6.3 59.6 -1.8L74.3 14.6H56.4ZM42.5 -60.6Q33.9 -60.6 29.2 -54.2Q24.4 -47.9 24.4 -36.4Q24.4 -24.7 29.1 -18.4Q33.7 -12.2 42.5 -12.2Q51.1 -12.2 55.9 -18.6Q60.6 -24.9 60.6 -36.4Q60.6 -47.9 55.9 -54.2Q51.1 -60.6 42.5 -60.6Z" },
  "K": { w: 77.5, d: "M9.2 -72.9H28V-46.3L55.1 -72.9H76.9L41.8 -38.4L80.5 0H57L28 -28.7V0H9.2Z" },
};

const round2 = (v) => Math.round(v * 100) / 100;

// A rank's text drawn with GLYPHS: from x (or centred on x), on the baseline y, at font size
// `size` (face units); `width`: squeezed to that width (the index's "10").
function glyphText(text, x, y, size, { centre = false, width = null, cls = "" } = {}) {
  const s = size / 100;
  const natural = [...text].reduce((sum, ch) => sum + GLYPHS[ch].w, 0) * s;
  const sx = width ? width / natural : 1;
  const left = centre ? x - (natural * sx) / 2 : x;
  let advance = 0;
  const parts = [];
  for (const ch of text) {
    const at = round2(left + advance * s * sx);
    parts.push(`<path d="${GLYPHS[ch].d}" transform="translate(${at} ${y}) scale(${round2(s * sx)} ${round2(s)})"/>`);
    advance += GLYPHS[ch].w;
  }
  return `<g class="${cls}">${parts.join("")}</g>`;
}

const faceCache = new Map();

// The SVG markup of a card's face (cached per card).
export function faceSVG(code) {
  const c = parseCard(code);
  if (!c) return "";
  if (faceCache.has(c.code)) return faceCache.get(c.code);
  const parts = [];
  // Corner index: big enough to read in a tight fan (it sits in the top 20% of the card),
  // its small suit mark right under it (seen in a fan to the right, where the big one at the
  // top right is covered), above the first row of pips, not beside it.
  const wide = c.shown.length > 1;
  parts.push(glyphText(c.shown, 6, 25.5, 27, { width: wide ? 33 : null, cls: "index-rank" }));
  parts.push(pip(c.suit, 14, 37, 11, false, "index-suit"));
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
    parts.push(glyphText(c.rank, 57, 105, 40, { centre: true }));
    parts.push(pip(c.suit, 57, 120, 16));
  } else {
    const n = Number(c.shown);
    const size = n >= 9 ? 16 : 18;
    for (const [x, y] of PIPS[n]) parts.push(pip(c.suit, x, y, size, y > MID + 1, "pip"));
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
