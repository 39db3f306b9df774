// The play controller: one play on a board, for the play page (casual and ranked games) and a
// tournament's rounds alike. It owns
//   - the action queue: every action is sent with the move count (`n`) of the answer before it,
//     one after another, so quick key presses (s s s, u u u) all count instead of colliding;
//     an answer that says the play moved on elsewhere (another tab, a lost answer) brings the
//     board back to where the play really is;
//   - the clock: counted on locally between answers, resynced to the server's `elapsed`;
//   - the stock (turn cards, or turn the waste over once the stock is empty), moves, the
//     foundation, undo, redo, restart, the hint (drawn on the board, said in words),
//     auto-complete (the cards played home one by one) and giving up;
//   - the keyboard (s, t, u, r, h, a, Ctrl+Z, Ctrl+Y, / for the move box) and the move box;
//   - the Board, and what every board page shows the same way: the moves (made, not undone:
//     `moves_made`), score and time meters, the hint line, the auto-complete button (shown
//     while the play's `autocomplete` is true), what a screen reader hears (#announce);
//   - the board's settings button (settings.js), the sounds of what happens (sound.js: the
//     deal, a card put down, turned, sent home, the win), the deal of a new play (or a
//     restart) and the win cascade, after which the page shows its end of the game.
// The page configures it: which commands it offers, and its own part of each answer (render)
// and of the end of the game (ended). Element ids it uses where the page has them: m-moves,
// m-score (m-score-box), m-time, hint-text, announce, move-form, move-input, autocomplete,
// settings.

import { api, ApiError } from "./api.js";
import { Board } from "./board.js";
import { parseMove } from "./board-view.js";
import { cardName } from "./cards.js";
import { formatTime } from "./common.js";
import { compApi } from "./competition-api.js";
import { findGame } from "./games.js";
import { t } from "./i18n.js";
import { pileName } from "./layout.js";
import { settingsOpen, wireSettings } from "./settings.js";
import { playSound } from "./sound.js";

const $ = (id) => document.getElementById(id);

const count = (play, test) => play.piles.reduce((n, p) => n + p.cards.filter((c) => test(p, c)).length, 0);
const onFoundations = (play) => count(play, (p) => p.kind === "foundation");
const inStock = (play) => count(play, (p) => p.kind === "stock");
const faceDown = (play) => count(play, (p, c) => p.kind !== "stock" && c === null);
const drawnAs = (play) => play.piles.map((p) => p.cards.join()).join("|");

// The sounds of what an answer did to the play drawn before (prev): the win; else a card
// home, a stock turned or a card put down; and a card turned face up in its place after it.
function soundsOf(prev, play, won) {
  const sounds = [];
  if (won) sounds.push("win");
  else if (onFoundations(play) > onFoundations(prev)) sounds.push("foundation");
  else if (inStock(play) !== inStock(prev)) sounds.push("flip");
  else if (drawnAs(play) !== drawnAs(prev)) sounds.push("place");
  if (!won && faceDown(play) < faceDown(prev)) sounds.push("flip");
  return sounds;
}

function typing(target) {
  if (!target) return false;
  const tag = target.tagName;
  return tag === "INPUT" || tag === "TEXTAREA" || tag === "SELECT" || target.isContentEditable;
}

/** The moves meter: the moves made since the deal or the restart (the server's
 * `moves_made`: an undo does not take one back); `n`, the current line, where it is missing. */
export function movesMade(play) {
  const made = play && play.moves_made;
  return typeof made === "number" ? made : play ? play.n : 0;
}

