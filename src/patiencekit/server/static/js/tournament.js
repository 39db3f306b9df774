// One tournament: /tournaments/{id}. Its entrants and scores; join or leave it while it is open;
// play its rounds on this page (a ranked play on the board, one attempt, no undo) while it runs:
// a round is "Round k of 3", never a deal number (the server sends none until the tournament is
// over, and there is no share link); once it is over, the places, the three deals and every
// entrant's replay (a board to step through, and the game record to download). A round is
// played through the play controller (controller.js), as on the play page.

import { ApiError } from "./api.js";
import { el, formatTime, initHeader } from "./common.js";
import { compApi, outcomeWord, placeText, statusWord } from "./competition-api.js";
import { PlayController } from "./controller.js";
import { gamesOrNone, shortName } from "./games.js";
import { formatDateTime, t as tr } from "./i18n.js";
import { pageReplay } from "./replay.js";

const $ = (id) => document.getElementById(id);

const ui = {
  id: null,
  t: null,
  user: null,
  games: [],
  round: null,
  ctl: null,
  replay: null, // the replay (replay.js)
};

function tournamentId() {
  const m = /^\/tournaments\/(\d+)\/?$/.exec(window.location.pathname);
  if (m) return m[1];
  return new URLSearchParams(window.location.search).get("id");
}

function showError(message) {
  $("error").textContent = message;
}

function clearError() {
  $("error").textContent = "";
}

const when = formatDateTime;

function left(seconds) {
  if (seconds <= 0) return tr("tournament.deadline_passed");
  const h = Math.floor(seconds / 3600);
  const m = Math.floor((seconds % 3600) / 60);
  return h ? tr("tournament.left_hours", { h, m }) : tr("tournament.left_minutes", { m });
}

// -- the tournament --------------------------------------------------------------------------

async function refresh() {
  try {
    show(await compApi.tournament(ui.id));
  } catch (e) {
    if (!(e instanceof ApiError)) throw e;
    showError(e.message);
  }
}

// A tournament from the server, drawn. The one that fills it starts it: its entrants are
// told, and the first round's button is there at once (no reload).
function show(t) {
  const before = ui.t;
  ui.t = t;
  if (before && before.status === "open" && t.status === "running" && t.me && t.me.entrant) {
    $("notice").textContent = tr("edges.tournament_started");
  }
  render();
}

// -- looking again -----------------------------------------------------------------------------
// Others join and play too. While the tournament waits for entrants the page looks again soon
// (after 2 s, then half as long again each time nothing changed, up to 30 s; back to 2 s on a
// change), while it runs every 15 s, at once when the page is shown again, and never once it
// is finished. (Not while a move of a round is on its way: a round's answers are its own.)

const POLL = { first: 2000, most: 30000, running: 15000 };
const poller = { delay: POLL.first, timer: 0 };

// What a look again may change: the status and every entrant's rounds.
function fingerprint(t) {
  if (!t) return "";
  return JSON.stringify([t.status, t.entrants_count, t.entrants.map((e) => [e.name, e.score, e.rounds])]);
}

function schedulePoll() {
  window.clearTimeout(poller.timer);
  const t = ui.t;
  if (!t || t.status === "finished") return;
  poller.timer = window.setTimeout(poll, t.status === "open" ? poller.delay : POLL.running);
}

async function poll() {
  const before = fingerprint(ui.t);
  try {
    await refresh();
  } finally {
    const changed = fingerprint(ui.t) !== before;
    poller.delay = changed ? POLL.first : Math.min(POLL.most, Math.round(poller.delay * 1.5));
    schedulePoll();
  }
}

function wirePolling() {
  document.addEventListener("visibilitychange", () => {
    if (document.hidden) return;
    poller.delay = POLL.first;
    poll();
  });
  schedulePoll();
}

