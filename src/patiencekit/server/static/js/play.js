// The play page: loads or starts a play, draws it with the Board, sends the player's moves
// and commands to the server, and shows what the server answers (the position, the score,
// the clock, a refusal's reason, the end of the game).
//
// URLs: /play/{game} starts a random deal, /play/{game}?number=N deal N (the share link),
// /p/{play_id} resumes a play; once a play exists the URL becomes /p/{play_id}, so a reload
// resumes it.

import { api, ApiError, startRanked } from "./api.js";
import { Board } from "./board.js";
import { cardName, suitMark } from "./cards.js";
import { formatTime, initHeader } from "./common.js";
import { compApi } from "./competition-api.js";
import { pileName } from "./layout.js";

const $ = (id) => document.getElementById(id);

const ui = {
  play: null,
  receivedAt: 0,
  shownWin: null,
  shownOver: null,
  board: null,
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
  // The page opened under another path (e.g. /static/play.html?game=klondike).
  if (q.get("play")) return { playId: q.get("play") };
  return { game: q.get("game") || "klondike", number: q.get("number") };
}

function cleanNumber(text) {
  if (text === null || text === undefined) return null;
  const t = String(text).trim();
  if (t === "") return null;
  if (!/^-?\d+$/.test(t)) {
    throw new ApiError(400, "bad_number", `"${t}" is not a deal number: type a whole number such as 24.`);
  }
  return t.replace(/^(-?)0+(?=\d)/, "$1");
}

// The deal's number as text, or null while it is not shown (a running ranked game).
function dealNumber(play) {
  if (play.number_text) return play.number_text;
  return play.number === null || play.number === undefined ? null : String(play.number);
}

function shareUrl(play) {
  const number = dealNumber(play);
  return `${window.location.origin}/play/${encodeURIComponent(play.game)}?number=${number}`;
}

// -- messages -----------------------------------------------------------------------------------

let errorTimer = 0;

// A refusal's reason, shown over the page (the board does not move) until the next accepted
// action, a click on it, or a few seconds.
function showError(message) {
  $("error").textContent = message;
  $("error").title = "Click to dismiss";
  window.clearTimeout(errorTimer);
  errorTimer = window.setTimeout(clearError, 9000);
}

function clearError() {
  window.clearTimeout(errorTimer);
  $("error").textContent = "";
}

function announce(text) {
  const box = $("announce");
  box.textContent = "";
  // A fresh text node so screen readers read it again even if it is the same sentence.
  window.setTimeout(() => {
    box.textContent = text;
  }, 30);
}

function pileByLabel(play, label) {
  return play.piles.find((p) => p.label === label);
}

function describeMove(play, move) {
  if (!move) return "";
  if (move === "s") return "Turned the stock.";
  if (move === "t") return play.game === "senior-wrangler" ? "Dealt out the next packet." : "Turned the waste over.";
  const [src, dst, count] = move.split(" ");
  const to = pileByLabel(play, dst);
  const from = pileByLabel(play, src);
  if (!to || !from) return `Played ${move}.`;
  const n = Number(count || 1);
  const card = to.cards[to.cards.length - n];
  const what = n > 1 ? `${n} cards from ${cardName(card)}` : cardName(card);
  return `${what[0].toUpperCase()}${what.slice(1)} from ${pileName(play.game, from)} to ${pileName(play.game, to)}.`;
}

// -- applying the server's answer ------------------------------------------------------------------

