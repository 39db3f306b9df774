// The play page: loads or starts a play and hands it to the play controller (controller.js:
// the board, the queue of actions, the clock, the keys); this module adds what only this page
// has: the URL, the deal number and share link, the toolbar, new deals (numbered, winnable
// only, ranked), and the win and game-over dialogs.
//
// URLs: /play/{game} starts a random deal, /play/{game}?number=N deal N (the share link),
// /p/{play_id} resumes a play. Once a casual play exists the URL becomes its deal's,
// /play/{game}?number=N, which any browser can open (another one gets a new play of that
// deal), and this tab remembers the play for that address, so that a reload resumes it. A
// ranked play's URL stays /p/{play_id}: its deal number is never put in the address.

import { api, ApiError, startRanked } from "./api.js";
import { suitMark } from "./cards.js";
import { formatTime, initHeader } from "./common.js";
import { movesMade, PlayController } from "./controller.js";
import { disclosure } from "./disclosure.js";
import { findGame, gameName, gamesOrNone } from "./games.js";
import { t } from "./i18n.js";

const $ = (id) => document.getElementById(id);

const ui = {
  ctl: null,
  games: [],
  shownEnd: null,
  overTexts: null,
};

// -- the URL ----------------------------------------------------------------------------------

function route() {
  const path = window.location.pathname;
  const q = new URLSearchParams(window.location.search);
  let m = /^\/p\/([^/]+)\/?$/.exec(path);
  if (m) return { playId: decodeURIComponent(m[1]) };
  m = /^\/play\/([^/]+)\/?$/.exec(path);
  if (m) return { game: decodeURIComponent(m[1]), number: q.get("number") };
  // The page opened under another path (e.g. /static/play.html?game=...): the first game.
  if (q.get("play")) return { playId: q.get("play") };
  return { game: q.get("game") || (ui.games[0] && ui.games[0].id), number: q.get("number") };
}

function cleanNumber(text) {
  if (text === null || text === undefined) return null;
  const s = String(text).trim();
  if (s === "") return null;
  if (!/^-?\d+$/.test(s)) {
    throw new ApiError(400, "bad_number", t("play.not_a_number", { text: s }));
  }
  return s.replace(/^(-?)0+(?=\d)/, "$1");
}

// The deal's number as text, or null while it is not shown (a running ranked game).
function dealNumber(play) {
  if (play.number_text) return play.number_text;
  return play.number === null || play.number === undefined ? null : String(play.number);
}

function dealPath(game, number) {
  return `/play/${encodeURIComponent(game)}?number=${number}`;
}

function shareUrl(play) {
  return `${window.location.origin}${dealPath(play.game, dealNumber(play))}`;
}

// The address of a play: its deal's for a casual play (the deal is public in casual play),
// /p/{play_id} for a ranked one (RULES.md, "Fair competition": its number never goes in the
// address, not even once it has ended).
function addressOf(play) {
  const number = dealNumber(play);
  if (play.ranked || !number) return `/p/${encodeURIComponent(play.id)}`;
  return dealPath(play.game, number);
}

// Which play this tab shows at an address: in the history entry's state (a reload, back and
// forward keep it) and in sessionStorage under the address (the language menu opens the
// address anew, without that state). Another tab or browser has neither: it deals anew.
const REMEMBERED = "pk-play:";

function remember(play) {
  const address = addressOf(play);
  const state = window.history.state;
  if (window.location.pathname + window.location.search !== address || !state || state.play !== play.id) {
    window.history.replaceState({ ...(state || {}), play: play.id }, "", address);
  }
  if (address.startsWith("/p/")) return;
  try {
    window.sessionStorage.setItem(REMEMBERED + address, play.id);
  } catch (e) {
    // storage refused (private mode): a reload still finds the play in the history entry
  }
}

// This tab's own play of the deal at the address (game and number), or null.
async function rememberedPlay(game, number) {
  if (number === null) return null;
  const address = dealPath(game, number);
  const state = window.history.state;
  const ids = [state && state.play];
  try {
    ids.push(window.sessionStorage.getItem(REMEMBERED + address));
  } catch (e) {
    // no storage: the history entry only
  }
  for (const id of new Set(ids.filter((x) => typeof x === "string" && x))) {
    try {
      const play = await api.getPlay(id);
      if (!play.ranked && play.game === game && dealNumber(play) === number) return play;
    } catch (e) {
      if (!(e instanceof ApiError)) throw e;
      // not this session's any more (signed out, expired): the deal is dealt anew
    }
  }
  return null;
}

