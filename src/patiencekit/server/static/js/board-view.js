// The board as drawn: the piles of a play (as the server sent them), laid out by the game's
// family (layout.js), the cards sized to the window, a move's cards sliding to their new
// places. It reads no input: board.js adds the player's gestures on top (a BoardView alone
// is a board to look at, such as a tournament's replay). It also draws a hint (the cards a
// move takes, the pile they go to) and plays a line of moves through, card by card (the
// moves auto-complete played).

import { cardName, makeCard, suitMark } from "./cards.js";
import { findGame } from "./games.js";
import { t } from "./i18n.js";
import { layoutFor, pileName } from "./layout.js";

const MOVABLE_KINDS = new Set(["column", "waste", "foundation", "hand", "reserve", "packet"]);
const SLIDE_MS = 170;
// The cards are sized for the window less the bars of a board page above the board (the site
// header, the play page's title and meters and its toolbar: this many pixels) and the move
// box under it: the same size on every page, whatever else a page shows above its board (a
// tournament's round, scrolled to the top of the window to be played, had cards a third
// smaller when they were sized from where the board sat on the page).
const BARS_ABOVE = 136;
const ROOM_BELOW = 64;

function reducedMotion() {
  return !!(window.matchMedia && window.matchMedia("(prefers-reduced-motion: reduce)").matches);
}

const sleep = (ms) => new Promise((resolve) => window.setTimeout(resolve, ms));

// A move of the notation (a contract: `<src> <dst>`, `<src> <dst> <count>`, `s`, `t`):
// {src, dst, count}; dst is null for s and t, count 1 unless given.
export function parseMove(text) {
  const parts = String(text || "").trim().split(/\s+/);
  return { src: parts[0], dst: parts[1] || null, count: parts.length > 2 ? Number(parts[2]) : 1 };
}

// The positions a line of moves goes through from the piles `start` to the piles `end` (both
// as the server sent them), one list of piles per move; null when the line cannot be followed
// here (a move this does not know how to draw, or an end that is not `end`: then only the end
// is drawn). Each card is followed from pile to pile; a card the start does not show (the
// stock's) is named by the place it ends at, which `end` shows, and shown once it leaves the
// stock (the stock's cards stay face down). draw: cards turned per `s`.
export function linePositions(start, moves, end, draw) {
  const names = []; // token -> card code (null: not shown)
  const piles = new Map(start.map((p) => [p.label, p.cards.map((c) => names.push(c ?? null) - 1)]));
  const stock = start.find((p) => p.kind === "stock");
  const waste = start.find((p) => p.kind === "waste");
  const steps = [];
  for (const move of moves) {
    const { src, dst, count: n } = parseMove(move);
    if (src === "s" || src === "t") {
      if (!stock || !waste || !draw) return null;
      const s = piles.get(stock.label);
      const w = piles.get(waste.label);
      if (src === "s") {
        if (!s.length) return null;
        for (let k = Math.min(draw, s.length); k > 0; k--) w.push(s.pop());
      } else {
        if (s.length || !w.length) return null;
        piles.set(stock.label, w.reverse());
        piles.set(waste.label, []);
      }
    } else {
      const from = piles.get(src);
      const to = piles.get(dst);
      if (!from || !to || from === to || !(n >= 1) || n > from.length) return null;
      to.push(...from.splice(from.length - n, n));
    }
    steps.push(new Map([...piles].map(([label, tokens]) => [label, [...tokens]])));
  }
  if (end.length !== piles.size) return null;
  for (const p of end) {
    const tokens = piles.get(p.label);
    if (!tokens || tokens.length !== p.cards.length) return null;
    for (let i = 0; i < tokens.length; i++) {
      const card = p.cards[i] ?? null;
      const known = names[tokens[i]];
      if (known === null) names[tokens[i]] = card;
      else if (card !== null && card !== known) return null;
    }
  }
  const shown = (p, t) => (p.kind === "stock" ? null : names[t]);
  return steps.map((step) => end.map((p) => ({ ...p, cards: step.get(p.label).map((t) => shown(p, t)) })));
}

