// A player's statistics: /stats/{name}. The table of every game (GET /api/stats/{name}), a
// game's charts drawn here as SVG (GET /api/stats/{name}/charts/{game}: the win rate over the
// last games, every ended game's score (wins filled, the others hollow), a win's time, the wins
// in a row), and the history of the player's
// games, a page at a time (GET /api/stats/{name}/history), each with its replay when the reader
// may see it (their own games; a tournament's rounds once it is over).

import { ApiError, request } from "./api.js";
import { chart } from "./charts.js";
import { el, formatTime, initHeader, shown } from "./common.js";
import { findGame, gameName, gamesOrNone, shortName } from "./games.js";
import { formatDate, formatDateTime, formatNumber, formatPercent, t } from "./i18n.js";
import { ReplayViewer } from "./replay.js";
import { fillStatsRows } from "./stats-table.js";

const PAGE = 10;
const $ = (id) => document.getElementById(id);
const enc = encodeURIComponent;

const ui = {
  name: "",
  games: [],
  stats: null,
  charts: null,
  history: null,
  viewer: null,
};

function playerName() {
  const m = /^\/stats\/([^/]+)\/?$/.exec(window.location.pathname);
  if (m) return decodeURIComponent(m[1]);
  return new URLSearchParams(window.location.search).get("name") || "";
}

function showError(e) {
  if (!(e instanceof ApiError)) throw e;
  $("error").textContent = e.message;
}

// "won", "abandoned", ... in words.
function resultWord(result) {
  return t(`stats.result.${result}`);
}

// -- the table ------------------------------------------------------------------------------

function statsTable(stats) {
  const order = ui.games.map((g) => g.id).filter((id) => id in stats);
  for (const id of Object.keys(stats)) if (!order.includes(id)) order.push(id);
  const rows = order.map((id) => [id, stats[id] || {}]);
  fillStatsRows(document.querySelector("#stats tbody"), rows, ui.games);
}

// -- the charts -----------------------------------------------------------------------------

// The games played, in the registry's order, the most played one chosen.
function chartGames(stats) {
  const select = $("chart-game");
  select.innerHTML = "";
  const played = Object.entries(stats).filter(([, s]) => s.played > 0);
  let chosen = null;
  for (const [id, s] of played) {
    select.append(el("option", { value: id }, findGame(ui.games, id) ? gameName(findGame(ui.games, id)) : id));
    if (!chosen || s.played > stats[chosen].played) chosen = id;
  }
  select.disabled = !played.length;
  if (chosen) select.value = chosen;
  return chosen;
}

function emptyChart(id, title, words) {
  return el("figure", { class: "chart empty", "data-chart": id }, el("figcaption", {}, title), el("p", { class: "muted" }, words));
}

