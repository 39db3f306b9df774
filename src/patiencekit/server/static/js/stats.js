// A player's statistics: /stats/{name}, from GET /api/stats/{name}.

import { api } from "./api.js";
import { formatTime, initHeader } from "./common.js";
import { games as listGames } from "./games.js";
import { formatNumber, formatPercent, t } from "./i18n.js";

function playerName() {
  const m = /^\/stats\/([^/]+)\/?$/.exec(window.location.pathname);
  if (m) return decodeURIComponent(m[1]);
  return new URLSearchParams(window.location.search).get("name") || "";
}

function show(value, how = String) {
  return value === null || value === undefined ? "–" : how(value);
}


async function main() {
  initHeader();
  const name = playerName();
  document.getElementById("title").textContent = t("stats.of", { name });
  document.title = `${t("stats.page_title", { name })} – PatienceKit`;
  const body = document.querySelector("#stats tbody");
  try {
    const [stats, games] = await Promise.all([api.stats(name), listGames().catch(() => [])]);
    const names = new Map(games.map((g) => [g.id, g.name]));
    const order = games.map((g) => g.id).filter((id) => id in stats);
    for (const id of Object.keys(stats)) if (!order.includes(id)) order.push(id);
    body.innerHTML = "";
    if (!order.length) {
      const tr = document.createElement("tr");
      const td = document.createElement("td");
      td.colSpan = 9;
      td.textContent = t("stats.none");
      tr.append(td);
      body.append(tr);
    }
    for (const id of order) {
      const s = stats[id] || {};
      const tr = document.createElement("tr");
      const cells = [
        names.get(id) || id,
        show(s.played, formatNumber),
        show(s.won, formatNumber),
        show(s.win_rate, formatPercent),
        show(s.streak, formatNumber),
        show(s.best_streak, formatNumber),
        show(s.best_time, formatTime),
        show(s.best_score, formatNumber),
        show(s.fewest_moves, formatNumber),
      ];
      cells.forEach((text, i) => {
        const td = document.createElement(i === 0 ? "th" : "td");
        if (i === 0) td.scope = "row";
        td.textContent = text;
        tr.append(td);
      });
      tr.dataset.game = id;
      body.append(tr);
    }
  } catch (e) {
    document.getElementById("error").textContent = e.message;
  }
}

main();