function apply(play, { animate = true } = {}) {
  const first = !ui.play || ui.play.id !== play.id;
  ui.play = play;
  ui.receivedAt = performance.now();
  const target = `/p/${encodeURIComponent(play.id)}`;
  if (window.location.pathname !== target) window.history.replaceState({ play: play.id }, "", target);
  ui.board.setPlay(play, { animate: animate && !first });
  const name = play.name || play.game;
  // A running ranked game's number is the server's secret (it is null here): the page says
  // "ranked" instead, and offers no link to the deal.
  const number = dealNumber(play);
  $("game-name").textContent = name;
  $("deal-no").textContent = number ? `#${number}` : "";
  $("ranked-badge").hidden = !play.ranked;
  document.title = number ? `${name} #${number} – PatienceKit` : `${name}, ranked game – PatienceKit`;
  $("board").setAttribute("aria-label", number ? `${name}, deal ${number}` : `${name}, ranked game`);
  $("rules-link").href = `/rules/${encodeURIComponent(play.game)}`;
  $("m-moves").textContent = String(play.n);
  const scored = play.score !== null && play.score !== undefined;
  $("m-score-box").hidden = !scored;
  $("m-bonus-box").hidden = !scored;
  if (scored) {
    $("m-score").textContent = String(play.score);
    $("m-bonus").textContent = play.won ? String(play.time_bonus ?? 0) : "–";
  }
  const redeals = play.redeals_left;
  const hasTurn = play.piles.some((p) => p.kind === "stock" || p.kind === "packet");
  $("m-redeals-box").hidden = redeals === null || redeals === undefined || !hasTurn;
  $("m-redeals-label").textContent = play.game === "senior-wrangler" ? "Packet deals left" : "Redeals left";
  $("m-redeals").textContent = String(redeals ?? "");
  const casual = !play.ranked;
  for (const id of ["undo", "redo", "restart", "hint"]) $(id).hidden = !casual;
  $("hint-text").textContent = "";
  // Shown on a ranked game until it ends (a deal with no move at all still needs ending).
  $("give-up").hidden = casual || (play.over && (play.n > 0 || !!play.result));
  $("undo").disabled = !play.can_undo;
  $("redo").disabled = !play.can_redo;
  $("restart").disabled = !play.can_undo;
  const packets = play.piles.some((p) => p.kind === "packet");
  $("deal-next").hidden = !packets;
  $("deal-next").disabled = !(play.legal_moves || []).includes("t");
  $("share").hidden = !number;
  const link = $("share-link");
  link.href = number ? shareUrl(play) : "#";
  link.textContent = number ? shareUrl(play).replace(/^https?:\/\//, "") : "";
  tick();
  endings(play);
}

function endings(play) {
  const key = `${play.id}:${play.n}`;
  if (play.won) {
    $("over").hidden = true;
    if (ui.shownWin !== key) {
      ui.shownWin = key;
      celebrate(play);
    }
    return;
  }
  $("win").hidden = true;
  if (play.over) {
    if (ui.shownOver !== key) {
      ui.shownOver = key;
      $("over-undo").disabled = !play.can_undo || !!play.ranked;
      $("over-restart").disabled = !play.can_undo || !!play.ranked;
      // A ranked game that is over counts with its score: there is nothing to take back.
      if (!ui.overTexts) ui.overTexts = [$("over-title").textContent, $("over-text").textContent];
      $("over-title").textContent = play.ranked ? "This ranked game is over" : ui.overTexts[0];
      $("over-text").textContent = play.ranked
        ? `It counts with its final score, ${play.score ?? 0} points. Start a new deal when you like.`
        : ui.overTexts[1];
      $("over").hidden = false;
      announce("No moves left: the game is over.");
      $("over-new").focus();
    }
  } else {
    $("over").hidden = true;
  }
}

function celebrate(play) {
  const scored = play.score !== null && play.score !== undefined;
  $("win-score-box").hidden = !scored;
  $("win-score").textContent = scored ? String(play.score) : "";
  $("win-time").textContent = formatTime(play.elapsed);
  $("win-moves").textContent = String(play.n);
  const deal = dealNumber(play) ? `${play.name} deal #${dealNumber(play)}` : `Your ranked game of ${play.name}`;
  $("win-text").textContent = scored
    ? `${deal} is solved, with a time bonus of ${play.time_bonus ?? 0}.`
    : `${deal} is solved.`;
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
  announce(`You won! ${scored ? `Score ${play.score}. ` : ""}Time ${formatTime(play.elapsed)}. ${play.n} moves.`);
  $("win-new").focus();
}

function tick() {
  const play = ui.play;
  if (!play) return;
  let elapsed = Number(play.elapsed) || 0;
  // The server's clock runs on between answers: count on locally, resync on every answer.
  if (!play.won) elapsed += (performance.now() - ui.receivedAt) / 1000;
  $("m-time").textContent = formatTime(elapsed);
}

// -- talking to the server -------------------------------------------------------------------------

// Actions run one after another: each is sent with the move count of the answer before it,
// so quick key presses (s s s, u u u) all count instead of colliding.
let queue = Promise.resolve();

function act(request, { say } = {}) {
  const run = async () => {
    try {
      const play = await request(ui.play);
      clearError();
      apply(play);
      if (say) announce(say(play));
      return true;
    } catch (e) {
      if (!(e instanceof ApiError)) throw e;
      if (e.code === "conflict" && ui.play) {
        // Another tab (or a lost answer) moved the game on: show where it really is.
        try {
          apply(await api.getPlay(ui.play.id), { animate: false });
        } catch (e2) {
          // keep the board as it is
        }
      }
      showError(e.message);
      announce(e.message);
      return false;
    }
  };
  const done = queue.then(run, run);
  queue = done.catch(() => false);
  return done;
}

function onPlay(request, options) {
  if (!ui.play) return Promise.resolve(false);
  return act(request, options);
}

const actions = {
  move(text) {
    return onPlay((play) => api.move(play.id, text, play.n), { say: (p) => describeMove(p, p.last || text) });
  },
  foundation(label) {
    return onPlay((play) => api.foundation(play.id, label, play.n), { say: (p) => describeMove(p, p.last) });
  },
  // The stock: turn cards, or turn the waste over once the stock is empty.
  stock() {
    return onPlay(
      (play) => {
        const legal = play.legal_moves || [];
        const text = !legal.includes("s") && legal.includes("t") ? "t" : "s";
        return api.move(play.id, text, play.n);
      },
      { say: (p) => describeMove(p, p.last) },
    );
  },
  undo() {
    return onPlay((play) => api.undo(play.id, play.n), { say: () => "Move taken back." });
  },
  redo() {
    return onPlay((play) => api.redo(play.id, play.n), { say: (p) => `Played again: ${describeMove(p, p.last)}` });
  },
  restart() {
    return onPlay((play) => api.restart(play.id, play.n), { say: () => "The deal starts again." });
  },
  // A ranked game only: it ends now with its running score (no time bonus).
  giveUp() {
    return onPlay((play) => compApi.finish(play.id, play.n), {
      say: (p) => `You gave up: the game counts ${p.score ?? 0} points.`,
    });
  },
  hint() {
    if (!ui.play) return Promise.resolve(false);
    return api.hint(ui.play.id).then(
      (r) => {
        const text = r.hint ? `Hint: ${r.hint}` : "No move is left.";
        $("hint-text").textContent = text;
        announce(text);
        return true;
      },
      (e) => {
        showError(e.message);
        return false;
      },
    );
  },
  newDeal(number = null) {
    const game = ui.play ? ui.play.game : route().game;
    const ranked = ui.play && ui.play.ranked;
    if (ranked && number === null) return actions.newRanked(game);
    const winnable = $("winnable-only").checked;
    return act(() => api.createPlay(game, cleanNumber(number), false, winnable), {
      say: (p) => `New deal: ${p.name} #${dealNumber(p)}.`,
    });
  },
  // "New deal" on a ranked game: another ranked game. While this one runs, the player is
  // asked first: it then ends as given up and counts with its score.
  newRanked(game) {
    const running = !ui.play.over && !ui.play.won;
    if (running && !window.confirm("Give up this ranked game and start a new one? It ends now and counts with its current score.")) {
      return Promise.resolve(false);
    }
    return act(
      async () => {
        // Given up already when it runs; else another open one (another tab) is asked about.
        if (running) return api.createRanked(game, true);
        const play = await startRanked(game, (question) => window.confirm(question));
        if (play === null) throw new ApiError(409, "ranked_open", "Your ranked game is still open.");
        return play;
      },
      { say: (p) => `New ranked game of ${p.name}.` },
    );
  },
  announce,
};

// -- wiring ------------------------------------------------------------------------------------------

function typing(target) {
  if (!target) return false;
  const tag = target.tagName;
  return tag === "INPUT" || tag === "TEXTAREA" || tag === "SELECT" || target.isContentEditable;
}

function closeDialogs() {
  $("win").hidden = true;
  $("over").hidden = true;
  const first = document.querySelector("#board .pile");
  if (first) first.focus({ preventScroll: true });
}

// Tab stays inside an open dialog.
function trapFocus(e) {
  const dialog = !$("win").hidden ? $("win") : !$("over").hidden ? $("over") : null;
  if (!dialog || e.key !== "Tab") return false;
  const buttons = [...dialog.querySelectorAll("button:not([disabled])")];
  if (!buttons.length) return false;
  const i = buttons.indexOf(document.activeElement);
  const next = e.shiftKey ? (i <= 0 ? buttons.length - 1 : i - 1) : (i + 1) % buttons.length;
  buttons[next].focus();
  e.preventDefault();
  return true;
}

function onGlobalKey(e) {
  if (trapFocus(e)) return;
  if (typing(e.target) || !ui.play) return;
  if (!$("win").hidden || !$("over").hidden) {
    if (e.key === "Escape") closeDialogs();
    return;
  }
  const key = e.key.toLowerCase();
  const ctrl = e.ctrlKey || e.metaKey;
  if (ctrl && !e.altKey) {
    if (key === "z" && !e.shiftKey) {
      e.preventDefault();
      actions.undo();
    } else if (key === "y" || (key === "z" && e.shiftKey)) {
      e.preventDefault();
      actions.redo();
    }
    return;
  }
  if (e.altKey || e.metaKey) return;
  if (key === "u") actions.undo();
  else if (key === "r") actions.redo();
  else if (key === "s") actions.stock();
  else if (key === "t") actions.move("t");
  else if (key === "h" && ui.play && !ui.play.ranked) actions.hint();
  else if (key === "/") {
    e.preventDefault();
    $("move-input").focus();
  } else return;
  e.preventDefault();
}

function wire() {
  $("error").addEventListener("click", clearError);
  $("undo").addEventListener("click", () => actions.undo());
  $("redo").addEventListener("click", () => actions.redo());
  $("restart").addEventListener("click", () => actions.restart());
  $("hint").addEventListener("click", () => actions.hint());
  $("winnable-only").checked = window.localStorage.getItem("pk-winnable") === "1";
  $("winnable-only").addEventListener("change", (e) => {
    window.localStorage.setItem("pk-winnable", e.target.checked ? "1" : "0");
  });
  $("give-up").addEventListener("click", () => {
    if (window.confirm("Give up this ranked game? It ends now with its current score.")) actions.giveUp();
  });
  $("deal-next").addEventListener("click", () => actions.move("t"));
  $("new-deal").addEventListener("click", () => actions.newDeal(null));
  $("number-form").addEventListener("submit", (e) => {
    e.preventDefault();
    const value = $("number-input").value;
    if (!value.trim()) {
      showError("Type a deal number first, for example 24.");
      return;
    }
    actions.newDeal(value).then((ok) => {
      if (ok) $("number-input").value = "";
    });
  });
  $("move-form").addEventListener("submit", async (e) => {
    e.preventDefault();
    const input = $("move-input");
    const text = input.value.trim();
    if (!text) return;
    const ok = await actions.move(text);
    if (ok) input.value = "";
    // Stay in the box for the next move, unless the game just ended (its dialog has the focus).
    if ($("win").hidden && $("over").hidden) input.focus();
  });
  $("share-copy").addEventListener("click", async () => {
    const url = $("share-link").href;
    try {
      await navigator.clipboard.writeText(url);
      announce("Link copied.");
      $("share-copy").textContent = "Copied";
      window.setTimeout(() => {
        $("share-copy").textContent = "Copy link";
      }, 1500);
    } catch (e) {
      window.prompt("Copy this link:", url);
    }
  });
  $("win-new").addEventListener("click", () => {
    $("win").hidden = true;
    actions.newDeal(null);
  });
  $("win-close").addEventListener("click", closeDialogs);
  $("over-undo").addEventListener("click", () => {
    $("over").hidden = true;
    actions.undo();
  });
  $("over-restart").addEventListener("click", () => {
    $("over").hidden = true;
    actions.restart();
  });
  $("over-new").addEventListener("click", () => {
    $("over").hidden = true;
    actions.newDeal(null);
  });
  $("over-close").addEventListener("click", closeDialogs);
  document.addEventListener("keydown", onGlobalKey);
  window.setInterval(tick, 250);
}

async function main() {
  ui.board = new Board($("board"), actions);
  wire();
  const header = initHeader();
  const r = route();
  try {
    let play;
    if (r.playId) play = await api.getPlay(r.playId);
    else play = await api.createPlay(r.game, cleanNumber(r.number));
    apply(play, { animate: false });
  } catch (e) {
    if (!(e instanceof ApiError)) throw e;
    $("game-name").textContent = e.code === "unknown_game" ? "Unknown game" : "This game cannot be shown";
    showError(e.message);
    const back = document.createElement("p");
    back.innerHTML = `<a href="/">Back to the games</a>`;
    $("board").replaceWith(back);
  }
  await header;
}

main();

// For tests and the curious: the play as the server last sent it.
window.pk = { get play() { return ui.play; } };
