// The board: draws the piles of a play (as the server sent them) and turns the player's
// gestures into moves in the notation. It never decides whether a move is legal: the server
// does; the board only uses the play's `legal_moves` to highlight where a card may go.
//
// Input:
//   - drag a card (or a string of cards) with the mouse or a finger and drop it on a pile;
//   - click (tap) a card, then click (tap) the pile it should go to;
//   - double-click (double-tap) a card to send it to a foundation;
//   - keyboard: Tab / arrow keys move the focus over piles and cards, Enter or Space picks up
//     and drops, Escape puts down, f sends the focused card to a foundation.

import { cardName, makeCard, suitMark } from "./cards.js";
import { layoutFor, pileName } from "./layout.js";

const DRAG_THRESHOLD = 6; // px before a press becomes a drag
const DOUBLE_CLICK_MS = 450;
const MOVABLE_KINDS = new Set(["column", "waste", "foundation", "hand", "reserve", "packet"]);

export class Board {
  // handlers: move(text) / foundation(label) / stock() / announce(text), the first three
  // return promises that resolve when the server has answered (true when it accepted).
  constructor(root, handlers) {
    this.root = root;
    this.h = handlers;
    this.play = null;
    this.layout = null;
    this.gameId = null;
    this.pileEls = new Map();
    this.selection = null; // {label, idx, count}
    this.gesture = null;
    this.lastClick = null;
    this.busy = false;
    this.legal = new Set();
    this.sizes = null;

    root.classList.add("board");
    root.addEventListener("pointerdown", (e) => this.onPointerDown(e));
    root.addEventListener("keydown", (e) => this.onKeyDown(e));
    root.addEventListener("contextmenu", (e) => {
      if (e.target.closest(".card")) e.preventDefault();
    });
    this.onMove = (e) => this.onPointerMove(e);
    this.onUp = (e) => this.onPointerUp(e);
    this.onCancel = () => this.cancelGesture();
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

  setPlay(play, { animate = true } = {}) {
    const before = animate && this.play ? this.cardRects() : null;
    const focus = this.focusSpot();
    const labels = play.piles.map((p) => p.label).join(" ");
    if (play.game !== this.gameId || labels !== this.labels) {
      this.build(play);
    }
    this.play = play;
    this.legal = new Set(play.legal_moves || []);
    this.piles = new Map(play.piles.map((p) => [p.label, p]));
    if (this.selection && !this.canPick(this.selection.label, this.selection.idx)) this.selection = null;
    for (const pile of play.piles) this.fill(pile);
    this.measure();
    this.showSelection();
    this.root.classList.toggle("won", !!play.won);
    if (focus) this.restoreFocus(focus);
    if (before) this.animateFrom(before);
  }

  build(play) {
    this.gameId = play.game;
    this.labels = play.piles.map((p) => p.label).join(" ");
    this.layout = layoutFor(play.game, play.piles);
    this.root.innerHTML = "";
    this.root.dataset.game = play.game;
    this.pileEls.clear();
    this.selection = null;
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
    const name = pileName(this.gameId, pile);
    const n = pile.cards.length;
    if (pile.kind === "stock") {
      if (n) return `${name}, ${n} card${n === 1 ? "" : "s"}: press Enter to turn`;
      return this.legal.has("t") ? `${name}, empty: press Enter to turn the waste over` : `${name}, empty`;
    }
    if (!n) return `${name}, empty`;
    const down = pile.cards.filter((c) => c === null).length;
    const top = pile.cards[n - 1];
    let text = `${name}, ${n} card${n === 1 ? "" : "s"}`;
    if (down) text += `, ${down} face down`;
    text += `, top: ${cardName(top)}`;
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
    const top = this.root.getBoundingClientRect().top + window.scrollY;
    // Leave room under the board for the move box.
    const availH = Math.max(200, window.innerHeight - top - 64);
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
      const rectTop = el.getBoundingClientRect().top + window.scrollY;
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

  animateFrom(before) {
    if (window.matchMedia && window.matchMedia("(prefers-reduced-motion: reduce)").matches) return;
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
        { duration: 170, easing: "cubic-bezier(.2,.7,.3,1)" },
      );
      anim.finished.then(
        () => pileEl.classList.remove("landing"),
        () => pileEl.classList.remove("landing"),
      );
    }
  }

  // -- what may be picked up and where it may go -----------------------------------------

