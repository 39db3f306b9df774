// The board the player plays on: the BoardView (board-view.js) draws the play, this turns the
// player's gestures into moves in the notation. It never decides whether a move is legal: the
// server does; the board only uses the play's `legal_moves` to highlight where a card may go.
//
// Input:
//   - drag a card (or a string of cards) with the mouse or a finger and drop it on a pile;
//   - click (tap) a card, then click (tap) the pile it should go to;
//   - double-click (double-tap) a card to send it to a foundation;
//   - keyboard: Tab / arrow keys move the focus over piles and cards, Enter or Space picks up
//     and drops, Escape puts down, f sends the focused card to a foundation.

import { cardName } from "./cards.js";
import { BoardView, parseMove } from "./board-view.js";
import { t } from "./i18n.js";

const DRAG_THRESHOLD = 6; // px before a press becomes a drag
const DOUBLE_CLICK_MS = 450;

export class Board extends BoardView {
  // handlers: move(text) / foundation(label) / stock() / announce(text), the first three
  // return promises that resolve when the server has answered (true when it accepted);
  // games: GET /api/games (BoardView).
  constructor(root, handlers, games = []) {
    super(root, games);
    this.h = handlers;
    this.pickable = true;
    this.selection = null; // {label, idx, count}
    this.gesture = null;
    this.lastClick = null;
    this.busy = false;

    root.addEventListener("pointerdown", (e) => this.onPointerDown(e));
    root.addEventListener("keydown", (e) => this.onKeyDown(e));
    root.addEventListener("contextmenu", (e) => {
      if (e.target.closest(".card")) e.preventDefault();
    });
    this.onMove = (e) => this.onPointerMove(e);
    this.onUp = (e) => this.onPointerUp(e);
    this.onCancel = () => this.cancelGesture();
  }

  build(play) {
    this.selection = null;
    super.build(play);
  }

  drawn() {
    if (this.selection && !this.canPick(this.selection.label, this.selection.idx)) this.selection = null;
    this.showSelection();
  }

  // -- where a picked-up card may go -----------------------------------------------------

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
      const move = parseMove(m);
      if (!move.dst || move.src !== src) continue;
      if (move.count === count) out.add(move.dst);
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
    const card = cardName(pile.cards[idx]);
    const what = count > 1 ? t("move.cards_from", { count, card }) : card;
    this.h.announce(t("board.picked_up", { what, pile: this.pileName(pile) }));
  }

  clearSelection(say = false) {
    if (!this.selection) return;
    this.selection = null;
    this.showSelection();
    if (say) this.h.announce(t("board.put_down"));
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

  // A line played through (auto-complete): nothing is picked up or dropped meanwhile.
  playing(on) {
    if (on) this.clearSelection();
    this.busy = on;
    this.root.classList.toggle("busy", on);
    this.root.classList.toggle("autoplaying", on);
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
    this.stopMotionOf(g.cards);
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
      else this.h.announce(t("board.empty", { pile: this.pileName(pile) }));
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
    else if (!pile.cards.length) this.h.announce(t("board.empty_nothing", { pile: this.pileName(pile) }));
    else this.h.announce(t("board.nothing_from", { pile: this.pileName(pile) }));
  }
}

function isTo(move, src, kindLetter) {
  const parts = move.split(" ");
  return parts.length === 2 && parts[0] === src && new RegExp(`^${kindLetter}\\d+$`).test(parts[1]);
}