export class PlayController {
  // page: {
  //   board: the board's element; games: GET /api/games (the list);
  //   commands: which of "undo", "redo", "restart", "hint", "autocomplete" the page offers
  //     (keys included);
  //   untilOver: true to refuse every action once the play is over, giving up excepted;
  //   render(play, {first}): the page's own part of an answer (first: a play not shown before);
  //   ended(play, {first}): on every answer whose play is won or over;
  //   resynced(): after the board was brought back to the play's real position;
  //   showError(message), clearError(): a refusal's reason, and its end;
  //   dialogOpen(): whether a dialog of the page holds the focus (keys then wait);
  //   onKey(event): a key for the page first (true: taken) }
  constructor(page) {
    this.page = page;
    this.games = page.games || [];
    this.commands = new Set(page.commands || []);
    this.current = null;
    this.receivedAt = 0;
    this.queue = Promise.resolve();
    this.autocompleting = false; // an auto-complete is on its way or being played through
    this.board = new Board(page.board, {
      move: (text) => this.move(text),
      foundation: (label) => this.foundation(label),
      stock: () => this.stock(),
      announce: (text) => this.announce(text),
    }, this.games);
    document.addEventListener("keydown", (e) => this.onKey(e));
    this.wireMoveBox();
    wireSettings($("settings"));
    if ($("autocomplete")) $("autocomplete").addEventListener("click", () => this.autocomplete());
    window.setInterval(() => this.tick(), 250);
  }

  /** The play as the server last sent it (null before the first). */
  get play() {
    return this.current;
  }

  /** The play's item of GET /api/games (null while there is no play, or an unlisted game). */
  get game() {
    return this.current ? findGame(this.games, this.current.game) : null;
  }

  // -- answers -------------------------------------------------------------------------------

  /** Shows a play from the server; a new one (another id) is drawn without sliding cards,
   * dealt when it is at its start (deal: whether to deal, whatever the play). A play just won
   * here gets its win cascade first, then the page's end of the game. */
  show(play, { animate = true, deal = null } = {}) {
    const prev = this.current;
    const first = !prev || prev.id !== play.id;
    const dealt = deal ?? (first && play.n === 0 && !play.can_undo && !play.won && !play.over);
    const won = !first && !!play.won && !prev.won;
    this.current = play;
    this.receivedAt = performance.now();
    this.board.stopCascade();
    this.board.setPlay(play, { animate: animate && !first, deal: dealt });
    if (dealt) playSound("deal");
    else if (!first) soundsOf(prev, play, won).forEach((name, k) => playSound(name, k * 90));
    this.meters(play);
    this.clearHint();
    if ($("autocomplete")) $("autocomplete").hidden = !this.canAutocomplete(play);
    this.page.render(play, { first });
    this.tick();
    if ((play.over || play.won) && this.page.ended) {
      if (!won) this.page.ended(play, { first });
      else {
        this.board.cascade().then(() => {
          if (this.current === play) this.page.ended(play, { first });
        });
      }
    }
  }

  meters(play) {
    if ($("m-moves")) $("m-moves").textContent = String(movesMade(play));
    const scored = play.score !== null && play.score !== undefined;
    if ($("m-score-box")) $("m-score-box").hidden = !scored;
    if ($("m-score")) $("m-score").textContent = String(play.score ?? 0);
  }

  // The server's clock runs on between answers: count on locally, resync on every answer.
  // It stops on a win, and when a ranked game is over (it counts as it is).
  tick() {
    const play = this.current;
    if (!play || !$("m-time")) return;
    let elapsed = Number(play.elapsed) || 0;
    if (!play.won && !(play.over && play.ranked)) elapsed += (performance.now() - this.receivedAt) / 1000;
    $("m-time").textContent = formatTime(elapsed);
  }

  // -- messages ------------------------------------------------------------------------------

  announce(text) {
    const box = $("announce");
    if (!box) return;
    box.textContent = "";
    // A fresh text node so screen readers read it again even if it is the same sentence.
    window.setTimeout(() => {
      box.textContent = text;
    }, 30);
  }

  // What a move did, in words ("Seven of hearts from column 3 to foundation 1.").
  describeMove(play, move) {
    if (!move) return "";
    const game = findGame(this.games, play.game);
    if (move === "s") return t("say.turned_stock");
    if (move === "t") return game && game.turn === "next-packet" ? t("say.dealt_packet") : t("say.turned_waste");
    const { src, dst, count: n } = parseMove(move);
    const to = play.piles.find((p) => p.label === dst);
    const from = play.piles.find((p) => p.label === src);
    if (!to || !from) return t("say.played", { move });
    const card = to.cards[to.cards.length - n];
    const what = n > 1 ? t("move.cards_from", { count: n, card: cardName(card) }) : cardName(card);
    const text = t("say.moved", { what, from: pileName(game, from), to: pileName(game, to) });
    return `${text[0].toUpperCase()}${text.slice(1)}`;
  }