export class BoardView {
  // games: GET /api/games (the list), for each play's layout and pile names.
  constructor(root, games = []) {
    this.root = root;
    this.games = games;
    this.game = null; // the play's item of the list (null: a game it does not list)
    this.play = null;
    this.layout = null;
    this.gameId = null;
    this.pileEls = new Map();
    this.piles = new Map();
    this.legal = new Set();
    this.sizes = null;
    this.pickable = false; // whether cards can be picked up (Board: yes)
    this.hint = null; // the move drawn as a hint (null: none)

    root.classList.add("board");
    const relayout = () => {
      if (this.play) this.measure();
    };
    window.addEventListener("resize", relayout);
    if (window.ResizeObserver) {
      // Only a change of width matters (the height follows from the layout itself).
      let width = 0;
      new ResizeObserver((entries) => {
        const w = Math.round(entries[0].contentRect.width);
        if (w !== width) {
          width = w;
          relayout();
        }
      }).observe(root);
    }
  }

  // -- drawing ---------------------------------------------------------------------------

  // duration: how long a card slides (ms).
  setPlay(play, { animate = true, duration = SLIDE_MS } = {}) {
    this.clearHint();
    const before = animate && this.play ? this.cardRects() : null;
    const focus = this.focusSpot();
    const labels = play.piles.map((p) => p.label).join(" ");
    if (play.game !== this.gameId || labels !== this.labels) {
      this.build(play);
    }
    this.play = play;
    this.legal = new Set(play.legal_moves || []);
    this.piles = new Map(play.piles.map((p) => [p.label, p]));
    for (const pile of play.piles) this.fill(pile);
    this.measure();
    this.drawn();
    this.root.classList.toggle("won", !!play.won);
    if (focus) this.restoreFocus(focus);
    if (before) this.animateFrom(before, duration);
  }

  build(play) {
    this.gameId = play.game;
    this.game = findGame(this.games, play.game);
    this.labels = play.piles.map((p) => p.label).join(" ");
    this.layout = layoutFor(this.game, play.piles);
    this.root.innerHTML = "";
    this.root.dataset.game = play.game;
    this.pileEls.clear();
    // The document order (and so the Tab order) follows the board: row by row, left to right.
    const order = [...play.piles].sort((a, b) => {
      const pa = this.layout.place[a.label];
      const pb = this.layout.place[b.label];
      return pa.row - pb.row || pa.col - pb.col;
    });
    for (const pile of order) {
      const spot = this.layout.place[pile.label];
      const el = document.createElement("div");
      el.className = `pile kind-${pile.kind} fan-${spot.fan}`;
      if (spot.index) el.classList.add("index-card");
      el.dataset.label = pile.label;
      el.dataset.kind = pile.kind;
      el.tabIndex = 0;
      el.setAttribute("role", "group");
      el.style.gridRow = String(spot.row);
      el.style.gridColumn = `${spot.col} / span ${spot.span || 1}`;
      const slot = document.createElement("div");
      slot.className = "slot";
      slot.setAttribute("aria-hidden", "true");
      if (spot.hint) {
        const rank = spot.hint.rank === "T" ? "10" : spot.hint.rank || "";
        const suit = spot.hint.suit;
        slot.innerHTML =
          `<span class="hint${suit === "H" || suit === "D" ? " red" : ""}">` +
          `<span class="hint-rank">${rank}</span>${suit ? suitMark(suit, "hint-suit") : ""}</span>`;
      } else if (pile.kind === "stock") {
        slot.innerHTML = `<span class="hint stock-hint"></span>`;
      }
      el.appendChild(slot);
      this.root.appendChild(el);
      this.pileEls.set(pile.label, el);
    }
  }

  // Which cards of a pile are drawn (deep cards of a stack are hidden under the top one).
  shownRange(pile, fan) {
    const n = pile.cards.length;
    if (fan === "down" || fan === "right") return [0, n];
    if (fan === "waste3") return [Math.max(0, n - 4), n];
    return [Math.max(0, n - 2), n];
  }

