// A game's daily deal: /daily/{game}. Today's deal, played on this page (a ranked play on the
// board through the play controller: one attempt, no undo, no hint, auto-complete once the view
// proves a win; the server sends no deal number, and none is shown), today's table of the best
// (public, without the deal), and yesterday's deal once its day is closed: its number (a link to
// practise it) and every player's replay; the days before it too, one at a time (a day nobody
// played says so).

import { ApiError } from "./api.js";
import { el, formatTime, initHeader } from "./common.js";
import { compApi, formatPoints, outcomeWord, placeText, timeLeft } from "./competition-api.js";
import { PlayController } from "./controller.js";
import { findGame, gameName, gamesOrNone } from "./games.js";
import { formatDay, formatNumber, t as tr } from "./i18n.js";
import { pageReplay } from "./replay.js";

const $ = (id) => document.getElementById(id);

const ui = {
  game: null,
  games: [],
  user: null,
  today: null,
  yesterday: null, // the past day shown (yesterday's, or one before it)
  shownDay: null, // the past day the reader went to (YYYY-MM-DD), null for yesterday
  ctl: null,
  replays: null, // the replay (replay.js)
  givingUp: false, // the player said yes to giving up (an unscored game's answer has no result)
};

function gameId() {
  const m = /^\/daily\/([^/]+)\/?$/.exec(window.location.pathname);
  return m ? decodeURIComponent(m[1]) : new URLSearchParams(window.location.search).get("game");
}

function showError(message) {
  $("error").textContent = message;
}

function clearError() {
  $("error").textContent = "";
}

// -- the day's tables ----------------------------------------------------------------------------

async function refresh() {
  try {
    // Both days are set at once, as they are drawn (window.pk shows them only then).
    const today = await compApi.dailyDay(ui.game);
    if (ui.shownDay !== null && ui.shownDay >= today.previous) ui.shownDay = null;
    const shown = await compApi.dailyDay(ui.game, ui.shownDay || today.previous);
    ui.today = today;
    ui.yesterday = shown;
    render();
  } catch (e) {
    if (!(e instanceof ApiError)) throw e;
    showError(e.message);
  }
}

function render() {
  const t = ui.today;
  const game = findGame(ui.games, t.game);
  const name = game ? gameName(game) : t.name;
  $("title").textContent = tr("daily.deal_name", { name });
  document.title = `${tr("daily.deal_name", { name })} – PatienceKit`;
  $("today").textContent = formatDay(t.day);
  $("left").textContent = timeLeft(t.ends_at - t.now);
  $("players").textContent = formatNumber(t.players);
  $("playing").textContent = formatNumber(t.playing);
  renderActions();
  fillTable($("today-table"), t, false);
  $("today-empty").hidden = t.table.length > 0;
  $("today-wrap").hidden = t.table.length === 0;
  renderYesterday();
}

function renderActions() {
  const me = ui.today.me;
  const signedIn = !!(ui.user && !ui.user.guest);
  const play = ui.ctl.play;
  const onBoard = !!play && !play.over && !play.won;
  $("signin-daily").hidden = signedIn;
  $("signin-daily").href = `/signin?next=${encodeURIComponent(window.location.pathname)}`;
  $("play-daily").hidden = !signedIn || !me || me.status !== "none" || !!play;
  $("resume-daily").hidden = !signedIn || !me || me.status !== "playing" || onBoard;
  $("played-daily").hidden = !signedIn || !me || me.status !== "ended";
}

function fillTable(table, day, withReplays) {
  const body = table.querySelector("tbody");
  body.innerHTML = "";
  const mine = day.me && day.me.line ? day.me.line.place : null;
  for (const line of day.table) {
    const row = el(
      "tr",
      { "data-name": line.name },
      el("td", { class: "num" }, placeText(line.place)),
      el("th", { scope: "row" }, el("a", { href: `/players/${encodeURIComponent(line.name)}` }, line.name)),
      el("td", { class: "num" }, line.score === null ? "–" : formatPoints(line.score)),
      el("td", { class: "num" }, formatTime(line.time)),
      el("td", { class: "num" }, formatNumber(line.moves)),
      el("td", {}, outcomeWord(line.outcome)),
    );
    if (line.place === mine) row.classList.add("me");
    if (withReplays) {
      const b = el("button", { type: "button", class: "replay-button" }, tr("replay.button"));
      b.setAttribute("aria-label", tr("daily.replay_of", { name: line.name }));
      b.addEventListener("click", () => openReplay(day, line.name));
      row.append(el("td", {}, b));
    }
    body.append(row);
  }
}

