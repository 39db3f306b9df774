// A player's profile: /players/{name}. Rank, points, position, cups and medals per variant, the
// tournaments played with their places, the latest medals and the statistics of every game.

import { ApiError } from "./api.js";
import { el, formatTime, initHeader } from "./common.js";
import { compApi, countsCell, formatPoints, placeText } from "./competition-api.js";
import { games as listGames, shortName } from "./games.js";

const $ = (id) => document.getElementById(id);

function playerName() {
  const m = /^\/players\/([^/]+)\/?$/.exec(window.location.pathname);
  if (m) return decodeURIComponent(m[1]);
  return new URLSearchParams(window.location.search).get("name") || "";
}

function show(value, how = String) {
  return value === null || value === undefined ? "–" : how(value);
}

function standingCard(gameId, variant) {
  const s = variant.standing;
  const card = el("div", { class: "panel", "data-game": gameId });
  card.append(el("h3", {}, variant.name));
  if (!s) {
    card.append(el("p", { class: "muted" }, "No ranked game finished yet."));
    return card;
  }
  const dl = el("dl", {});
  const row = (label, value) => dl.append(el("dt", {}, label), el("dd", {}, value));
  row("Rank", `Rank ${s.rank}`);
  row("Points", formatPoints(s.points));
  row("Position", el("a", { href: `/top100/${gameId}` }, `${s.position}.`));
  row("Cups", countsCell(s.cups, "cups"));
  row("Medals", countsCell(s.medals, "medals"));
  row("Ranked games", String(s.games));
  card.append(dl);
  return card;
}

function statsRows(stats, games) {
  const body = document.querySelector("#stats tbody");
  body.innerHTML = "";
  const names = new Map(games.map((g) => [g.id, g.name]));
  for (const [id, s] of Object.entries(stats)) {
    if (!s.played) continue;
    const tr = el("tr", { "data-game": id });
    const cells = [
      names.get(id) || id,
      show(s.played),
      show(s.won),
      show(s.win_rate, (r) => `${Math.round(r * 100)}%`),
      show(s.streak),
      show(s.best_streak),
      show(s.best_time, formatTime),
      show(s.best_score),
      show(s.fewest_moves),
    ];
    cells.forEach((text, i) => {
      const td = el(i === 0 ? "th" : "td", i === 0 ? { scope: "row" } : {}, text);
      tr.append(td);
    });
    body.append(tr);
  }
  if (!body.children.length) {
    const td = el("td", {}, "No games played yet.");
    td.colSpan = 9;
    body.append(el("tr", {}, td));
  }
}

async function main() {
  initHeader();
  const name = playerName();
  $("title").textContent = name;
  document.title = `${name} – PatienceKit`;
  try {
    const [p, games] = await Promise.all([compApi.player(name), listGames().catch(() => [])]);
    $("title").textContent = p.name;
    const cards = $("standings");
    cards.innerHTML = "";
    for (const [gameId, variant] of Object.entries(p.variants)) cards.append(standingCard(gameId, variant));
    const body = document.querySelector("#tournaments tbody");
    body.innerHTML = "";
    for (const t of p.tournaments) {
      body.append(
        el(
          "tr",
          { "data-id": String(t.id) },
          el("td", {}, el("a", { href: `/tournaments/${t.id}` }, `#${t.id}`)),
          el("td", {}, shortName(games, t.game)),
          el("td", {}, el("span", { class: `status ${t.status}` }, t.status)),
          el("td", { class: "place" }, placeText(t.place)),
          el("td", { class: "num" }, show(t.score)),
          el("td", {}, t.finished_at ? new Date(t.finished_at * 1000).toLocaleDateString() : "–"),
        ),
      );
    }
    if (!p.tournaments.length) {
      const td = el("td", {}, "No tournament yet.");
      td.colSpan = 6;
      body.append(el("tr", {}, td));
    }
    const medals = $("medals");
    medals.innerHTML = "";
    for (const m of p.medals) {
      medals.append(el("li", {}, `${m.day}: ${placeText(m.place)} place in ${shortName(games, m.game)} (${m.score} points)`));
    }
    if (!p.medals.length) medals.append(el("li", { class: "muted" }, "No medal yet."));
    statsRows(p.stats, games);
    window.pk = { profile: p };
  } catch (e) {
    if (!(e instanceof ApiError)) throw e;
    $("error").textContent = e.message;
  }
}

main();