  fill(pile) {
    const el = this.pileEls.get(pile.label);
    const spot = this.layout.place[pile.label];
    for (const old of el.querySelectorAll(".card, .count")) old.remove();
    const [from, to] = this.shownRange(pile, spot.fan);
    const n = pile.cards.length;
    for (let i = from; i < to; i++) {
      const code = pile.cards[i];
      const card = makeCard(code);
      card.dataset.i = String(i);
      const faceUp = code !== null && code !== undefined;
      if (faceUp && this.canPick(pile.label, i)) {
        card.classList.add("movable");
        card.tabIndex = -1;
        card.setAttribute("role", "button");
      }
      el.appendChild(card);
    }
    if (n && (pile.kind === "stock" || (pile.kind === "packet" && spot.fan === "stack"))) {
      const count = document.createElement("span");
      count.className = "count";
      count.textContent = String(n);
      count.setAttribute("aria-hidden", "true");
      el.appendChild(count);
    }
    el.classList.toggle("empty", n === 0);
    if (pile.kind === "stock") {
      const canTurn = this.legal.has("t");
      el.classList.toggle("can-turn", n === 0 && canTurn);
      el.classList.toggle("dead", n === 0 && !canTurn);
    }
    el.setAttribute("aria-label", this.describe(pile));
  }

  describe(pile) {
    const name = this.pileName(pile);
    const n = pile.cards.length;
    if (pile.kind === "stock") {
      if (n) return t("pile.stock_cards", { name, count: n });
      return this.legal.has("t") ? t("pile.stock_empty_turn", { name }) : t("pile.empty", { name });
    }
    if (!n) return t("pile.empty", { name });
    const down = pile.cards.filter((c) => c === null).length;
    const top = pile.cards[n - 1];
    let text = t("pile.cards", { name, count: n });
    if (down) text += t("pile.face_down", { count: down });
    text += t("pile.top", { card: cardName(top) });
    return text;
  }

  // -- sizes -----------------------------------------------------------------------------

  measure() {
    const layout = this.layout;
    if (!layout) return;
    const style = getComputedStyle(this.root);
    const padX = parseFloat(style.paddingLeft) + parseFloat(style.paddingRight);
    const width = this.root.clientWidth - padX;
    const units = layout.cols.reduce((a, b) => a + b, 0);
    const ncols = layout.cols.length;
    const gap = Math.round(Math.min(14, Math.max(3, width * 0.011)));
    const byWidth = (width - gap * (ncols - 1)) / units;
    // Leave room under the board for the move box.
    const availH = Math.max(200, window.innerHeight - BARS_ABOVE - ROOM_BELOW);
    const byHeight = (availH - gap * layout.rows) / (layout.budget * 1.4);
    // Height limits the size on wide screens, but never below a readable size (the page
    // scrolls instead); width always limits it, so nothing overflows sideways.
    let cw = Math.min(byWidth, Math.max(byHeight, Math.min(byWidth, 70)), 132);
    cw = Math.max(16, Math.floor(cw));
    const ch = Math.round(cw * 1.4);
    this.sizes = { cw, ch, gap };
    this.root.style.setProperty("--card-w", `${cw}px`);
    this.root.style.setProperty("--card-h", `${ch}px`);
    this.root.style.setProperty("--gap", `${gap}px`);
    this.root.style.gridTemplateColumns = layout.cols.map((u) => `${Math.round(u * cw)}px`).join(" ");
    for (const [label, el] of this.pileEls) this.position(label, el);
  }