// -- messages -----------------------------------------------------------------------------------

let errorTimer = 0;

// A refusal's reason, shown over the page (the board does not move) until the next accepted
// action, a click on it, or a few seconds.
function showError(message) {
  $("error").textContent = message;
  $("error").title = t("play.dismiss");
  window.clearTimeout(errorTimer);
  errorTimer = window.setTimeout(clearError, 9000);
}

function clearError() {
  window.clearTimeout(errorTimer);
  $("error").textContent = "";
}

// -- this page's part of an answer ------------------------------------------------------------

/** A play's game's name in the page's language (the play's own name is the registry's). */
function playName(play) {
  const game = findGame(ui.games, play.game);
  return game ? gameName(game) : play.name;
}

function render(play) {
  const game = findGame(ui.games, play.game);
  remember(play);
  const name = (game && gameName(game)) || play.name || play.game;
  // A running ranked game's number is the server's secret (it is null here): the page says
  // "ranked" instead, and offers no link to the deal.
  const number = dealNumber(play);
  $("game-name").textContent = name;
  $("deal-no").textContent = number ? `#${number}` : "";
  $("ranked-badge").hidden = !play.ranked;
  document.title = number ? `${name} #${number} – PatienceKit` : `${t("play.ranked_name", { name })} – PatienceKit`;
  $("board").setAttribute("aria-label", number ? t("play.board_deal", { name, number }) : t("play.ranked_name", { name }));
  $("rules-link").href = `/rules/${encodeURIComponent(play.game)}`;
  const scored = play.score !== null && play.score !== undefined;
  $("m-bonus-box").hidden = !scored;
  if (scored) $("m-bonus").textContent = play.won ? String(play.time_bonus ?? 0) : "–";
  const redeals = play.redeals_left;
  const hasTurn = play.piles.some((p) => p.kind === "stock" || p.kind === "packet");
  const packets = game && game.turn === "next-packet";
  $("m-redeals-box").hidden = redeals === null || redeals === undefined || !hasTurn;
  $("m-redeals-label").textContent = packets ? t("meter.packets") : t("meter.redeals");
  $("m-redeals").textContent = String(redeals ?? "");
  const casual = !play.ranked;
  for (const id of ["undo", "redo", "restart", "hint"]) $(id).hidden = !casual;
  // Shown on a ranked game until it ends (a deal with no move at all still needs ending).
  $("give-up").hidden = casual || (play.over && (play.n > 0 || !!play.result));
  $("undo").disabled = !play.can_undo;
  $("redo").disabled = !play.can_redo;
  $("restart").disabled = !play.can_undo;
  $("deal-next").hidden = !play.piles.some((p) => p.kind === "packet");
  $("deal-next").disabled = !(play.legal_moves || []).includes("t");
  $("share").hidden = !number;
  const link = $("share-link");
  link.href = number ? shareUrl(play) : "#";
  link.textContent = number ? shareUrl(play).replace(/^https?:\/\//, "") : "";
  if (!play.won) $("win").hidden = true;
  if (play.won || !play.over) $("over").hidden = true;
  showWinnableNote();
}

// "Winnable deals only" of a game with only a few deals proved winnable (the list's
// winnable_deals) deals the same few again and again: the page says so while it is chosen.
// (With none shipped the server proves a new one each time: no note.)
const FEW_WINNABLE = 10;

function showWinnableNote() {
  const play = ui.ctl && ui.ctl.play;
  const game = findGame(ui.games, play ? play.game : route().game);
  const count = game ? Number(game.winnable_deals) || 0 : 0;
  const few = $("winnable-only").checked && count > 0 && count < FEW_WINNABLE && !(play && play.ranked);
  const note = $("winnable-note");
  note.textContent = few ? t("edges.few_winnable", { count, name: gameName(game) }) : "";
  note.hidden = !few;
}

// A win or no move left: its dialog, once for each position.
function ended(play) {
  const key = `${play.id}:${play.n}`;
  if (ui.shownEnd === key) return;
  ui.shownEnd = key;
  if (play.won) {
    celebrate(play);
    return;
  }
  $("over-undo").disabled = !play.can_undo || !!play.ranked;
  $("over-restart").disabled = !play.can_undo || !!play.ranked;
  // A ranked game that is over counts with its score: there is nothing to take back.
  if (!ui.overTexts) ui.overTexts = [$("over-title").textContent, $("over-text").textContent];
  $("over-title").textContent = play.ranked ? t("over.ranked_title") : ui.overTexts[0];
  $("over-text").textContent = play.ranked ? t("over.ranked_text", { count: play.score ?? 0 }) : ui.overTexts[1];
  $("over").hidden = false;
  ui.ctl.announce(t("over.say"));
  $("over-new").focus();
}

function celebrate(play) {
  const scored = play.score !== null && play.score !== undefined;
  $("win-score-box").hidden = !scored;
  $("win-score").textContent = scored ? String(play.score) : "";
  $("win-time").textContent = formatTime(play.elapsed);
  $("win-moves").textContent = String(movesMade(play));
  const deal = dealNumber(play)
    ? t("win.deal", { name: playName(play), number: dealNumber(play) })
    : t("win.ranked_deal", { name: playName(play) });
  $("win-text").textContent = scored
    ? t("win.solved_bonus", { deal, bonus: play.time_bonus ?? 0 })
    : t("win.solved", { deal });
  const confetti = document.querySelector("#win .confetti");
  confetti.innerHTML = "";
  const suits = ["H", "S", "D", "C"];
  for (let i = 0; i < 36; i++) {
    const s = suits[i % 4];
    const span = document.createElement("span");
    span.className = s === "H" || s === "D" ? "red" : "black";
    span.innerHTML = suitMark(s, "confetti-suit");
    span.style.left = `${Math.random() * 100}%`;
    span.style.animationDuration = `${2.2 + Math.random() * 2.5}s`;
    span.style.animationDelay = `${Math.random() * 1.2}s`;
    span.style.setProperty("--drift", `${(Math.random() - 0.5) * 200}px`);
    span.style.setProperty("--spin", `${(Math.random() - 0.5) * 1080}deg`);
    const size = 1.2 + Math.random() * 1.6;
    span.style.width = `${size}rem`;
    span.style.height = `${size}rem`;
    confetti.appendChild(span);
  }
  $("win").hidden = false;
  const facts = [
    scored ? t("win.say_score", { score: play.score }) : "",
    t("win.say_time", { time: formatTime(play.elapsed) }),
    t("win.say_moves", { count: movesMade(play) }),
  ];
  ui.ctl.announce(`${t("win.title")} ${facts.filter(Boolean).join(" ")}`);
  $("win-new").focus();
}

// -- new deals ----------------------------------------------------------------------------------

function newDeal(number = null) {
  const play = ui.ctl.play;
  const game = play ? play.game : route().game;
  if (play && play.ranked && number === null) return newRanked(game);
  const winnable = $("winnable-only").checked;
  return ui.ctl.act(() => api.createPlay(game, cleanNumber(number), false, winnable), {
    withoutPlay: true,
    say: (p) => t("say.new_deal", { name: playName(p), number: dealNumber(p) }),
  });
}

// "New deal" on a ranked game: another ranked game. While this one runs, the player is
// asked first: it then ends as given up and counts with its score.
function newRanked(game) {
  const play = ui.ctl.play;
  const running = !play.over && !play.won;
  if (running && !window.confirm(t("ranked.new_ask"))) {
    return Promise.resolve(false);
  }
  return ui.ctl.act(
    async () => {
      // Given up already when it runs; else another open one (another tab) is asked about.
      if (running) return api.createRanked(game, true);
      const next = await startRanked(game, (question) => window.confirm(question));
      if (next === null) throw new ApiError(409, "ranked_open", t("ranked.still_open"));
      return next;
    },
    { say: (p) => t("say.new_ranked", { name: playName(p) }) },
  );
}

// -- dialogs ------------------------------------------------------------------------------------

function dialogOpen() {
  return !$("win").hidden || !$("over").hidden;
}

function closeDialogs() {
  $("win").hidden = true;
  $("over").hidden = true;
  const first = document.querySelector("#board .pile");
  if (first) first.focus({ preventScroll: true });
}

// Keys for an open dialog: Tab stays inside it, Escape closes it, the rest waits.
function dialogKey(e) {
  const dialog = !$("win").hidden ? $("win") : !$("over").hidden ? $("over") : null;
  if (!dialog) return false;
  if (e.key === "Tab") {
    const buttons = [...dialog.querySelectorAll("button:not([disabled])")];
    if (!buttons.length) return false;
    const i = buttons.indexOf(document.activeElement);
    const next = e.shiftKey ? (i <= 0 ? buttons.length - 1 : i - 1) : (i + 1) % buttons.length;
    buttons[next].focus();
    e.preventDefault();
    return true;
  }
  if (e.key === "Escape" && ui.ctl.play) closeDialogs();
  return false;
}

// -- wiring ------------------------------------------------------------------------------------------

function wire() {
  const ctl = ui.ctl;
  $("error").addEventListener("click", clearError);
  disclosure($("toolbar-more-toggle")); // the other actions, behind "More" on a narrow screen
  $("undo").addEventListener("click", () => ctl.undo());
  $("redo").addEventListener("click", () => ctl.redo());
  $("restart").addEventListener("click", () => ctl.restart());
  $("hint").addEventListener("click", () => ctl.hint());
  $("winnable-only").checked = window.localStorage.getItem("pk-winnable") === "1";
  $("winnable-only").addEventListener("change", (e) => {
    window.localStorage.setItem("pk-winnable", e.target.checked ? "1" : "0");
    showWinnableNote();
  });
  $("give-up").addEventListener("click", () => {
    if (window.confirm(t("ranked.give_up_confirm"))) ctl.giveUp();
  });
  $("deal-next").addEventListener("click", () => ctl.turn());
  $("new-deal").addEventListener("click", () => newDeal(null));
  $("number-form").addEventListener("submit", (e) => {
    e.preventDefault();
    const value = $("number-input").value;
    if (!value.trim()) {
      showError(t("play.number_first"));
      return;
    }
    newDeal(value).then((ok) => {
      if (ok) $("number-input").value = "";
    });
  });
  $("share-copy").addEventListener("click", async () => {
    const url = $("share-link").href;
    try {
      await navigator.clipboard.writeText(url);
      ctl.announce(t("play.link_copied"));
      $("share-copy").textContent = t("play.copied");
      window.setTimeout(() => {
        $("share-copy").textContent = t("play.copy_link");
      }, 1500);
    } catch (e) {
      window.prompt(t("play.copy_prompt"), url);
    }
  });
  $("win-new").addEventListener("click", () => {
    $("win").hidden = true;
    newDeal(null);
  });
  $("win-close").addEventListener("click", closeDialogs);
  $("over-undo").addEventListener("click", () => {
    $("over").hidden = true;
    ctl.undo();
  });
  $("over-restart").addEventListener("click", () => {
    $("over").hidden = true;
    ctl.restart();
  });
  $("over-new").addEventListener("click", () => {
    $("over").hidden = true;
    newDeal(null);
  });
  $("over-close").addEventListener("click", closeDialogs);
}

async function main() {
  const header = initHeader();
  ui.games = await gamesOrNone();
  ui.ctl = new PlayController({
    board: $("board"),
    games: ui.games,
    commands: ["undo", "redo", "restart", "hint", "autocomplete"],
    render,
    ended,
    showError,
    clearError,
    dialogOpen,
    onKey: dialogKey,
  });
  wire();
  const r = route();
  try {
    let play;
    if (r.playId) play = await api.getPlay(r.playId);
    else {
      const number = cleanNumber(r.number);
      // this tab's play of the deal at the address (a reload), else a new deal: a random one
      // follows "Winnable deals only" (remembered from the last visit)
      play = await rememberedPlay(r.game, number);
      if (!play) play = await api.createPlay(r.game, number, false, number === null && $("winnable-only").checked);
    }
    ui.ctl.show(play, { animate: false });
  } catch (e) {
    if (!(e instanceof ApiError)) throw e;
    $("game-name").textContent = e.code === "unknown_game" ? t("play.unknown_game") : t("play.cannot_show");
    showError(e.message);
    const back = document.createElement("p");
    const link = document.createElement("a");
    link.href = "/";
    link.textContent = t("play.back");
    back.append(link);
    $("board").replaceWith(back);
  }
  await header;
}

// For tests and the curious: the play as the server last sent it.
window.pk = {
  get play() {
    return ui.ctl ? ui.ctl.play : null;
  },
};

main();
