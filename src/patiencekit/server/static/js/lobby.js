// The lobby: every game (GET /api/games: its name, blurb and the cards on its tile), with its
// rules page and a play button; who is playing.

import { makeCard } from "./cards.js";
import { el, initHeader } from "./common.js";
import { gameName, games as listGames } from "./games.js";
import { formatNumber, t } from "./i18n.js";

function firstSentence(text) {
  const m = /^(.+?\.)(\s|$)/.exec(text || "");
  return m ? m[1] : text || "";
}

/** "Two decks · 903 deals proved winnable": what "Winnable deals only" draws from. */
function deckLine(g) {
  const decks = t("lobby.decks", { count: g.decks });
  const n = g.winnable_deals;
  if (!n) return decks;
  return `${decks} · ${t("lobby.winnable", { count: n, number: formatNumber(n) })}`;
}

async function main() {
  const sessionPromise = initHeader();
  const list = document.getElementById("games");
  try {
    const games = await listGames();
    list.innerHTML = "";
    for (const g of games) {
      const minis = el("div", { class: "minis", "aria-hidden": "true" });
      // A few cards to decorate the tile (purely decorative).
      for (const code of g.lobby_cards || ["AS", "KH", "QC"]) {
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
        el("h2", { id: `g-${g.id}` }, gameName(g)),
        el("p", { class: "decks" }, deckLine(g)),
        el("p", {}, g.blurb || firstSentence(g.rules_text)),
        el(
          "div",
          { class: "actions" },
          el("a", { class: "button primary", href: `/play/${id}`, "aria-describedby": `g-${g.id}` }, t("rules.play")),
          el("a", { href: `/rules/${id}`, "aria-describedby": `g-${g.id}` }, t("play.rules")),
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
    welcome.textContent = t("lobby.welcome_back", { name: user.name });
  } else {
    welcome.textContent = t("lobby.welcome");
  }
}

main();