  position(label, el) {
    const pile = this.piles.get(label);
    const spot = this.layout.place[label];
    const { cw, ch } = this.sizes;
    const cards = [...el.querySelectorAll(".card")];
    if (spot.fan === "down") {
      const n = pile.cards.length;
      let up = (spot.up || 0.25) * ch;
      let down = 0.1 * ch;
      const faceDown = pile.cards.filter((c) => c === null).length;
      const faceUp = n - faceDown;
      const natural = ch + faceDown * down + Math.max(0, faceUp - 1) * up;
      // The pile's top in the window, the board's bars above it (as for the card size).
      const rectTop = BARS_ABOVE + el.getBoundingClientRect().top - this.root.getBoundingClientRect().top;
      const room = Math.max(ch * 2.4, window.innerHeight - rectTop - 70);
      if (natural > room && n > 1) {
        const minUp = 0.195 * ch;
        const minDown = 0.05 * ch;
        const extra = room - ch;
        const scale = extra / (faceDown * down + Math.max(0, faceUp - 1) * up);
        up = Math.max(minUp, up * scale);
        down = Math.max(minDown, down * scale);
      }
      let y = 0;
      cards.forEach((card, k) => {
        card.style.top = `${y}px`;
        card.style.left = "0px";
        card.style.zIndex = String(k + 1);
        y += card.classList.contains("back") ? down : up;
      });
      const last = cards.length ? parseFloat(cards[cards.length - 1].style.top) : 0;
      el.style.minHeight = `${Math.ceil(last + ch)}px`;
    } else if (spot.fan === "right" || spot.fan === "waste3") {
      const step = 0.35 * cw;
      const fanned = spot.fan === "right" ? cards.length : Math.min(3, cards.length);
      const firstFanned = cards.length - fanned;
      cards.forEach((card, k) => {
        const x = k <= firstFanned ? 0 : (k - firstFanned) * step;
        card.style.left = `${x}px`;
        card.style.top = "0px";
        card.style.zIndex = String(k + 1);
      });
      el.style.minHeight = `${ch}px`;
    } else {
      cards.forEach((card, k) => {
        card.style.left = "0px";
        card.style.top = "0px";
        card.style.zIndex = String(k + 1);
      });
      el.style.minHeight = `${ch}px`;
    }
  }

  // -- animation -------------------------------------------------------------------------

  cardKey(card, seen) {
    const code = card.dataset.card;
    if (!code) return null;
    const k = seen.get(code) || 0;
    seen.set(code, k + 1);
    return `${code}#${k}`;
  }

  cardRects() {
    const seen = new Map();
    const rects = new Map();
    for (const card of this.root.querySelectorAll(".card")) {
      const key = this.cardKey(card, seen);
      if (key) rects.set(key, card.getBoundingClientRect());
    }
    return rects;
  }

  animateFrom(before, duration = SLIDE_MS) {
    if (reducedMotion()) return;
    const seen = new Map();
    for (const card of this.root.querySelectorAll(".card")) {
      const key = this.cardKey(card, seen);
      const old = key && before.get(key);
      if (!old) continue;
      const now = card.getBoundingClientRect();
      const dx = old.left - now.left;
      const dy = old.top - now.top;
      if (Math.abs(dx) < 1 && Math.abs(dy) < 1) continue;
      // The pile the card lands on rises above the others while the card travels; inside
      // the pile the cards keep their order.
      const pileEl = card.closest(".pile");
      pileEl.classList.add("landing");
      const anim = card.animate(
        [{ transform: `translate(${dx}px, ${dy}px)` }, { transform: "none" }],
        { duration, easing: "cubic-bezier(.2,.7,.3,1)" },
      );
      anim.finished.then(
        () => pileEl.classList.remove("landing"),
        () => pileEl.classList.remove("landing"),
      );
    }
  }

  // Plays a line of moves through from the play drawn now to `end` (a play), one move every
  // `step` ms, each card sliding from its pile to the next (onStep(k) after move k); the
  // board then shows `end`'s piles (the caller draws `end` itself). False when it did
  // nothing: reduced motion, or a line it cannot follow (see linePositions).
  async playThrough(moves, end, { step = 100, onStep = null } = {}) {
    if (!this.play || !moves.length || reducedMotion() || this.play.id !== end.id) return false;
    const positions = linePositions(this.play.piles, moves, end.piles, this.game && this.game.draw);
    if (!positions) return false;
    this.playing(true);
    try {
      for (const [k, piles] of positions.entries()) {
        this.setPlay({ ...end, piles, legal_moves: [], won: false }, { duration: step });
        if (onStep) onStep(k);
        await sleep(step);
      }
    } finally {
      this.playing(false);
    }
    return true;
  }

