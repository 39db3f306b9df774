// A game's rules page: /rules/{game_id}, from GET /api/games.

import { el, initHeader } from "./common.js";
import { games as listGames } from "./games.js";
import { t } from "./i18n.js";

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
      document.getElementById("title").textContent = t("play.unknown_game");
      document.getElementById("error").textContent = t("rules.no_game", { id });
      document.getElementById("play").hidden = true;
      return;
    }
    document.title = `${t("rules.page_title", { name: g.name })} – PatienceKit`;
    document.getElementById("title").textContent = g.name;
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
    const play = document.getElementById("play");
    play.href = `/play/${encodeURIComponent(g.id)}`;
    play.textContent = t("rules.play_name", { name: g.name });
  } catch (e) {
    document.getElementById("error").textContent = e.message;
  }
}

main();