  canPick(label, idx) {
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

  moveText(src, count, dst) {
    const target = this.piles.get(dst);
    const plain = count > 1 ? `${src} ${dst} ${count}` : `${src} ${dst}`;
    if (this.legal.has(plain)) return plain;
    if (count === 1 && target) {
      // Dropped on the wrong foundation or hand cell: the one that takes it.
      if (target.kind === "foundation" && [...this.legal].some((m) => isTo(m, src, "f"))) return `${src} f`;
      if (target.kind === "hand" && [...this.legal].some((m) => isTo(m, src, "h"))) return `${src} h`;
    }
    return plain;
  }

  targetsFor(src, count) {
    const out = new Set();
    for (const m of this.legal) {
      const parts = m.split(" ");
      if (parts.length < 2 || parts[0] !== src) continue;
      const c = parts.length > 2 ? Number(parts[2]) : 1;
      if (c === count) out.add(parts[1]);
    }
    // A foundation or hand move counts for every pile of that kind (the drop picks the right one).
    return out;
  }

  // -- selection (click to move, keyboard) ------------------------------------------------

  select(label, idx) {
    const pile = this.piles.get(label);
    const count = pile.cards.length - idx;
    this.selection = { label, idx, count };
    this.showSelection();
    const what = count > 1 ? `${count} cards from ${cardName(pile.cards[idx])}` : cardName(pile.cards[idx]);
    this.h.announce(`Picked up ${what} from ${pileName(this.gameId, pile)}. Choose where it goes.`);
  }

  clearSelection(say = false) {
    if (!this.selection) return;
    this.selection = null;
    this.showSelection();
    if (say) this.h.announce("Put down.");
  }

  showSelection() {
    for (const el of this.root.querySelectorAll(".selected")) el.classList.remove("selected");
    for (const el of this.root.querySelectorAll(".target")) el.classList.remove("target");
    this.root.classList.toggle("selecting", !!this.selection);
    const sel = this.selection;
    if (!sel) return;
    const el = this.pileEls.get(sel.label);
    for (const card of el.querySelectorAll(".card")) {
      if (Number(card.dataset.i) >= sel.idx) card.classList.add("selected");
    }
    this.markTargets(sel.label, sel.count);
  }

  markTargets(src, count) {
    for (const dst of this.targetsFor(src, count)) {
      const t = this.pileEls.get(dst);
      if (t) t.classList.add("target");
    }
  }

  async send(promise) {
    this.busy = true;
    this.root.classList.add("busy");
    try {
      return await promise;
    } finally {
      this.busy = false;
      this.root.classList.remove("busy");
    }
  }

  async dropOn(dst) {
    const sel = this.selection;
    this.selection = null;
    this.showSelection();
    if (!sel || this.busy) return false;
    return this.send(this.h.move(this.moveText(sel.label, sel.count, dst)));
  }

  async toFoundation(label) {
    this.clearSelection();
    if (this.busy) return false;
    return this.send(this.h.foundation(label));
  }

  async stock() {
    this.clearSelection();
    if (this.busy) return false;
    return this.send(this.h.stock());
  }

  // A click (or tap) on a pile, on card idx (null: the pile itself).
  click(label, idx) {
    const pile = this.piles.get(label);
    if (!pile || this.busy) return;
    const now = performance.now();
    const last = this.lastClick;
    this.lastClick = null;
    if (last && last.label === label && now - last.t < DOUBLE_CLICK_MS && idx !== null && idx === pile.cards.length - 1) {
      // A double-click: the card goes to the foundation that takes it.
      this.toFoundation(label);
      return;
    }
    if (pile.kind === "stock") {
      this.stock();
      return;
    }
    const sel = this.selection;
    if (sel) {
      if (sel.label === label) {
        if (idx !== null && idx !== sel.idx && this.canPick(label, idx)) this.select(label, idx);
        else this.clearSelection(true);
        this.lastClick = { label, idx, t: now };
        return;
      }
      this.dropOn(label);
      return;
    }
    if (this.canPick(label, idx)) {
      this.select(label, idx);
      this.lastClick = { label, idx, t: now };
    }
  }

  // -- pointer: drag and drop, click, double-click --------------------------------------------

  onPointerDown(e) {
    if (e.button !== 0 || this.gesture) return;
    const pileEl = e.target.closest(".pile");
    if (!pileEl || !this.root.contains(pileEl)) return;
    const cardEl = e.target.closest(".card");
    const label = pileEl.dataset.label;
    const idx = cardEl && cardEl.dataset.i !== undefined ? Number(cardEl.dataset.i) : null;
    const pile = this.piles.get(label);
    // A press on a pile's empty area below its cards means the pile itself.
    const effIdx = idx === null && pile && pile.cards.length && pileEl.classList.contains("fan-down") ? null : idx;
    this.gesture = {
      id: e.pointerId,
      x: e.clientX,
      y: e.clientY,
      label,
      idx: effIdx,
      dragging: false,
      canDrag: effIdx !== null && this.canPick(label, effIdx) && !this.busy,
    };
    if (this.gesture.canDrag) e.preventDefault(); // no text selection, no native drag
    document.addEventListener("pointermove", this.onMove);
    document.addEventListener("pointerup", this.onUp);
    document.addEventListener("pointercancel", this.onCancel);
  }

  onPointerMove(e) {
    const g = this.gesture;
    if (!g || e.pointerId !== g.id) return;
    const dx = e.clientX - g.x;
    const dy = e.clientY - g.y;
    if (!g.dragging) {
      if (!g.canDrag || Math.hypot(dx, dy) < DRAG_THRESHOLD) return;
      this.startDrag(g);
    }
    e.preventDefault();
    for (const c of g.cards) c.style.transform = `translate(${dx}px, ${dy}px)`;
    this.hover(this.dropTarget(e.clientX, e.clientY, g));
  }

  startDrag(g) {
    g.dragging = true;
    this.lastClick = null;
    if (this.selection) this.clearSelection();
    const pileEl = this.pileEls.get(g.label);
    g.pileEl = pileEl;
    g.cards = [...pileEl.querySelectorAll(".card")].filter((c) => Number(c.dataset.i) >= g.idx);
    const pile = this.piles.get(g.label);
    g.count = pile.cards.length - g.idx;
    pileEl.classList.add("drag-source");
    this.root.classList.add("dragging");
    for (const c of g.cards) c.classList.add("lifted");
    this.markTargets(g.label, g.count);
  }

  dropTarget(x, y, g) {
    for (const el of document.elementsFromPoint(x, y)) {
      const pileEl = el.closest && el.closest(".pile");
      if (pileEl && this.root.contains(pileEl) && pileEl.dataset.label !== g.label) return pileEl;
    }
    // Not over a pile: the legal target the dragged card overlaps most.
    const top = g.cards[0].getBoundingClientRect();
    let best = null;
    let bestArea = 0;
    for (const el of this.root.querySelectorAll(".pile.target")) {
      const r = el.getBoundingClientRect();
      const w = Math.min(r.right, top.right) - Math.max(r.left, top.left);
      const h = Math.min(r.bottom, top.bottom) - Math.max(r.top, top.top);
      if (w > 0 && h > 0 && w * h > bestArea) {
        best = el;
        bestArea = w * h;
      }
    }
    return best;
  }

  hover(el) {
    for (const old of this.root.querySelectorAll(".drop-hover")) if (old !== el) old.classList.remove("drop-hover");
    if (el) el.classList.add("drop-hover");
  }

  endGesture() {
    document.removeEventListener("pointermove", this.onMove);
    document.removeEventListener("pointerup", this.onUp);
    document.removeEventListener("pointercancel", this.onCancel);
    this.gesture = null;
  }

  cleanDrag(g, snapBack) {
    this.hover(null);
    this.root.classList.remove("dragging");
    if (g.pileEl) g.pileEl.classList.remove("drag-source");
    for (const el of this.root.querySelectorAll(".target")) el.classList.remove("target");
    for (const c of g.cards || []) {
      c.classList.remove("lifted");
      if (snapBack) {
        const from = c.style.transform;
        c.style.transform = "";
        if (from) c.animate([{ transform: from }, { transform: "none" }], { duration: 160, easing: "ease-out" });
      }
    }
  }

  async onPointerUp(e) {
    const g = this.gesture;
    if (!g || e.pointerId !== g.id) return;
    this.endGesture();
    if (!g.dragging) {
      this.click(g.label, g.idx);
      return;
    }
    const target = this.dropTarget(e.clientX, e.clientY, g);
    if (!target) {
      this.cleanDrag(g, true);
      return;
    }
    this.hover(null);
    const text = this.moveText(g.label, g.count, target.dataset.label);
    const ok = await this.send(this.h.move(text));
    // Accepted: the board was redrawn from the server's answer. Refused: back it goes.
    this.cleanDrag(g, !ok);
  }

  cancelGesture() {
    const g = this.gesture;
    if (!g) return;
    this.endGesture();
    if (g.dragging) this.cleanDrag(g, true);
  }

  // -- keyboard ------------------------------------------------------------------------------

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

  focusPile(label) {
    const el = this.pileEls.get(label);
    if (el) el.focus();
  }

  // Spatial navigation between piles: the nearest pile in the arrow's direction.
  neighbour(fromEl, dir) {
    const r = fromEl.getBoundingClientRect();
    const cx = r.left + r.width / 2;
    let best = null;
    let bestScore = Infinity;
    for (const el of this.pileEls.values()) {
      if (el === fromEl) continue;
      const q = el.getBoundingClientRect();
      const qx = q.left + q.width / 2;
      let main;
      let cross;
      if (dir === "left" || dir === "right") {
        main = dir === "right" ? qx - cx : cx - qx;
        cross = Math.abs(q.top - r.top);
      } else {
        main = dir === "down" ? q.top - r.top : r.top - q.top;
        cross = Math.abs(qx - cx);
      }
      if (main <= 1) continue;
      const score = main + cross * 3;
      if (score < bestScore) {
        bestScore = score;
        best = el;
      }
    }
    return best;
  }

  onKeyDown(e) {
    const spot = this.focusSpot();
    if (!spot || e.altKey || e.metaKey || e.ctrlKey) return;
    const pile = this.piles.get(spot.label);
    const pileEl = this.pileEls.get(spot.label);
    const n = pile.cards.length;
    const key = e.key;
    const fanDown = this.layout.place[spot.label].fan === "down";
    if (key === "ArrowLeft" || key === "ArrowRight") {
      const next = this.neighbour(pileEl, key === "ArrowLeft" ? "left" : "right");
      if (next) next.focus();
      e.preventDefault();
    } else if (key === "ArrowUp" || key === "ArrowDown") {
      e.preventDefault();
      const cur = spot.idx === null ? n - 1 : spot.idx;
      if (fanDown && key === "ArrowUp" && cur - 1 >= 0 && this.canPick(spot.label, cur - 1)) {
        this.focusTarget(spot.label, cur - 1).focus();
        return;
      }
      if (fanDown && key === "ArrowDown" && spot.idx !== null && cur + 1 <= n - 1) {
        this.focusTarget(spot.label, cur + 1).focus();
        return;
      }
      const next = this.neighbour(pileEl, key === "ArrowUp" ? "up" : "down");
      if (next) next.focus();
    } else if (key === "Enter" || key === " ") {
      e.preventDefault();
      this.activate(spot);
    } else if (key === "Escape") {
      if (this.selection) {
        e.preventDefault();
        this.clearSelection(true);
      }
    } else if (key === "f" || key === "F") {
      e.preventDefault();
      if (n) this.toFoundation(spot.label);
      else this.h.announce(`${pileName(this.gameId, pile)} is empty.`);
    } else if (key === "Home" || key === "End") {
      e.preventDefault();
      const els = [...this.pileEls.values()];
      (key === "Home" ? els[0] : els[els.length - 1]).focus();
    }
  }

  activate(spot) {
    const pile = this.piles.get(spot.label);
    if (this.busy) return;
    if (pile.kind === "stock") {
      this.stock();
      return;
    }
    const idx = spot.idx === null ? pile.cards.length - 1 : spot.idx;
    const sel = this.selection;
    if (sel) {
      if (sel.label === spot.label) {
        if (idx !== sel.idx && this.canPick(spot.label, idx)) this.select(spot.label, idx);
        else this.clearSelection(true);
        return;
      }
      this.dropOn(spot.label);
      return;
    }
    if (this.canPick(spot.label, idx)) this.select(spot.label, idx);
    else if (!pile.cards.length) this.h.announce(`${pileName(this.gameId, pile)} is empty: nothing to pick up.`);
    else this.h.announce(`Nothing to pick up from ${pileName(this.gameId, pile)}.`);
  }
}

function isTo(move, src, kindLetter) {
  const parts = move.split(" ");
  return parts.length === 2 && parts[0] === src && new RegExp(`^${kindLetter}\\d+$`).test(parts[1]);
}