function drawCharts(data) {
  const box = $("charts");
  box.innerHTML = "";
  const points = data.points;
  if (!points.length) {
    $("charts-summary").textContent = t("stats.charts_none");
    return;
  }
  $("charts-summary").textContent =
    points.length < data.played
      ? t("stats.charts_newest", { count: points.length, played: formatNumber(data.played) })
      : t("stats.charts_all", { count: points.length });
  const game = findGame(ui.games, data.game);
  const xTitle = t("stats.axis_plays");
  const numbers = t("stats.chart_numbers");
  const when = (p) => [formatNumber(p.n), formatDate(p.at)];
  const first = points[0];
  const last = points[points.length - 1];
  // A filled point is a win, a hollow one a game not won (the legend says so).
  const legend = [
    { text: t("stats.legend_won"), hollow: false },
    { text: t("stats.legend_not_won"), hollow: true },
  ];

  box.append(
    chart({
      id: "rate",
      kind: "line",
      title: t("stats.chart_rate", { count: data.window }),
      desc: t("stats.chart_rate_desc", {
        count: points.length,
        window: data.window,
        first: formatPercent(first.rate),
        last: formatPercent(last.rate),
      }),
      points: points.map((p) => ({
        x: p.n,
        y: p.rate,
        label: [...when(p), resultWord(p.result)],
        value: formatPercent(p.rate),
        hollow: p.result !== "won",
      })),
      top: 1,
      ticks: [0, 0.5, 1],
      format: formatPercent,
      xTitle,
      table: { summary: numbers, heads: [t("stats.col_n"), t("stats.col_date"), t("stats.col_result"), t("col.win_rate")] },
      legend,
    }),
  );

  const wins = points.filter((p) => p.result === "won");
  const values = (key) => wins.map((p) => p[key]).filter((v) => v !== null);
  if (!game || game.scored) {
    // Every ended game with a score as it ended (a loss has one too): wins filled, the others
    // hollow, each game's result in the table.
    const scored = points.filter((p) => p.final_score !== null && p.final_score !== undefined);
    const scores = scored.map((p) => p.final_score);
    const title = t("stats.chart_score");
    box.append(
      scored.length
        ? chart({
            id: "score",
            kind: "line",
            title,
            desc: t("stats.chart_score_desc", {
              count: scored.length,
              wins: formatNumber(scored.filter((p) => p.result === "won").length),
              low: formatNumber(Math.min(...scores)),
              high: formatNumber(Math.max(...scores)),
              last: formatNumber(scores[scores.length - 1]),
            }),
            points: scored.map((p) => ({
              x: p.n,
              y: p.final_score,
              label: [...when(p), resultWord(p.result)],
              value: formatNumber(p.final_score),
              hollow: p.result !== "won",
            })),
            format: formatNumber,
            xTitle,
            table: { summary: numbers, heads: [t("stats.col_n"), t("stats.col_date"), t("stats.col_result"), t("col.score")] },
            legend,
          })
        : emptyChart("score", title, t("stats.charts_none")),
    );
  }
  const timed = wins.filter((p) => p.time !== null);
  const timeTitle = t("stats.chart_time");
  box.append(
    timed.length
      ? chart({
          id: "time",
          kind: "line",
          title: timeTitle,
          desc: t("stats.chart_time_desc", {
            count: timed.length,
            low: formatTime(Math.min(...values("time"))),
            high: formatTime(Math.max(...values("time"))),
            last: formatTime(timed[timed.length - 1].time),
          }),
          points: timed.map((p) => ({ x: p.n, y: p.time, label: when(p), value: formatTime(p.time) })),
          format: formatTime,
          xTitle,
          table: { summary: numbers, heads: [t("stats.col_n"), t("stats.col_date"), t("col.time")] },
        })
      : emptyChart("time", timeTitle, t("stats.no_wins")),
  );

  const best = Math.max(...points.map((p) => p.streak));
  box.append(
    chart({
      id: "streak",
      kind: "bars",
      title: t("stats.chart_streak"),
      desc: t("stats.chart_streak_desc", {
        count: points.length,
        current: formatNumber(data.stats.streak),
        best: formatNumber(data.stats.best_streak),
      }),
      points: points.map((p) => ({
        x: p.n,
        y: p.streak,
        label: [...when(p), resultWord(p.result)],
        value: formatNumber(p.streak),
        mark: best > 0 && p.streak === best,
      })),
      top: Math.max(1, best),
      ticks: best > 1 ? [0, best] : [0, 1],
      format: formatNumber,
      xTitle,
      table: { summary: numbers, heads: [t("stats.col_n"), t("stats.col_date"), t("stats.col_result"), t("col.streak")] },
    }),
  );
}

async function showCharts(gameId) {
  if (!gameId) {
    $("charts").innerHTML = "";
    $("charts-summary").textContent = t("stats.charts_none");
    return;
  }
  try {
    const data = await request("GET", `/api/stats/${enc(ui.name)}/charts/${enc(gameId)}`);
    if ($("chart-game").value !== gameId) return; // another game was chosen meanwhile
    ui.charts = data;
    drawCharts(data);
  } catch (e) {
    showError(e);
  }
}

// -- the history ----------------------------------------------------------------------------

function gameCell(g) {
  const cell = el("th", { scope: "row" }, shortName(ui.games, g.game));
  if (g.tournament !== null) {
    cell.append(
      el("span", { class: "small" },
        el("a", { href: `/tournaments/${enc(g.tournament)}` }, t("stats.round_of", { round: g.round, tournament: g.tournament }))),
    );
  } else if (g.ranked) {
    cell.append(el("span", { class: "small" }, t("stats.ranked")));
  }
  return cell;
}

