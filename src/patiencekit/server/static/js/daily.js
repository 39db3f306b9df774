// The daily deals: /daily. Today's deal of every game (GET /api/daily): how many have played it
// and play it now, the session's own play of each, and the way to each game's page (where it is
// played, with its table and yesterday's deal). No deal number is ever shown here.

import { ApiError } from "./api.js";
import { el, initHeader } from "./common.js";
import { compApi, timeLeft } from "./competition-api.js";
import { gamesOrNone, shortName } from "./games.js";
import { formatDay, formatNumber, t } from "./i18n.js";

const $ = (id) => document.getElementById(id);

// The session's own play of a day's deal, in a word.
function mineWord(status) {
  if (status === "playing") return t("daily.mine_playing");
  if (status === "ended") return t("daily.mine_played");
  return "\u2013";
}

function row(games, g, signedIn) {
  const href = `/daily/${encodeURIComponent(g.game)}`;
  const status = g.me ? g.me.status : "none";
  let action = t("daily.action_table");
  if (signedIn && status === "none") action = t("daily.action_play");
  else if (signedIn && status === "playing") action = t("daily.action_resume");
  const primary = signedIn && (status === "none" || status === "playing");
  return el(
    "tr",
    { "data-game": g.game },
    el("th", { scope: "row" }, el("a", { href }, shortName(games, g.game))),
    el("td", { class: "num" }, formatNumber(g.players)),
    el("td", { class: "num" }, formatNumber(g.playing)),
    el("td", { "data-testid": "mine" }, mineWord(status)),
    el("td", {}, el("a", { class: primary ? "button primary" : "button", href }, action)),
  );
}

async function main() {
  const sessionPromise = initHeader();
  const games = await gamesOrNone();
  const session = await sessionPromise;
  const user = session && session.user;
  const signedIn = !!(user && !user.guest);
  $("signin-note").hidden = signedIn;
  try {
    const today = await compApi.daily();
    $("today").textContent = formatDay(today.day);
    $("left").textContent = timeLeft(today.ends_at - today.now);
    const body = document.querySelector("#games tbody");
    body.innerHTML = "";
    for (const g of today.games) body.append(row(games, g, signedIn));
  } catch (e) {
    if (!(e instanceof ApiError)) throw e;
    $("error").textContent = e.message;
  }
}

main();