function renderYesterday() {
  const y = ui.yesterday;
  const digits = y.number_text;
  const isYesterday = y.day === ui.today.previous;
  $("yesterday-title").textContent = tr(isYesterday ? "daily.yesterday_of" : "daily.day_of", {
    day: formatDay(y.day),
  });
  $("later-day").hidden = isYesterday;
  $("earlier-day").hidden = y.day <= "1970-01-01"; // the first day a daily deal may have
  $("yesterday-deal").hidden = !digits;
  if (digits) {
    const link = $("yesterday-number");
    link.textContent = digits;
    link.title = tr("daily.yesterday_play_title");
    link.href = `/play/${encodeURIComponent(y.game)}?number=${digits}`;
  }
  // A day nobody played never had a deal (dealt: false): it says so.
  $("yesterday-empty").hidden = y.dealt || y.table.length > 0;
  $("yesterday-wrap").hidden = y.table.length === 0;
  fillTable($("yesterday-table"), y, !!digits);
}

// The past day shown: the one before (earlier) or after (later) it, never today.
async function showDay(earlier) {
  clearError();
  const next = new Date(`${ui.yesterday.day}T00:00:00Z`);
  next.setUTCDate(next.getUTCDate() + (earlier ? -1 : 1));
  const day = next.toISOString().slice(0, 10);
  ui.shownDay = day >= ui.today.previous ? null : day;
  try {
    ui.yesterday = await compApi.dailyDay(ui.game, ui.shownDay || ui.today.previous);
    renderYesterday();
  } catch (e) {
    if (!(e instanceof ApiError)) throw e;
    showError(e.message);
  }
}

// -- playing today's deal ------------------------------------------------------------------------

async function startDaily() {
  clearError();
  $("notice").textContent = "";
  try {
    const play = await compApi.playDaily(ui.game);
    $("round").hidden = false;
    ui.ctl.show(play, { animate: false });
    renderActions();
    $("round").scrollIntoView({ block: "start" });
    await refresh(); // the day's counts and the player's own status
  } catch (e) {
    if (!(e instanceof ApiError)) throw e;
    showError(e.message);
    await refresh();
  }
}

// This page's part of an answer: the give-up button and the move box while it runs.
function renderPlay(play, { first }) {
  const ended = !!play.over;
  // A deal with no move at all is over before its first move: it still has to be finished.
  $("give-up").hidden = play.won || (ended && !first) || !!play.result;
  $("give-up-confirm").hidden = true;
  $("move-form").hidden = ended;
}

async function playEnded(play, { first }) {
  if (first) return; // opened over: nothing ended now
  // How it ended (daily.ended_won, daily.ended_gave_up, daily.ended_over), with its points in a
  // scored game (else daily.ended_won_unscored, ...).
  let how = "over";
  if (play.won) how = "won";
  else if (ui.givingUp || (play.result && play.result.outcome === "gave_up")) how = "gave_up";
  const scored = play.score !== null && play.score !== undefined;
  const text = scored
    ? tr(`daily.ended_${how}`, { count: play.score, points: formatPoints(play.score) })
    : tr(`daily.ended_${how}_unscored`);
  ui.givingUp = false;
  $("notice").textContent = text;
  await refresh();
}

function wirePlay() {
  $("earlier-day").addEventListener("click", () => showDay(true));
  $("later-day").addEventListener("click", () => showDay(false));
  $("play-daily").addEventListener("click", startDaily);
  $("resume-daily").addEventListener("click", startDaily);
  $("give-up").addEventListener("click", () => {
    $("give-up").hidden = true;
    $("give-up-confirm").hidden = false;
    $("give-up-no").focus();
  });
  $("give-up-no").addEventListener("click", () => {
    $("give-up-confirm").hidden = true;
    $("give-up").hidden = false;
  });
  $("give-up-yes").addEventListener("click", () => {
    ui.givingUp = true;
    ui.ctl.giveUp();
  });
}

// -- replays (a closed day's) --------------------------------------------------------------------

function openReplay(day, name) {
  const address = compApi.dailyReplayAddress(day.game, day.day, name);
  return ui.replays.open(address, `daily-${day.game}-${day.day}-${name}.json`, (record) => {
    const words = { name, day: formatDay(day.day), deal: day.number_text };
    return record.result
      ? tr("daily.replay_title_result", { ...words, outcome: outcomeWord(record.result.outcome) })
      : tr("daily.replay_title", words);
  });
}

// -- start ---------------------------------------------------------------------------------------

async function main() {
  ui.game = gameId();
  ui.games = await gamesOrNone();
  ui.ctl = new PlayController({
    board: $("board"),
    games: ui.games,
    commands: ["autocomplete"],
    untilOver: true,
    render: renderPlay,
    ended: playEnded,
    resynced: refresh,
    showError,
    clearError,
  });
  ui.replays = pageReplay({ games: ui.games, showError, clearError });
  wirePlay();
  const session = await initHeader();
  ui.user = session && session.user;
  if (!ui.game) {
    showError(tr("daily.none_here"));
    return;
  }
  await refresh();
  // Others play too: look again now and then; the day may end while the page is open.
  window.setInterval(refresh, 30000);
}

// For tests and the curious: the day and the play as the server last sent them.
window.pk = {
  get daily() {
    return ui.today;
  },
  get yesterday() {
    return ui.yesterday;
  },
  get play() {
    return ui.ctl ? ui.ctl.play : null;
  },
  get replay() {
    return ui.replays ? ui.replays.replay : null;
  },
};

main();