  // -- the queue -----------------------------------------------------------------------------

  // Runs request(play) after every action before it; its answer (a play) is shown (by
  // present(answer) when given: the next action waits for it). say(play): what to announce
  // then. withoutPlay: an action that needs no play (a new deal); evenOver: one that runs on
  // a play that is over (giving up a deal with no move left).
  act(request, { say, present, withoutPlay = false, evenOver = false } = {}) {
    const run = async () => {
      const play = this.current;
      if (!withoutPlay && (!play || (play.over && this.page.untilOver && !evenOver))) return false;
      this.clearHint();
      try {
        const answer = await request(play);
        this.page.clearError();
        if (present) await present(answer);
        else this.show(answer);
        if (say) this.announce(say(answer));
        return true;
      } catch (e) {
        if (!(e instanceof ApiError)) throw e;
        const resync = (e.code === "conflict" || e.code === "game_over") && this.current;
        if (resync) {
          try {
            this.show(await api.getPlay(this.current.id), { animate: false });
          } catch (e2) {
            // keep the board as it is
          }
        }
        this.page.showError(e.message);
        this.announce(e.message);
        if (resync && this.page.resynced) await this.page.resynced();
        return false;
      }
    };
    const done = this.queue.then(run, run);
    this.queue = done.catch(() => false);
    return done;
  }

  // -- commands ------------------------------------------------------------------------------

  move(text) {
    return this.act((play) => api.move(play.id, text, play.n), { say: (p) => this.describeMove(p, p.last || text) });
  }

  foundation(label) {
    return this.act((play) => api.foundation(play.id, label, play.n), { say: (p) => this.describeMove(p, p.last) });
  }

  // The stock: turn cards, or turn the waste over once the stock is empty.
  stock() {
    return this.act(
      (play) => {
        const legal = play.legal_moves || [];
        return api.move(play.id, !legal.includes("s") && legal.includes("t") ? "t" : "s", play.n);
      },
      { say: (p) => this.describeMove(p, p.last) },
    );
  }

  // t: turn the waste over, or deal the next packet.
  turn() {
    return this.move("t");
  }

  undo() {
    return this.act((play) => api.undo(play.id, play.n), { say: () => t("say.undone") });
  }

  redo() {
    return this.act((play) => api.redo(play.id, play.n), { say: (p) => t("say.redone", { move: this.describeMove(p, p.last) }) });
  }

  // The deal is dealt again, from the stock.
  restart() {
    return this.act((play) => api.restart(play.id, play.n), {
      say: () => t("say.restarted"),
      present: (answer) => this.show(answer, { deal: answer.n === 0 && !answer.can_undo }),
    });
  }

  // A ranked play only: it ends now with its running score (no time bonus).
  giveUp() {
    return this.act((play) => compApi.finish(play.id, play.n), {
      evenOver: true,
      say: (p) => t("say.gave_up", { count: p.score ?? 0 }),
    });
  }

  // The solver's hint (not queued: it changes nothing): drawn on the board (the cards it
  // moves, the pile they go to) and said in words in #hint-text and to a screen reader (the
  // server's `words`; its notation where it sends none). An answer for a position the play
  // has left since (a move came first) is dropped.
  hint() {
    const asked = this.current;
    if (!asked) return Promise.resolve(false);
    return api.hint(asked.id).then(
      (r) => {
        const play = this.current;
        if (!play || play.id !== asked.id || (typeof r.n === "number" && r.n !== play.n)) return false;
        this.clearHint();
        if (r.hint) this.board.showHint(r.hint);
        const text = r.hint ? t("hint.text", { words: r.words || r.hint }) : t("hint.none");
        if ($("hint-text")) $("hint-text").textContent = text;
        this.announce(text);
        return true;
      },
      (e) => {
        if (!(e instanceof ApiError)) throw e;
        this.page.showError(e.message);
        return false;
      },
    );
  }

  clearHint() {
    this.board.clearHint();
    if ($("hint-text")) $("hint-text").textContent = "";
  }

