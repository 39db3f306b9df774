// A player's statistics: /stats/{name}, from GET /api/stats/{name}.

import { api } from "./api.js";
import { formatTime, initHeader } from "./common.js";
import { games as listGames } from "./games.js";

function playerName() {
  const m = /^\/stats\/([^/]+)\/?$/.exec(window.location.pathname);
  if (m) return decodeURIComponent(m[1]);
  return new URLSearchParams(window.location.search).get("name") || "";
}

function show(value, how = String) {
  return value === null || value === undefined ? "–" : how(value);
}

function percent(rate) {
  const r = Number(rate);
  if (Number.isNaN(r)) return "–";
  const p = r <= 1 ? r * 100 : r;
  return `${p.toFixed(p < 10 && p > 0 ? 1 : 0)}%`;
}

async function main() {
  initHeader();
  const name = playerName();
  document.getElementById("title").textContent = `Statistics of ${name}`;
  document.title = `${name}: statistics – PatienceKit`;
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
      td.textContent = "No games played yet.";
      tr.append(td);
      body.append(tr);
    }
    for (const id of order) {
      const s = stats[id] || {};
      const tr = document.createElement("tr");
      const cells = [
        names.get(id) || id,
        show(s.played),
        show(s.won),
        show(s.win_rate, percent),
        show(s.streak),
        show(s.best_streak),
        show(s.best_time, formatTime),
        show(s.best_score),
        show(s.fewest_moves),
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
