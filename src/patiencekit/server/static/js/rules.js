// A game's rules page: /rules/{game_id}, from GET /api/games.

import { BoardView } from "./board-view.js";
import { el, initHeader } from "./common.js";
import { gameName, games as listGames } from "./games.js";
import { has, t } from "./i18n.js";

function gameId() {
  const m = /^\/rules\/([^/]+)\/?$/.exec(window.location.pathname);
  if (m) return decodeURIComponent(m[1]);
  return new URLSearchParams(window.location.search).get("game") || "";
}

// The rules text is plain sentences; lines starting with "- " become a list.
function render(text, into) {
  into.innerHTML = "";
  const blocks = String(text || "").split(/\n\s*\n/);
  for (const block of blocks) {
    const lines = block.split("\n").map((l) => l.trim()).filter(Boolean);
    if (!lines.length) continue;
    if (lines.every((l) => l.startsWith("- "))) {
      const ul = el("ul");
      for (const l of lines) ul.append(el("li", {}, l.slice(2)));
      into.append(ul);
    } else {
      into.append(el("p", {}, lines.join(" ")));
    }
  }
}

// The game's word for a kind of pile (its pile_words, else the catalogue's), capitalised.
function kindWord(game, kind) {
  const words = game.pile_words || {};
  const word = words[kind] || (has(`pile.${kind}`) ? t(`pile.${kind}`) : kind);
  return word.charAt(0).toUpperCase() + word.slice(1);
}

// The picture of the layout at the deal: the game's piles (GET /api/games' deal_piles, no
// play is started), every card face down, drawn by the play page's BoardView as a still
// picture (nothing takes the focus or a click), and a legend of its pile kinds.
function drawPicture(game, games) {
  const piles = (game.deal_piles || []).map((p) => ({
    kind: p.kind,
    index: p.index,
    label: p.label,
    face_down: p.cards,
    cards: Array(p.cards).fill(null),
  }));
  if (!piles.length) return;
  const figure = document.getElementById("picture");
  const root = document.getElementById("layout-picture");
  root.setAttribute("aria-label", t("rulespage.picture_label", { name: game.short_name || game.name }));
  figure.hidden = false;
  const view = new BoardView(root, games, { still: true });
  view.setPlay({ game: game.id, piles, legal_moves: [], won: false }, { animate: false });
  const legend = document.getElementById("legend");
  legend.innerHTML = "";
  const counts = new Map();
  for (const p of piles) counts.set(p.kind, (counts.get(p.kind) || 0) + 1);
  for (const [kind, count] of counts) {
    const word = kindWord(game, kind);
    const text = count > 1 ? t("rulespage.legend_many", { word, count }) : word;
    legend.append(el("li", { "data-kind": kind, "data-count": String(count) }, text));
  }
}

async function main() {
  initHeader();
  const id = gameId();
  try {
    const games = await listGames();
    const g = games.find((x) => x.id === id);
    if (!g) {
      document.getElementById("title").textContent = t("play.unknown_game");
      document.getElementById("error").textContent = t("rules.no_game", { id });
      document.getElementById("play").hidden = true;
      document.getElementById("controls").hidden = true;
      return;
    }
    document.title = `${t("rules.page_title", { name: gameName(g) })} – PatienceKit`;
    document.getElementById("title").textContent = gameName(g);
    const rules = document.getElementById("rules");
    if (Array.isArray(g.rules_sections) && g.rules_sections.length) {
      // The server's sections, in the page's language, each with its heading.
      rules.innerHTML = "";
      for (const [i, section] of g.rules_sections.entries()) {
        const part = el("section", { class: "rules-section", "aria-labelledby": `rules-${i}` });
        const body = el("div");
        render(section.text, body);
        part.append(el("h2", { id: `rules-${i}` }, section.heading), ...body.children);
        rules.append(part);
      }
    } else {
      render(g.rules_text, rules);
    }
    rules.prepend(el("p", { class: "muted" }, t("rules.decks", { count: g.decks })));
    drawPicture(g, games);
    const play = document.getElementById("play");
    play.href = `/play/${encodeURIComponent(g.id)}`;
    play.textContent = t("rules.play_name", { name: gameName(g) });
  } catch (e) {
    document.getElementById("error").textContent = e.message;
  }
}

main();