function render() {
  const t = ui.t;
  const name = shortName(ui.games, t.game);
  $("title").textContent = tr("tournament.name", { name, id: t.id });
  document.title = `${tr("tournament.name", { name, id: t.id })} – PatienceKit`;
  const facts = $("facts");
  facts.innerHTML = "";
  facts.append(
    el("span", {}, el("span", { class: `status ${t.status}`, "data-testid": "status" }, statusWord(t.status))),
    el("span", {}, tr("tournament.fact_players"), el("strong", {}, `${t.entrants_count} / ${t.size}`)),
    el("span", {}, tr("tournament.fact_game"), el("strong", {}, t.name)),
  );
  if (t.started_at) facts.append(el("span", {}, tr("tournament.fact_started"), el("strong", {}, when(t.started_at))));
  if (t.status === "running") {
    facts.append(el("span", {}, tr("tournament.fact_deadline"), el("strong", {}, `${when(t.deadline)} (${left(t.deadline - t.now)})`)));
  }
  if (t.finished_at) facts.append(el("span", {}, tr("tournament.fact_finished"), el("strong", {}, when(t.finished_at))));
  // The deals, published once the tournament is over (each can then be played for practice).
  if (t.status === "finished" && t.deals_text) {
    const deals = el("span", { "data-testid": "deals" }, tr("tournament.fact_deals"));
    t.deals_text.forEach((digits, i) => {
      if (i) deals.append(", ");
      deals.append(el("a", { href: `/play/${encodeURIComponent(t.game)}?number=${digits}`, title: tr("tournament.play_deal", { round: i + 1 }) }, el("strong", {}, digits)));
    });
    facts.append(deals);
  }
  renderActions();
  renderEntrants();
}

function renderActions() {
  const t = ui.t;
  const box = $("actions");
  box.innerHTML = "";
  const me = t.me;
  const signedIn = ui.user && !ui.user.guest;
  if (t.status === "open") {
    const missing = t.size - t.entrants_count;
    if (me && me.entrant) {
      box.append(el("span", {}, tr("tournament.waiting", { count: missing })));
      box.append(button(tr("tournament.leave"), "leave", () => leave()));
    } else if (signedIn) {
      box.append(button(tr("tournament.join", { count: missing }), "join", () => join(), true));
    } else {
      box.append(el("a", { class: "button primary", href: `/signin?next=${encodeURIComponent(window.location.pathname)}` }, tr("tournament.signin")));
    }
    return;
  }
  if (t.status === "running" && me && me.entrant) {
    const n = me.next_round;
    if (n === null || n === undefined) {
      box.append(el("span", {}, tr("tournament.all_played")));
      return;
    }
    const play = ui.ctl.play;
    if (play && ui.round === n && !play.over) return; // playing it now, on the board below
    const resume = me.plays && me.plays[String(n)];
    box.append(button(resume ? tr("tournament.resume_round", { n }) : tr("tournament.play_round", { n }), "play-round", () => startRound(n), true));
  }
}

function button(label, id, onClick, primary = false) {
  const b = el("button", { type: "button", id, class: primary ? "primary" : "" }, label);
  b.addEventListener("click", async () => {
    b.disabled = true;
    try {
      await onClick();
    } finally {
      b.disabled = false;
    }
  });
  return b;
}

function roundCell(t, entrant, r) {
  const td = el("td", { class: "round-cell", "data-round": String(r.round) });
  if (r.status === "finished") {
    td.append(el("span", { class: "score" }, String(r.score)));
    td.append(el("span", { class: "small" }, formatTime(r.time)));
  } else if (r.status === "expired") {
    td.append(el("span", { class: "score" }, "0"), el("span", { class: "small" }, tr("tournament.expired")));
  } else if (r.status === "playing") {
    td.append(el("span", { class: "muted" }, tr("tournament.playing")));
  } else {
    td.append(el("span", { class: "muted" }, "–"));
  }
  if (t.status === "finished" && r.status !== "waiting") {
    const b = el("button", { type: "button", class: "replay-button" }, tr("replay.button"));
    b.setAttribute("aria-label", tr("tournament.replay_of", { name: entrant.name, round: r.round }));
    b.addEventListener("click", () => openReplay(entrant.name, r.round));
    td.append(b);
  }
  return td;
}

function renderEntrants() {
  const t = ui.t;
  const body = document.querySelector("#entrants tbody");
  body.innerHTML = "";
  for (const e of t.entrants) {
    const row = el(
      "tr",
      { "data-name": e.name },
      el("td", {}, t.status === "finished" ? placeText(e.place) : "–"),
      el("th", { scope: "row" }, el("a", { href: `/players/${encodeURIComponent(e.name)}` }, e.name)),
      ...e.rounds.map((r) => roundCell(t, e, r)),
      el("td", { class: "num total" }, String(e.score)),
      el("td", { class: "num" }, formatTime(e.time)),
    );
    if (t.me && t.me.name === e.name) row.classList.add("me");
    body.append(row);
  }
}

