// The board's sounds, made in the page with Web Audio (nothing is downloaded): the deal, a
// card put down, a card turned, a card on its foundation, the win. Short and quiet.
//
// Sound is off until the player turns it on (settings.js): a page that starts making noise
// in an office, a classroom or beside a screen reader is rude, and browsers only let a page
// play after a gesture of the player's anyway. The AudioContext is made lazily, on the first
// key press or click once sound is on (the autoplay policy), never before; a sound asked for
// before that is simply not played.
//
// window.pkSound tells the tests (and the curious) whether there is an AudioContext
// (`state`: null, "suspended", "running") and how many of each sound were played.

import { onSettingsChange, soundOn } from "./settings.js";

const played = { deal: 0, place: 0, flip: 0, foundation: 0, win: 0 };
let ctx = null;
let out = null;
let noise = null;

function context() {
  if (!ctx) {
    const Context = window.AudioContext || window.webkitAudioContext;
    if (!Context) return null;
    try {
      ctx = new Context();
    } catch (e) {
      return null;
    }
    out = ctx.createGain();
    out.gain.value = 0.5;
    out.connect(ctx.destination);
    // Half a second of white noise, the stuff of card sounds.
    noise = ctx.createBuffer(1, Math.floor(ctx.sampleRate * 0.5), ctx.sampleRate);
    const data = noise.getChannelData(0);
    for (let i = 0; i < data.length; i++) data[i] = Math.random() * 2 - 1;
  }
  if (ctx.state === "suspended") ctx.resume().catch(() => {});
  return ctx;
}

// In a gesture of the player's: the context may start now.
function unlock() {
  if (soundOn()) context();
}
for (const type of ["pointerdown", "keydown"]) {
  window.addEventListener(type, unlock, { capture: true, passive: true });
}
onSettingsChange(({ name }) => {
  if (name !== "sound") return;
  // Turned on in the dialog (a click or a key: a gesture): start, and let it be heard.
  if (soundOn()) {
    context();
    playSound("place");
  } else if (ctx) {
    ctx.suspend().catch(() => {});
  }
});

// A burst of filtered noise: `at` seconds from now, `length` seconds, through a filter.
function rustle(at, length, { type = "bandpass", from = 1800, to = from, q = 0.9, gain = 0.5 } = {}) {
  const src = ctx.createBufferSource();
  src.buffer = noise;
  const filter = ctx.createBiquadFilter();
  filter.type = type;
  filter.Q.value = q;
  filter.frequency.setValueAtTime(from, at);
  filter.frequency.exponentialRampToValueAtTime(to, at + length);
  const env = ctx.createGain();
  env.gain.setValueAtTime(0.0001, at);
  env.gain.exponentialRampToValueAtTime(gain, at + 0.004);
  env.gain.exponentialRampToValueAtTime(0.0001, at + length);
  src.connect(filter).connect(env).connect(out);
  src.start(at, Math.random() * 0.3, length + 0.02);
}

// A soft note: `at` seconds from now, `length` seconds long.
function note(at, freq, length, { type = "sine", gain = 0.15 } = {}) {
  const osc = ctx.createOscillator();
  osc.type = type;
  osc.frequency.setValueAtTime(freq, at);
  const env = ctx.createGain();
  env.gain.setValueAtTime(0.0001, at);
  env.gain.exponentialRampToValueAtTime(gain, at + 0.01);
  env.gain.exponentialRampToValueAtTime(0.0001, at + length);
  osc.connect(env).connect(out);
  osc.start(at);
  osc.stop(at + length + 0.02);
}

const SOUNDS = {
  // a riffle of cards leaving the stock
  deal(at) {
    for (let k = 0; k < 8; k++) rustle(at + k * 0.045, 0.05, { from: 2200, to: 1400, gain: 0.22 });
  },
  // a card put down: a tap and its thud
  place(at) {
    rustle(at, 0.07, { from: 1600, to: 900, gain: 0.4 });
    note(at, 170, 0.06, { gain: 0.12 });
  },
  // a card turned over: a quick swish
  flip(at) {
    rustle(at, 0.09, { type: "highpass", from: 2500, to: 6000, q: 0.7, gain: 0.3 });
  },
  // a card on its foundation: a small bell
  foundation(at) {
    note(at, 784, 0.22, { gain: 0.1 });
    note(at + 0.015, 1175, 0.18, { gain: 0.05 });
  },
  // the win: a rising chord
  win(at) {
    [523.25, 659.25, 783.99, 1046.5].forEach((f, k) => note(at + k * 0.11, f, 0.35, { type: "triangle", gain: 0.12 }));
  },
};

/** Plays a sound (deal, place, flip, foundation, win) `delay` ms from now; false when it is
 * not played (sound off, or no gesture of the player's yet). */
export function playSound(name, delay = 0) {
  if (!soundOn() || !ctx || !Object.hasOwn(SOUNDS, name)) return false;
  if (ctx.state === "suspended") ctx.resume().catch(() => {});
  SOUNDS[name](ctx.currentTime + 0.005 + delay / 1000);
  played[name] += 1;
  return true;
}

window.pkSound = {
  get state() {
    return ctx ? ctx.state : null;
  },
  played,
};