function historyRow(g) {
  const attrs = { "data-result": g.result, "data-game": g.game };
  if (g.id) attrs["data-id"] = g.id;
  const tr = el("tr", attrs);
  const when = formatDateTime(g.finished_at);
  const replay = el("td", {});
  if (g.replay) {
    const b = el("button", { type: "button", class: "replay-button" }, t("stats.replay_open"));
    b.setAttribute("aria-label", t("stats.replay_of", { game: shortName(ui.games, g.game), date: when }));
    b.addEventListener("click", () => openReplay(g));
    replay.append(b);
  } else {
    replay.append(el("span", { class: "muted" }, "\u2013"));
  }
  tr.append(
    gameCell(g),
    el("td", {}, when),
    el("td", {}, el("span", { class: `result ${g.result}` }, resultWord(g.result))),
    el("td", { class: "num" }, shown(g.score, formatNumber)),
    el("td", { class: "num" }, shown(g.time, formatTime)),
    el("td", { class: "num" }, shown(g.moves, formatNumber)),
    replay,
  );
  return tr;
}

async function showHistory(offset) {
  try {
    const page = await request("GET", `/api/stats/${enc(ui.name)}/history?offset=${enc(offset)}&limit=${PAGE}`);
    ui.history = page;
    const body = document.querySelector("#history tbody");
    body.innerHTML = "";
    for (const g of page.games) body.append(historyRow(g));
    if (!page.games.length) {
      const td = el("td", {}, t("stats.history_none"));
      td.colSpan = 7;
      body.append(el("tr", {}, td));
    }
    $("history-range").textContent = page.games.length
      ? t("stats.history_range", {
          from: formatNumber(page.offset + 1),
          to: formatNumber(page.offset + page.games.length),
          count: page.total,
          total: formatNumber(page.total),
        })
      : "";
    $("history-newer").disabled = page.offset === 0;
    $("history-older").disabled = page.offset + page.games.length >= page.total;
  } catch (e) {
    showError(e);
  }
}

// -- the replay -----------------------------------------------------------------------------

async function openReplay(g) {
  $("error").textContent = "";
  try {
    const name = `${g.game}-${g.number_text || g.finished_at}.json`;
    await ui.viewer.open(g.replay, name, (record) => {
      const deal = record.number_text || g.number_text;
      $("replay-title").textContent =
        t("stats.replay_title", { game: shortName(ui.games, g.game), date: formatDateTime(g.finished_at) }) +
        (deal ? t("stats.replay_deal", { deal }) : "") +
        t("stats.replay_result", { result: resultWord(g.result) });
    });
  } catch (e) {
    showError(e);
  }
}

// -- start ----------------------------------------------------------------------------------

async function main() {
  initHeader();
  ui.name = playerName();
  $("title").textContent = t("stats.of", { name: ui.name });
  document.title = `${t("stats.page_title", { name: ui.name })} \u2013 PatienceKit`;
  ui.games = await gamesOrNone();
  ui.viewer = new ReplayViewer({
    section: $("replay"),
    board: $("replay-board"),
    games: ui.games,
    words: { move: (k, move) => t("stats.replay_move", { k, move }), start: () => t("stats.replay_start") },
  });
  $("chart-game").addEventListener("change", () => showCharts($("chart-game").value));
  $("history-newer").addEventListener("click", () => showHistory(Math.max(0, ui.history.offset - PAGE)));
  $("history-older").addEventListener("click", () => showHistory(ui.history.offset + PAGE));
  try {
    ui.stats = await request("GET", `/api/stats/${enc(ui.name)}`);
  } catch (e) {
    showError(e);
    return;
  }
  statsTable(ui.stats);
  await Promise.all([showCharts(chartGames(ui.stats)), showHistory(0)]);
}

// For tests and the curious: what the server last sent.
window.pk = {
  get stats() {
    return ui.stats;
  },
  get charts() {
    return ui.charts;
  },
  get history() {
    return ui.history;
  },
  get replay() {
    return ui.viewer ? ui.viewer.replay : null;
  },
};

main();
