// The lobby: every game, with its rules page and a play button; who is playing.

import { api } from "./api.js";
import { makeCard } from "./cards.js";
import { el, initHeader } from "./common.js";

// A few cards to decorate each game's tile (purely decorative).
const DECOR = {
  klondike: ["KS", "QH", "JC"],
  "klondike-draw1": ["AH", "2S", "3D"],
  patiencemax: ["KD", "QC", "KH"],
  "patiencemax-all-to-piles": ["AS", "AH", "AD"],
  patriarchs: ["AC", "KC", "5H"],
  "picture-patience": ["KH", "AH", "QS"],
  "odd-and-even": ["AD", "3D", "5D"],
  "royal-cotillion": ["2S", "4S", "6S"],
  contradance: ["5C", "6C", "7H"],
  "captured-queens": ["QH", "QS", "QD"],
  "senior-wrangler": ["2H", "4C", "6D"],
};

// A line about each game for its tile (the rules page has the full text).
const BLURB = {
  klondike: "The classic Solitaire: build the four suits from ace to king, turning the stock three cards at a time. Scored, with a time bonus.",
  "klondike-draw1": "Solitaire turning one card at a time: easier to win, same scoring and time bonus.",
  patiencemax: "Ten full columns and a hand of four cells. Win by bringing all eight kings to the top of the columns.",
  "patiencemax-all-to-piles": "PatienceMax played out to the end: every card onto the eight foundations.",
  patriarchs: "Aces build up and kings build down, fed by a reserve of nine and the stock. One redeal.",
  "picture-patience": "Patriarchs with empty foundations to start: place the aces and kings as they turn up.",
  "odd-and-even": "Build by twos: from the ace through the odd cards, from the two through the even ones.",
  "royal-cotillion": "Odd and Even's foundations, four short piles on the left and sixteen reserve cards on the right.",
  contradance: "Sixteen foundations: the fives build down, the sixes up; only the waste card plays.",
  "captured-queens": "The fives build down, the sixes up, and the queens are set aside. Two redeals.",
  "senior-wrangler": "Eight index cards set each foundation's step, from 2 to 9, ignoring suits. A game of counting.",
};

function firstSentence(text) {
  const m = /^(.+?\.)(\s|$)/.exec(text || "");
  return m ? m[1] : text || "";
}

/** "Two decks · 903 deals proved winnable": what "Winnable deals only" draws from. */
function deckLine(g) {
  const decks = g.decks === 1 ? "One deck" : `${g.decks} decks`;
  const n = g.winnable_deals;
  if (!n) return decks;
  return `${decks} · ${n.toLocaleString("en")} ${n === 1 ? "deal" : "deals"} proved winnable`;
}

async function main() {
  const sessionPromise = initHeader();
  const list = document.getElementById("games");
  try {
    const games = await api.games();
    list.innerHTML = "";
    for (const g of games) {
      const minis = el("div", { class: "minis", "aria-hidden": "true" });
      for (const code of DECOR[g.id] || ["AS", "KH", "QC"]) {
        const c = makeCard(code);
        c.classList.add("mini");
        c.removeAttribute("role");
        c.removeAttribute("aria-label");
        minis.append(c);
      }
      const id = encodeURIComponent(g.id);
      const tile = el(
        "li",
        { class: "game-tile", "data-game": g.id },
        minis,
        el("h2", { id: `g-${g.id}` }, g.name),
        el("p", { class: "decks" }, deckLine(g)),
        el("p", {}, BLURB[g.id] || firstSentence(g.rules_text)),
        el(
          "div",
          { class: "actions" },
          el("a", { class: "button primary", href: `/play/${id}`, "aria-describedby": `g-${g.id}` }, "Play"),
          el("a", { href: `/rules/${id}`, "aria-describedby": `g-${g.id}` }, "Rules"),
        ),
      );
      list.append(tile);
    }
  } catch (e) {
    document.getElementById("error").textContent = e.message;
  }
  const session = await sessionPromise;
  const user = session && session.user;
  const welcome = document.getElementById("welcome");
  if (user && !user.guest) {
    welcome.textContent = `Welcome back, ${user.name}. Pick a game; every deal has a number you can replay or share.`;
  } else {
    welcome.textContent =
      "Pick a game and play at once, no account needed. Sign up to keep statistics. Every deal has a number you can replay or share.";
  }
}

main();
