// The board as drawn: the piles of a play (as the server sent them), laid out by the game's
// family (layout.js, mirrored for the left-handed), the cards sized to the window, and its
// motion: a move's cards sliding to their new places, a card turning over, the deal (the
// cards flying from the stock to their places) and the win cascade (motion.js). It reads no
// input: board.js adds the player's gestures on top (a BoardView alone is a board to look at,
// such as a tournament's replay). It also draws a hint (the cards a move takes, the pile they
// go to) and plays a line of moves through, card by card (the moves auto-complete played).
//
// Motion follows the settings (settings.js: off, normal or fast; off under reduced motion
// unless the player chose a speed). Each animation of a card is kept (this.motion) so that a
// new drawing, however soon it comes, settles what runs: a card still on its way to the
// place it keeps goes on from where it is, at the same moment of its animation; a card that
// has a new place slides there from where it is seen now; every other animation is cancelled.
// So every card ends exactly at its place, and none starts a slide over again.

import { cardName, faceSVG, makeCard, suitMark } from "./cards.js";
import { findGame } from "./games.js";
import { t } from "./i18n.js";
import { layoutFor, pileName } from "./layout.js";
import { stopCascade, winCascade } from "./motion.js";
import { leftHanded, motionScale, onSettingsChange } from "./settings.js";

const MOVABLE_KINDS = new Set(["column", "waste", "foundation", "hand", "reserve", "packet"]);
// Durations at the normal speed (ms).
const SLIDE_MS = 170;
const FLIP_MS = 260;
const DEAL_MS = 340;
const DEAL_SPREAD_MS = 900; // from the first card of a deal leaving to the last
const EASE = "cubic-bezier(.2,.7,.3,1)";

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

const centre = (r) => ({ x: r.left + r.width / 2, y: r.top + r.height / 2 });

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

// The side drawn over a card turning over (turn-cover): shown until `edge` (the share of the
// animation where the card is seen edge on), then gone.
function coverFrames(edge) {
  return [{ opacity: 1 }, { opacity: 1, offset: edge }, { opacity: 0, offset: edge }, { opacity: 0 }];
}

export class BoardView {
  // games: GET /api/games (the list), for each play's layout and pile names. still: a
  // picture (the rules page's layout): no pile takes the focus or is named on its own, the
  // caller names the whole picture.
  constructor(root, games = [], { still = false } = {}) {
    this.root = root;
    this.games = games;
    this.still = still;
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
    this.hand = null; // whether the layout is mirrored for the left-handed
    this.motion = new Map(); // a card's key -> its running animation (see track)
    this.dealt = []; // piles raised while the deal flies over them

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
    onSettingsChange(({ name }) => {
      if (name === "hand" && this.play && leftHanded() !== this.hand) this.redraw();
      if (name === "speed" && !motionScale()) this.stopMotion();
    });
  }

  // -- drawing ---------------------------------------------------------------------------