  // Whether auto-complete is offered now: the server says the player's view proves a win.
  canAutocomplete(play) {
    return this.commands.has("autocomplete") && !!play && play.autocomplete === true && !play.won && !play.over;
  }

  // Auto-complete: the server plays the won line (`autocompleted`, the moves in order); the
  // board plays it through card by card (at once with reduced motion), then shows the won
  // play as usual. A refusal (no_autocomplete) is shown like any other and changes nothing.
  // One at a time: a second press while it runs sends nothing.
  autocomplete() {
    if (this.autocompleting) return Promise.resolve(false);
    this.autocompleting = true;
    const button = $("autocomplete");
    const done = this.act((play) => api.autocomplete(play.id, play.n), {
      present: async (answer) => {
        const moves = Array.isArray(answer.autocompleted) ? answer.autocompleted : [];
        const hadFocus = !!button && document.activeElement === button;
        if (button) button.hidden = true;
        if (moves.length && this.current && this.current.id === answer.id) {
          this.announce(t("say.autocomplete", { count: moves.length }));
          // About 100 ms a move; a long line (stock turns) goes faster, within ~6 s.
          const step = Math.max(40, Math.min(110, Math.floor(6000 / moves.length)));
          const seen = movesMade(this.current);
          const onStep = (k) => {
            if ($("m-moves")) $("m-moves").textContent = String(seen + k + 1);
            playSound("foundation");
          };
          await this.board.playThrough(moves, answer, { step, onStep });
        }
        // Drawn as it is (the line played through), or its cards slide home all at once.
        this.show(answer);
        // The button is gone: the focus goes to the board (unless the page moved it, to a
        // dialog say).
        if (hadFocus && (document.activeElement === button || document.activeElement === document.body)) {
          const first = this.page.board.querySelector(".pile");
          if (first) first.focus({ preventScroll: true });
        }
      },
    });
    return done.finally(() => {
      this.autocompleting = false;
    });
  }

  // The a key: auto-complete when it is offered; else only a word, and nothing is sent.
  autocompleteKey() {
    const play = this.current;
    if (this.canAutocomplete(play)) return this.autocomplete();
    if (play.won || play.over) return Promise.resolve(false);
    const text = t("hint.autocomplete_later");
    if ($("hint-text")) $("hint-text").textContent = text;
    this.announce(text);
    return Promise.resolve(false);
  }

  // -- keyboard and the move box -------------------------------------------------------------

  onKey(e) {
    if (this.page.onKey && this.page.onKey(e)) return;
    if (typing(e.target) || !this.current) return;
    if (settingsOpen() || (this.page.dialogOpen && this.page.dialogOpen())) return;
    const has = (command) => this.commands.has(command);
    const key = e.key.toLowerCase();
    const ctrl = e.ctrlKey || e.metaKey;
    if (ctrl && !e.altKey) {
      if (key === "z" && !e.shiftKey && has("undo")) {
        e.preventDefault();
        this.undo();
      } else if ((key === "y" || (key === "z" && e.shiftKey)) && has("redo")) {
        e.preventDefault();
        this.redo();
      }
      return;
    }
    if (e.altKey || e.metaKey) return;
    if (key === "u" && has("undo")) this.undo();
    else if (key === "r" && has("redo")) this.redo();
    else if (key === "s") this.stock();
    else if (key === "t") this.turn();
    else if (key === "h" && has("hint") && !this.current.ranked) this.hint();
    else if (key === "a" && has("autocomplete")) this.autocompleteKey();
    else if (key === "/" && $("move-input")) {
      e.preventDefault();
      $("move-input").focus();
    } else return;
    e.preventDefault();
  }

  wireMoveBox() {
    const form = $("move-form");
    if (!form) return;
    form.addEventListener("submit", async (e) => {
      e.preventDefault();
      const input = $("move-input");
      const text = input.value.trim();
      if (!text) return;
      if (await this.move(text)) input.value = "";
      // Stay in the box for the next move, unless the game just ended in a dialog.
      if (!(this.page.dialogOpen && this.page.dialogOpen())) input.focus();
    });
  }
}
