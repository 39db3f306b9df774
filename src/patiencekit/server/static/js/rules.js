// A game's rules page: /rules/{game_id}, from GET /api/games.

import { el, initHeader } from "./common.js";
import { games as listGames } from "./games.js";

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

async function main() {
  initHeader();
  const id = gameId();
  try {
    const games = await listGames();
    const g = games.find((x) => x.id === id);
    if (!g) {
      document.getElementById("title").textContent = "Unknown game";
      document.getElementById("error").textContent = `There is no game "${id}". See the list of games.`;
      document.getElementById("play").hidden = true;
      return;
    }
    document.title = `${g.name}: rules – PatienceKit`;
    document.getElementById("title").textContent = g.name;
    const rules = document.getElementById("rules");
    render(g.rules_text, rules);
    rules.prepend(el("p", { class: "muted" }, g.decks === 1 ? "One deck of 52 cards." : `${g.decks} decks of 52 cards.`));
    const play = document.getElementById("play");
    play.href = `/play/${encodeURIComponent(g.id)}`;
    play.textContent = `Play ${g.name}`;
  } catch (e) {
    document.getElementById("error").textContent = e.message;
  }
}

main();