  // duration: how long a card slides (ms, at the normal speed); deal: the cards fly from the
  // stock to their places (a new deal, a restart) instead of sliding from where they were.
  setPlay(play, { animate = true, duration = SLIDE_MS, deal = false } = {}) {
    this.clearHint();
    const scale = motionScale();
    const old = this.play;
    // Where the cards are seen now (on their way, some of them), then what runs is stopped.
    const before = animate && old && scale > 0 && !deal ? this.cardRects() : null;
    const running = this.stopMotion();
    const focus = this.focusSpot();
    const labels = play.piles.map((p) => p.label).join(" ");
    if (play.game !== this.gameId || labels !== this.labels || leftHanded() !== this.hand) {
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
    if (deal && scale > 0) this.animateDeal(scale);
    else if (before) this.animateFrom(before, old, running, duration * scale, scale);
  }

  // The same play drawn again from scratch (the layout changed: left-handed or not).
  redraw() {
    const focus = this.focusSpot();
    this.stopMotion();
    this.build(this.play);
    for (const pile of this.play.piles) this.fill(pile);
    this.measure();
    this.drawn();
    if (focus) this.restoreFocus(focus);
  }

  build(play) {
    this.gameId = play.game;
    this.game = findGame(this.games, play.game);
    this.labels = play.piles.map((p) => p.label).join(" ");
    this.hand = leftHanded();
    this.layout = layoutFor(this.game, play.piles, { leftHanded: this.hand });
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
      if (!this.still) {
        el.tabIndex = 0;
        el.setAttribute("role", "group");
      }
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
    if (!this.still) el.setAttribute("aria-label", this.describe(pile));
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

  // -- motion ----------------------------------------------------------------------------

  cardKey(card, seen) {
    const code = card.dataset.card;
    if (!code) return null;
    const k = seen.get(code) || 0;
    seen.set(code, k + 1);
    return `${code}#${k}`;
  }

  // Where each face-up card is seen now (its key: cardKey), and each pile's top card.
  cardRects() {
    const seen = new Map();
    const cards = new Map();
    const tops = new Map();
    for (const card of this.root.querySelectorAll(".card")) {
      const key = this.cardKey(card, seen);
      const rect = card.getBoundingClientRect();
      if (key) cards.set(key, rect);
      tops.set(card.closest(".pile").dataset.label, rect);
    }
    return { cards, tops };
  }

  // Where a card's place is, from the board's corner (its animation aside: taken before it).
  restOf(card) {
    const c = centre(card.getBoundingClientRect());
    const box = this.root.getBoundingClientRect();
    return { x: c.x - box.left, y: c.y - box.top };
  }

  // Animates a card (frames, options: Web Animations), kept under `key` until it ends.
  // turn: the card turns over meanwhile, {face: a card's code, or null for its back, frames}:
  // that side is drawn over the card, fading out as the turn passes its edge. land: the
  // card's pile rises above the others while it travels. time: where the animation starts
  // (a running one carried over to a card drawn anew).
  track(card, key, frames, options, { turn = null, land = false, time = 0 } = {}) {
    const rest = this.restOf(card);
    const anims = [card.animate(frames, options)];
    let cover = null;
    if (turn) {
      cover = document.createElement("span");
      cover.setAttribute("aria-hidden", "true");
      if (turn.face) {
        cover.className = `turn-cover turn-face ${card.classList.contains("red") ? "red" : "black"}`;
        cover.innerHTML = faceSVG(turn.face);
      } else {
        cover.className = "turn-cover turn-back";
      }
      card.appendChild(cover);
      anims.push(cover.animate(turn.frames, options));
    }
    if (time) for (const a of anims) a.currentTime = time;
    const pileEl = card.closest(".pile");
    const rec = { key, card, frames, options, turn, land, rest, anims, cover, pileEl };
    this.motion.set(key, rec);
    if (land) pileEl.classList.add("landing");
    anims[0].finished.then(
      () => this.untrack(rec),
      () => {},
    );
    return rec;
  }

  untrack(rec) {
    if (this.motion.get(rec.key) === rec) this.motion.delete(rec.key);
    if (rec.cover) rec.cover.remove();
    if (rec.land && ![...this.motion.values()].some((r) => r.land && r.pileEl === rec.pileEl)) {
      rec.pileEl.classList.remove("landing");
    }
    if (this.dealt.length && ![...this.motion.values()].some((r) => r.dealt)) this.undealt();
  }

  // Cancels every animation of the cards (they are at their places at once); what ran, by
  // key, with how far each had gone (`time`).
  stopMotion() {
    const was = new Map();
    for (const rec of this.motion.values()) {
      rec.time = rec.anims[0].currentTime;
      for (const a of rec.anims) a.cancel();
      if (rec.cover) rec.cover.remove();
      was.set(rec.key, rec);
    }
    this.motion.clear();
    for (const el of this.root.querySelectorAll(".pile.landing")) el.classList.remove("landing");
    this.undealt();
    return was;
  }

  // Cancels the animations of these cards only (a card picked up follows the pointer at once).
  stopMotionOf(cards) {
    for (const rec of [...this.motion.values()]) {
      if (!cards.includes(rec.card)) continue;
      for (const a of rec.anims) a.cancel();
      this.untrack(rec);
    }
    this.undealt();
  }

  undealt() {
    for (const el of this.dealt) el.style.zIndex = "";
    this.dealt = [];
  }

  // Once every card has settled (the animations running now have ended or been stopped).
  settled() {
    return Promise.all([...this.motion.values()].map((r) => r.anims[0].finished.catch(() => {})));
  }

  // The motion from the cards as they were seen (before: cardRects) and the play drawn then
  // (old) to the play drawn now: each card that moved slides from where it was seen, a card
  // that turned over in its place turns, a card turned from the stock onto the waste flies
  // from the stock turning face up, a card back onto the stock flies there from the waste;
  // running: what ran until now (stopMotion), carried over where the card keeps its place.
  animateFrom(before, old, running, duration, scale) {
    const was = new Map(old.piles.map((p) => [p.label, p]));
    const stock = this.play.piles.find((p) => p.kind === "stock");
    const waste = this.play.piles.find((p) => p.kind === "waste");
    const oldStock = stock && was.get(stock.label);
    const oldWaste = waste && was.get(waste.label);
    // < 0: cards went from the stock to the waste; > 0: back to the stock.
    const turned = stock && oldStock && waste && oldWaste ? stock.cards.length - oldStock.cards.length : 0;
    const stockEl = stock && this.pileEls.get(stock.label);
    const flipDuration = FLIP_MS * scale;
    const seen = new Map();
    for (const card of this.root.querySelectorAll(".card")) {
      const label = card.closest(".pile").dataset.label;
      const i = Number(card.dataset.i);
      const pile = this.piles.get(label);
      const prev = was.get(label);
      const code = card.dataset.card || null;
      const faceKey = this.cardKey(card, seen);
      const key = faceKey || `${label}@${i}`;
      const run = running.get(key);
      if (run) {
        const rest = this.restOf(card);
        if (Math.abs(rest.x - run.rest.x) < 1 && Math.abs(rest.y - run.rest.y) < 1) {
          this.track(card, key, run.frames, run.options, { turn: run.turn, land: run.land, time: run.time });
          continue;
        }
      }
      const from = faceKey && before.cards.get(faceKey);
      const prevCode = prev && i < prev.cards.length ? prev.cards[i] : undefined;
      const now = card.getBoundingClientRect();
      if (from) {
        this.slide(card, key, from, now, duration);
      } else if (code && prevCode === null) {
        this.turnOver(card, key, null, flipDuration);
      } else if (!code && prevCode) {
        this.turnOver(card, key, prevCode, flipDuration);
      } else if (code && pile === waste && turned < 0 && i >= oldWaste.cards.length && stockEl) {
        // Several cards turned at once leave the stock one after the other.
        const delay = (i - oldWaste.cards.length) * 40 * scale;
        const from = stockEl.querySelector(".slot").getBoundingClientRect();
        this.slide(card, key, from, now, Math.max(duration, flipDuration), { face: null }, delay);
      } else if (!code && pile === stock && turned > 0 && i >= oldStock.cards.length && before.tops.has(waste.label)) {
        const top = oldWaste.cards[oldWaste.cards.length - 1];
        this.slide(card, key, before.tops.get(waste.label), now, Math.max(duration, flipDuration), { face: top });
      }
    }
  }

  // A card slides from the rect `from` to where it is now (`now`), `delay` ms from now; turn:
  // it turns over on the way ({face}: the side it shows first, null for its back).
  slide(card, key, from, now, duration, turn = null, delay = 0) {
    const a = centre(from);
    const b = centre(now);
    const dx = a.x - b.x;
    const dy = a.y - b.y;
    if (Math.abs(dx) < 1 && Math.abs(dy) < 1 && !turn) return;
    const options = { duration, easing: "linear", delay, fill: delay ? "backwards" : "none" };
    if (!turn) {
      this.track(card, key, [
        { transform: `translate(${dx}px, ${dy}px)`, easing: EASE },
        { transform: "none" },
      ], options, { land: true });
      return;
    }
    this.track(card, key, [
      { transform: `translate(${dx}px, ${dy}px)`, easing: "ease-in" },
      { transform: `translate(${dx * 0.4}px, ${dy * 0.4}px) scaleX(0)`, offset: 0.5, easing: "ease-out" },
      { transform: "none" },
    ], options, { land: true, turn: { face: turn.face, frames: coverFrames(0.5) } });
  }

  // A card turns over where it lies: face (a code) is the side it showed before, null when
  // it showed its back.
  turnOver(card, key, face, duration) {
    this.track(card, key, [
      { transform: "none", easing: "ease-in" },
      { transform: "scaleX(0)", offset: 0.5, easing: "ease-out" },
      { transform: "none" },
    ], { duration, easing: "linear" }, { turn: { face, frames: coverFrames(0.5) } });
  }

  // The deal: every card but the stock's flies from the stock (the board's corner in a game
  // without one) to its place, round by round as cards are dealt, the nearest pile first;
  // a face-up card turns over as it lands.
  animateDeal(scale) {
    const stock = this.play.piles.find((p) => p.kind === "stock");
    const stockEl = stock && this.pileEls.get(stock.label);
    let from;
    if (stockEl) {
      from = centre(stockEl.querySelector(".slot").getBoundingClientRect());
    } else {
      const box = this.root.getBoundingClientRect();
      const style = getComputedStyle(this.root);
      const { cw, ch } = this.sizes;
      const y = box.top + parseFloat(style.paddingTop) + ch / 2;
      from = this.hand
        ? { x: box.right - parseFloat(style.paddingRight) - cw / 2, y }
        : { x: box.left + parseFloat(style.paddingLeft) + cw / 2, y };
    }
    const away = (el) => {
      const c = centre(el.getBoundingClientRect());
      return Math.hypot(c.x - from.x, c.y - from.y);
    };
    const seen = new Map();
    const cards = [];
    for (const card of this.root.querySelectorAll(".card")) {
      const pileEl = card.closest(".pile");
      const key = this.cardKey(card, seen) || `${pileEl.dataset.label}@${card.dataset.i}`;
      if (pileEl.dataset.kind !== "stock") cards.push({ card, key, pileEl, i: Number(card.dataset.i) });
    }
    if (!cards.length) return;
    // A pile further away is above the nearer ones while the cards fly over them.
    const piles = [...new Set(cards.map((x) => x.pileEl))];
    const far = new Map(piles.map((el) => [el, away(el)]));
    piles.sort((a, b) => far.get(a) - far.get(b)).forEach((el, k) => {
      el.style.zIndex = String(2 + k);
    });
    this.dealt = piles;
    cards.sort((a, b) => a.i - b.i || far.get(a.pileEl) - far.get(b.pileEl));
    const every = Math.min(30, DEAL_SPREAD_MS / cards.length) * scale;
    const duration = DEAL_MS * scale;
    cards.forEach(({ card, key }, k) => {
      const c = centre(card.getBoundingClientRect());
      const move = `translate(${from.x - c.x}px, ${from.y - c.y}px)`;
      const faceUp = !!card.dataset.card;
      const options = { duration: faceUp ? duration * 1.4 : duration, delay: k * every, fill: "backwards", easing: "linear" };
      const rec = faceUp
        ? this.track(card, key, [
          { transform: move, easing: EASE },
          { transform: "none", offset: 0.7, easing: "ease-in" },
          { transform: "scaleX(0)", offset: 0.85, easing: "ease-out" },
          { transform: "none" },
        ], options, { turn: { face: null, frames: coverFrames(0.85) } })
        : this.track(card, key, [{ transform: move, easing: EASE }, { transform: "none" }], options);
      rec.dealt = true;
    });
  }

  /** The win cascade (motion.js): the foundations' cards bounce away, the board's own
   * foundation cards hidden meanwhile. Resolves when it is over (at once without motion). */
  async cascade() {
    const play = this.play;
    const scale = motionScale();
    if (!play || !scale) return false;
    await this.settled();
    if (this.play !== play) return false;
    const foundations = [];
    for (const p of play.piles) {
      const el = this.pileEls.get(p.label);
      const cards = p.cards.filter((c) => c);
      if (p.kind !== "foundation" || !el || !cards.length) continue;
      const tops = el.querySelectorAll(".card");
      const top = tops.length ? tops[tops.length - 1] : el.querySelector(".slot");
      foundations.push({ rect: top.getBoundingClientRect(), cards });
    }
    const style = getComputedStyle(this.root);
    const colour = (name, fallback) => style.getPropertyValue(name).trim() || fallback;
    const colors = {
      face: colour("--card-bg", "#fff"),
      edge: colour("--card-edge", "rgba(0, 0, 0, 0.3)"),
      red: colour("--card-red", "#c8102e"),
      black: colour("--card-black", "#16181a"),
    };
    this.root.classList.add("cascading");
    try {
      return await winCascade(foundations, { scale, colors });
    } finally {
      this.root.classList.remove("cascading");
    }
  }

  /** Stops the win cascade if it runs. */
  stopCascade() {
    stopCascade();
  }

  // Plays a line of moves through from the play drawn now to `end` (a play), one move every
  // `step` ms (at the normal speed), each card sliding from its pile to the next (onStep(k)
  // after move k); the board then shows `end`'s piles (the caller draws `end` itself). False
  // when it did nothing: motion off, or a line it cannot follow (see linePositions).
  async playThrough(moves, end, { step = 100, onStep = null } = {}) {
    const scale = motionScale();
    if (!this.play || !moves.length || !scale || this.play.id !== end.id) return false;
    const positions = linePositions(this.play.piles, moves, end.piles, this.game && this.game.draw);
    if (!positions) return false;
    this.playing(true);
    try {
      for (const [k, piles] of positions.entries()) {
        this.setPlay({ ...end, piles, legal_moves: [], won: false }, { duration: step });
        if (onStep) onStep(k);
        await sleep(step * scale);
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
