// The win cascade: the cards leave the foundations one after another, top cards first, and
// bounce down the screen leaving a trail, the classic way. Drawn cheaply: one canvas over the
// page, each card a small picture drawn once and stamped where it is on every frame (never
// cleared: that is the trail). Its clock is one Web Animation on the canvas (the fade out at
// the end, sped up at the fast speed), so it shows in document.getAnimations() while it
// runs, and it stops at once on any key or click (which does nothing else), or when the page
// stops it. The board (board-view.js) starts it; nothing runs when motion is off.

import { SUIT_PATH } from "./cards.js";

const RANK_SHOWN = { T: "10" };
const FLIGHT_MS = 1500; // the longest a card is on its way (normal speed)
const LAUNCHES_MS = 1600; // every card has left within this (normal speed)

let running = null;

// A card as a small picture: its face, its rank and suit in the corner, a big suit mark.
function sprite(code, w, h, colors, ratio) {
  const c = document.createElement("canvas");
  c.width = Math.ceil(w * ratio);
  c.height = Math.ceil(h * ratio);
  const g = c.getContext("2d");
  g.scale(ratio, ratio);
  const r = w * 0.075;
  g.beginPath();
  g.roundRect(0.5, 0.5, w - 1, h - 1, r);
  g.fillStyle = colors.face;
  g.fill();
  g.strokeStyle = colors.edge;
  g.lineWidth = 1;
  g.stroke();
  const suit = code[code.length - 1];
  const rank = code.slice(0, -1);
  g.fillStyle = suit === "H" || suit === "D" ? colors.red : colors.black;
  g.font = `700 ${Math.round(w * 0.27)}px system-ui, sans-serif`;
  g.textBaseline = "top";
  g.fillText(RANK_SHOWN[rank] || rank, w * 0.07, h * 0.05);
  const mark = new Path2D(SUIT_PATH[suit]);
  const pip = (x, y, size) => {
    g.save();
    g.translate(x - size / 2, y - size / 2);
    g.scale(size / 100, size / 100);
    g.fill(mark);
    g.restore();
  };
  pip(w * 0.17, h * 0.34, w * 0.16);
  pip(w * 0.55, h * 0.6, w * 0.46);
  return c;
}

/** Stops the cascade if one runs (it then resolves). */
export function stopCascade() {
  if (running) running();
}

/** Runs the win cascade from `foundations` ([{rect, cards}]: where each foundation's top card
 * is on the screen, its cards from the bottom up); scale: the motion's share of the normal
 * duration (0: nothing runs). The cards leave top first, one foundation after the other; as
 * one leaves, the card under it shows. Resolves once it is over: run through, or stopped. */
export function winCascade(foundations, { scale = 1, colors } = {}) {
  stopCascade();
  const cards = [];
  const depth = Math.max(0, ...foundations.map((f) => f.cards.length));
  for (let d = 1; d <= depth; d++) {
    for (const f of foundations) {
      const n = f.cards.length;
      if (n >= d) cards.push({ code: f.cards[n - d], below: n > d ? f.cards[n - d - 1] : null, rect: f.rect });
    }
  }
  if (!(scale > 0) || !cards.length) return Promise.resolve(false);
  const W = window.innerWidth;
  const H = window.innerHeight;
  const ratio = Math.min(2, window.devicePixelRatio || 1);
  const canvas = document.createElement("canvas");
  canvas.className = "win-cascade";
  canvas.setAttribute("aria-hidden", "true");
  canvas.dataset.testid = "win-cascade";
  canvas.width = Math.ceil(W * ratio);
  canvas.height = Math.ceil(H * ratio);
  document.body.appendChild(canvas);
  const g = canvas.getContext("2d");
  g.scale(ratio, ratio);

  const every = Math.max(16, Math.min(120, LAUNCHES_MS / cards.length));
  const pictures = new Map();
  const picture = (code, rect) => {
    if (!pictures.has(code)) pictures.set(code, sprite(code, rect.width, rect.height, colors, ratio));
    return pictures.get(code);
  };
  const flying = cards.map((card, k) => {
    const { rect } = card;
    // Off to either side, fast enough to leave the screen within FLIGHT_MS.
    const side = Math.random() < 0.5 ? -1 : 1;
    const room = side < 0 ? rect.left + rect.width : W - rect.left;
    return {
      picture: picture(card.code, rect),
      below: card.below ? picture(card.below, rect) : null,
      rect,
      w: rect.width,
      h: rect.height,
      start: k * every,
      launched: false,
      x: rect.left,
      y: rect.top,
      vx: (side * (room + 20)) / (FLIGHT_MS * (0.55 + Math.random() * 0.45)),
      vy: -Math.random() * 0.6 * (H / 1000),
      done: false,
      at: k * every,
    };
  });
  // The foundations as they are, drawn over the board's (which the board hides meanwhile).
  for (const f of foundations) {
    if (f.cards.length) g.drawImage(picture(f.cards[f.cards.length - 1], f.rect), f.rect.left, f.rect.top, f.rect.width, f.rect.height);
  }
  const gravity = (2.6 * H) / 1e6; // px per ms²
  const total = (cards.length - 1) * every + FLIGHT_MS;

  const clock = canvas.animate([{ opacity: 1 }, { opacity: 1, offset: 0.9 }, { opacity: 0 }], {
    duration: total,
    easing: "linear",
  });
  clock.playbackRate = 1 / scale;

  return new Promise((resolve) => {
    let frame = 0;
    const draw = () => {
      const now = clock.currentTime ?? total;
      for (const c of flying) {
        if (c.done || now < c.start) continue;
        if (!c.launched) {
          c.launched = true;
          g.clearRect(c.rect.left - 1, c.rect.top - 1, c.w + 2, c.h + 2);
          if (c.below) g.drawImage(c.below, c.rect.left, c.rect.top, c.w, c.h);
        }
        // Steps of at most 16 ms, so that a slow frame still bounces where it should.
        while (c.at < now && !c.done) {
          const dt = Math.min(16, now - c.at);
          c.at += dt;
          c.vy += gravity * dt;
          c.x += c.vx * dt;
          c.y += c.vy * dt;
          if (c.y + c.h > H) {
            c.y = H - c.h;
            c.vy = -c.vy * 0.72;
          }
          if (c.x + c.w < 0 || c.x > W) c.done = true;
        }
        if (!c.done) g.drawImage(c.picture, c.x, c.y, c.w, c.h);
      }
      frame = window.requestAnimationFrame(draw);
    };
    const onInput = (e) => {
      e.preventDefault();
      e.stopPropagation();
      stop();
    };
    const stop = () => {
      if (running !== stop) return;
      running = null;
      window.cancelAnimationFrame(frame);
      window.removeEventListener("keydown", onInput, true);
      window.removeEventListener("pointerdown", onInput, true);
      clock.cancel();
      canvas.remove();
      resolve(true);
    };
    running = stop;
    window.addEventListener("keydown", onInput, true);
    window.addEventListener("pointerdown", onInput, true);
    clock.finished.then(stop, stop);
    frame = window.requestAnimationFrame(draw);
  });
}
