// The Top 100 of a ranked game: /top100/{game} (/top100: the first ranked game of GET /api/games,
// each of which has a tab), with the seed's columns:
// position, rank, name, cups, medals, points, and the signed-in player's own line even when
// outside the hundred. Cups and medals as on the seed's table: each count that is not 0 beside
// its place's cup or medal, "no cups" / "no medals" where none (countsCell); the page says in
// words what the rank is and how it grows.

import { ApiError, startRanked } from "./api.js";
import { el, initHeader } from "./common.js";
import { compApi, countsCell, formatPoints } from "./competition-api.js";
import { rankedGames } from "./games.js";
import { t } from "./i18n.js";

const $ = (id) => document.getElementById(id);

function gameId(ranked) {
  const m = /^\/top100\/([^/]+)\/?$/.exec(window.location.pathname);
  if (m) return decodeURIComponent(m[1]);
  return new URLSearchParams(window.location.search).get("game") || (ranked[0] && ranked[0].id);
}

function line(p, me) {
  const tr = el(
    "tr",
    { "data-name": p.name },
    el("td", { class: "num position" }, `${p.position}.`),
    el("td", { class: "rank" }, t("top100.rank", { rank: p.rank })),
    el("th", { scope: "row" }, el("a", { href: `/players/${encodeURIComponent(p.name)}` }, p.name)),
    el("td", {}, countsCell(p.cups, "cups")),
    el("td", {}, countsCell(p.medals, "medals")),
    el("td", { class: "num points" }, t("top100.points", { count: p.points, points: formatPoints(p.points) })),
  );
  if (me && me.name === p.name) tr.classList.add("me");
  return tr;
}

async function playRanked(game, button) {
  button.disabled = true;
  try {
    const play = await startRanked(game, (question) => window.confirm(question));
    if (play === null) {
      button.disabled = false;
      return;
    }
    window.location.href = `/p/${encodeURIComponent(play.id)}`;
  } catch (e) {
    if (!(e instanceof ApiError)) throw e;
    $("error").textContent = e.message;
    button.disabled = false;
  }
}

async function main() {
  let rankedList = [];
  try {
    rankedList = await rankedGames();
  } catch (e) {
    if (!(e instanceof ApiError)) throw e;
    $("error").textContent = e.message;
  }
  const game = gameId(rankedList);
  const tabs = $("variants");
  for (const g of rankedList) {
    const a = el("a", { href: `/top100/${encodeURIComponent(g.id)}` }, g.short_name);
    if (g.id === game) a.setAttribute("aria-current", "page");
    tabs.append(a);
  }
  const session = await initHeader();
  const user = session && session.user;
  const ranked = $("ranked");
  if (user && !user.guest) {
    const b = el("button", { type: "button", class: "primary", id: "play-ranked" }, t("top100.play_ranked"));
    b.addEventListener("click", () => playRanked(game, b));
    ranked.append(b, el("span", { class: "muted" }, t("top100.ranked_text")));
  } else {
    ranked.append(
      el("a", { href: `/signin?next=${encodeURIComponent(window.location.pathname)}` }, t("signin.heading")),
      t("top100.signin_text"),
    );
  }
  ranked.append(el("a", { href: "/tournaments", class: "button" }, t("tournaments.heading")));
  const body = document.querySelector("#top tbody");
  try {
    const board = await compApi.top100(game);
    $("title").textContent = `Top 100 ${board.name}`;
    document.title = `Top 100 ${board.name} – PatienceKit`;
    body.innerHTML = "";
    for (const p of board.players) body.append(line(p, board.me));
    const me = board.me;
    if (me && !board.players.some((p) => p.name === me.name)) {
      const gap = el("td", {}, t("top100.your_position"));
      gap.colSpan = 6;
      body.append(el("tr", { class: "gap" }, gap), line(me, me));
    }
    if (!board.players.length) {
      const td = el("td", {}, t("top100.nobody"));
      td.colSpan = 6;
      body.append(el("tr", {}, td));
    }
    window.pk = { board };
  } catch (e) {
    if (!(e instanceof ApiError)) throw e;
    $("error").textContent = e.message;
  }
}

main();
