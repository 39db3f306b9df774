// A player's figures of every game as the rows of a table (`table.stats`: the game, played,
// won, win rate, streak, best streak, best time, best score, fewest moves), as the statistics
// page (GET /api/stats/{name}) and the profile (GET /api/players/{name}'s `stats`) show them.

import { el, formatTime, shown } from "./common.js";
import { gameName } from "./games.js";
import { formatNumber, formatPercent, t } from "./i18n.js";

const COLUMNS = 9;

/** Fills the table body `body` with a row a game of `entries` ([game id, its figures], in
 * their order; its name from `games`, GET /api/games), or with one row that says there is
 * none. */
export function fillStatsRows(body, entries, games) {
  const names = new Map(games.map((g) => [g.id, gameName(g)]));
  body.innerHTML = "";
  for (const [id, s] of entries) {
    const row = el("tr", { "data-game": id }, el("th", { scope: "row" }, names.get(id) || id));
    for (const text of [
      shown(s.played, formatNumber),
      shown(s.won, formatNumber),
      shown(s.win_rate, formatPercent),
      shown(s.streak, formatNumber),
      shown(s.best_streak, formatNumber),
      shown(s.best_time, formatTime),
      shown(s.best_score, formatNumber),
      shown(s.fewest_moves, formatNumber),
    ]) {
      row.append(el("td", {}, text));
    }
    body.append(row);
  }
  if (!entries.length) {
    const td = el("td", {}, t("stats.none"));
    td.colSpan = COLUMNS;
    body.append(el("tr", {}, td));
  }
}