async function join() {
  clearError();
  try {
    show(await compApi.join(ui.id));
    poller.delay = POLL.first;
    schedulePoll();
  } catch (e) {
    if (!(e instanceof ApiError)) throw e;
    showError(e.message);
  }
}

async function leave() {
  clearError();
  try {
    const r = await compApi.leave(ui.id);
    if (r.removed) window.location.href = "/tournaments";
    else await refresh();
  } catch (e) {
    if (!(e instanceof ApiError)) throw e;
    showError(e.message);
  }
}

// -- playing a round -------------------------------------------------------------------------------

async function startRound(n) {
  clearError();
  $("notice").textContent = "";
  try {
    const play = await compApi.openRound(ui.id, n);
    ui.round = n;
    $("round").hidden = false;
    ui.ctl.show(play, { animate: false });
    renderActions();
    $("round").scrollIntoView({ block: "start" });
  } catch (e) {
    if (!(e instanceof ApiError)) throw e;
    showError(e.message);
    await refresh();
  }
}

// This page's part of an answer: the round's title and its give-up button, the move box
// while it runs.
function renderRound(play, { first }) {
  $("round-title").textContent = tr("tournament.round_of", { n: ui.round, rounds: 3 });
  const ended = !!play.over;
  // A deal with no move at all is over before its first move: it still has to be finished.
  $("give-up").hidden = play.won || (ended && !first) || !!play.result;
  $("give-up-confirm").hidden = true;
  $("move-form").hidden = ended;
}

async function roundEnded(play, { first }) {
  if (first) return; // opened over: nothing ended now
  const n = ui.round;
  let text;
  if (play.won) text = tr("tournament.round_won", { n, count: play.score });
  else if (play.result && play.result.outcome === "expired") text = tr("tournament.round_expired", { n });
  else if (play.result && play.result.outcome === "gave_up") text = tr("tournament.round_gave_up", { n, count: play.score });
  else text = tr("tournament.round_over", { n, count: play.score });
  $("notice").textContent = text;
  await refresh();
}

function wireRound() {
  $("give-up").addEventListener("click", () => {
    $("give-up").hidden = true;
    $("give-up-confirm").hidden = false;
    $("give-up-no").focus();
  });
  $("give-up-no").addEventListener("click", () => {
    $("give-up-confirm").hidden = true;
    $("give-up").hidden = false;
  });
  $("give-up-yes").addEventListener("click", () => ui.ctl.giveUp());
}

// -- replays -----------------------------------------------------------------------------------------

function dealText(round) {
  const deals = ui.t && ui.t.deals_text;
  return deals && deals[round - 1] ? deals[round - 1] : null;
}

// An entrant's round on the replay's board (replay.js), its record to download.
function openReplay(name, round) {
  const address = compApi.replayAddress(ui.id, name, round);
  return ui.replay.open(address, `tournament-${ui.id}-${name}-round-${round}.json`, (record) => {
    const result = record.result;
    const deal = dealText(round);
    return (
      tr("tournament.replay_title", { name, round }) +
      (deal ? tr("tournament.replay_deal", { deal }) : "") +
      (result ? tr("tournament.replay_result", { outcome: outcomeWord(result.outcome), count: result.score }) : "")
    );
  });
}

// -- start ----------------------------------------------------------------------------------------------

async function main() {
  ui.id = tournamentId();
  ui.games = await gamesOrNone();
  // A round: one attempt, no undo, no hint (auto-complete, once the view proves a win); it
  // ends for good when it is over.
  ui.ctl = new PlayController({
    board: $("board"),
    games: ui.games,
    commands: ["autocomplete"],
    untilOver: true,
    render: renderRound,
    ended: roundEnded,
    resynced: refresh,
    showError,
    clearError,
  });
  ui.replay = pageReplay({ games: ui.games, showError, clearError });
  wireRound();
  const session = await initHeader();
  ui.user = session && session.user;
  if (!ui.id) {
    showError(tr("tournament.none_here"));
    return;
  }
  await refresh();
  wirePolling();
}

// For tests and the curious: the tournament and the round's play as the server last sent them.
window.pk = {
  get tournament() {
    return ui.t;
  },
  get play() {
    return ui.ctl ? ui.ctl.play : null;
  },
  get replay() {
    return ui.replay ? ui.replay.replay : null;
  },
};

main();
