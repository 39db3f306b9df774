// A player's profile: /players/{name}. Rank, points, position, cups and medals per variant, the
// tournaments played with their places, the latest medals and the statistics of every game.

import { ApiError } from "./api.js";
import { el, initHeader, shown } from "./common.js";
import { compApi, countsCell, formatPoints, placeText, statusWord } from "./competition-api.js";
import { findGame, gameName, games as listGames, shortName } from "./games.js";
import { formatDate, formatDay, formatNumber, t } from "./i18n.js";
import { fillStatsRows } from "./stats-table.js";

const $ = (id) => document.getElementById(id);

function playerName() {
  const m = /^\/players\/([^/]+)\/?$/.exec(window.location.pathname);
  if (m) return decodeURIComponent(m[1]);
  return new URLSearchParams(window.location.search).get("name") || "";
}

function standingCard(gameId, variant, games) {
  const s = variant.standing;
  const card = el("div", { class: "panel", "data-game": gameId });
  const game = findGame(games, gameId);
  card.append(el("h3", {}, game ? gameName(game) : variant.name));
  if (!s) {
    card.append(el("p", { class: "muted" }, t("profile.no_ranked")));
    return card;
  }
  const dl = el("dl", {});
  const row = (label, value) => dl.append(el("dt", {}, label), el("dd", {}, value));
  row(t("col.rank"), t("top100.rank", { rank: s.rank }));
  row(t("col.points"), formatPoints(s.points));
  row(t("profile.position"), el("a", { href: `/top100/${gameId}` }, `${s.position}.`));
  row(t("col.cups"), countsCell(s.cups, "cups"));
  row(t("col.medals"), countsCell(s.medals, "medals"));
  row(t("profile.ranked_games"), formatNumber(s.games));
  card.append(dl);
  return card;
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
    for (const [gameId, variant] of Object.entries(p.variants)) cards.append(standingCard(gameId, variant, games));
    const body = document.querySelector("#tournaments tbody");
    body.innerHTML = "";
    for (const one of p.tournaments) {
      body.append(
        el(
          "tr",
          { "data-id": String(one.id) },
          el("td", {}, el("a", { href: `/tournaments/${one.id}` }, `#${one.id}`)),
          el("td", {}, shortName(games, one.game)),
          el("td", {}, el("span", { class: `status ${one.status}` }, statusWord(one.status))),
          el("td", { class: "place" }, placeText(one.place)),
          el("td", { class: "num" }, shown(one.score, formatNumber)),
          el("td", {}, formatDate(one.finished_at)),
        ),
      );
    }
    if (!p.tournaments.length) {
      const td = el("td", {}, t("profile.no_tournament"));
      td.colSpan = 6;
      body.append(el("tr", {}, td));
    }
    const medals = $("medals");
    medals.innerHTML = "";
    for (const m of p.medals) {
      medals.append(
        el("li", {}, t("profile.medal", {
          day: formatDay(m.day),
          place: placeText(m.place),
          game: shortName(games, m.game),
          count: m.score,
          points: formatNumber(m.score),
        })),
      );
    }
    if (!p.medals.length) medals.append(el("li", { class: "muted" }, t("profile.no_medal")));
    const played = Object.entries(p.stats).filter(([, s]) => s.played);
    fillStatsRows(document.querySelector("#stats tbody"), played, games);
    window.pk = { profile: p };
  } catch (e) {
    if (!(e instanceof ApiError)) throw e;
    $("error").textContent = e.message;
  }
}

main();