  // Called as a line starts and ends being played through (Board takes no input meanwhile).
  playing() {}

  // -- the hint --------------------------------------------------------------------------

  // Draws a move of the notation on the board: the card(s) it takes get `hint-from` (the
  // `count` top cards of its source pile; for s or t, the stock's top card, or the stock
  // itself when empty), the pile it goes to `hint-to`. Gone at the next drawing or hint.
  // False when the move names no pile drawn here.
  showHint(move) {
    this.clearHint();
    const parsed = parseMove(move);
    let { src, dst } = parsed;
    const { count } = parsed;
    if (src === "s" || src === "t") {
      const stock = this.play && this.play.piles.find((p) => p.kind === "stock");
      if (!stock) return false;
      src = stock.label;
      dst = null;
    } else if (dst === "f" || dst === "h") {
      // A bare foundation or hand cell: the one the legal moves name for this card.
      const full = [...this.legal].find((m) => new RegExp(`^${src} ${dst}\\d+$`).test(m));
      dst = full ? full.split(" ")[1] : null;
    }
    const pile = this.piles.get(src);
    const fromEl = this.pileEls.get(src);
    if (!pile || !fromEl) return false;
    const first = pile.cards.length - Math.max(1, count || 1);
    const cards = [...fromEl.querySelectorAll(".card")].filter((c) => Number(c.dataset.i) >= first);
    if (cards.length) for (const c of cards) c.classList.add("hint-from");
    else fromEl.classList.add("hint-from");
    fromEl.classList.add("hint-source");
    const toEl = dst && this.pileEls.get(dst);
    if (toEl) toEl.classList.add("hint-to");
    this.hint = move;
    return true;
  }

  clearHint() {
    this.hint = null;
    for (const cls of ["hint-from", "hint-to", "hint-source"]) {
      for (const el of this.root.querySelectorAll(`.${cls}`)) el.classList.remove(cls);
    }
  }

  // A pile's name for the player ("column 3", "stock").
  pileName(pile) {
    return pileName(this.game, pile);
  }

  // Whether the card idx of a pile may be picked up (only the top card, or a face-up string
  // from a column in games that move strings); never on a board only to look at.
  canPick(label, idx) {
    if (!this.pickable) return false;
    const pile = this.piles && this.piles.get(label);
    if (!pile || idx === null || idx === undefined) return false;
    const n = pile.cards.length;
    if (idx < 0 || idx >= n || pile.cards[idx] === null) return false;
    if (!MOVABLE_KINDS.has(pile.kind)) return false;
    if (idx === n - 1) return true;
    // Deeper cards: strings from a column, in games that move strings.
    if (pile.kind !== "column" || !this.layout.strings) return false;
    for (let j = idx; j < n; j++) if (pile.cards[j] === null) return false;
    return true;
  }

  // Called once a play is drawn (Board shows its selection again).
  drawn() {}

  // -- focus ---------------------------------------------------------------------------

  focusSpot() {
    const a = document.activeElement;
    if (!a || !this.root.contains(a)) return null;
    const pileEl = a.closest(".pile");
    if (!pileEl) return null;
    const card = a.classList.contains("card") ? a : null;
    return { label: pileEl.dataset.label, idx: card ? Number(card.dataset.i) : null };
  }

  restoreFocus(spot) {
    const el = this.focusTarget(spot.label, spot.idx);
    if (el && document.activeElement !== el) el.focus({ preventScroll: true });
  }

  focusTarget(label, idx) {
    const pileEl = this.pileEls.get(label);
    if (!pileEl) return null;
    if (idx === null) return pileEl;
    const pile = this.piles.get(label);
    if (idx >= pile.cards.length - 1) return pileEl;
    const card = pileEl.querySelector(`.card[data-i="${idx}"]`);
    return card && card.classList.contains("movable") ? card : pileEl;
  }
}
