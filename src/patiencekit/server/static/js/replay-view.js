// A published replay to step through: a finished tournament's round, a closed daily deal's play.
// The page has the replay section (ids replay, replay-title, replay-board, r-first, r-prev,
// r-step, r-next, r-last, r-move, r-download, r-close); the viewer draws the board after each
// step (a BoardView: nothing to pick up) and offers the game record as a file to download.

import { ApiError } from "./api.js";
import { BoardView } from "./board-view.js";
import { formatNumber, t } from "./i18n.js";

const $ = (id) => document.getElementById(id);

// The game record as a file: its deal number with all its digits (a parsed JSON number keeps
// only 15 or 16 of a deal number's 20; api.js keeps the exact ones as number_text).
export function recordText(record) {
  const { number_text: digits, ...rest } = record;
  const text = JSON.stringify(rest, null, 2);
  return digits ? text.replace(/("number":\s*)\d+/, `$1${digits}`) : text;
}

export class ReplayViewer {
  // games: GET /api/games (the list); showError(message): a refusal's reason.
  constructor(games, showError) {
    this.board = new BoardView($("replay-board"), games);
    this.showError = showError;
    this.current = null;
    $("r-first").addEventListener("click", () => this.show(0));
    $("r-prev").addEventListener("click", () => this.show(this.current.step - 1));
    $("r-next").addEventListener("click", () => this.show(this.current.step + 1));
    $("r-last").addEventListener("click", () => this.show(this.current.steps));
    $("r-close").addEventListener("click", () => {
      $("replay").hidden = true;
    });
  }

  /** The replay shown (null before the first): its record, step, steps. */
  get replay() {
    return this.current;
  }

  // source: { key (a name for the board), record(): the game record (a promise),
  //   step(k): the board after k moves (a promise), title(record), filename }
  async open(source) {
    try {
      const record = await source.record();
      if (this.current && this.current.url) URL.revokeObjectURL(this.current.url);
      const text = recordText(record);
      const url = URL.createObjectURL(new Blob([text], { type: "application/json" }));
      this.current = { source, record, text, steps: record.moves.length, step: 0, url };
      const link = $("r-download");
      link.href = url;
      link.download = source.filename;
      $("replay-title").textContent = source.title(record);
      await this.show(0);
      // Shown once its first step is drawn (not the previous replay's, nor "0 / 0").
      $("replay").hidden = false;
      $("replay").scrollIntoView({ block: "start" });
    } catch (e) {
      if (!(e instanceof ApiError)) throw e;
      this.showError(e.message);
    }
  }

  async show(step) {
    const r = this.current;
    if (!r) return;
    const k = Math.max(0, Math.min(r.steps, step));
    const view = await r.source.step(k);
    r.step = k;
    this.board.setPlay(
      { id: `replay-${r.source.key}`, game: view.game, number: view.number, piles: view.piles, legal_moves: [], won: view.won },
      { animate: false },
    );
    $("r-step").textContent = `${formatNumber(k)} / ${formatNumber(r.steps)}`;
    $("r-move").textContent = view.last ? t("replay.move", { k: formatNumber(k), move: view.last }) : t("replay.deal_start");
    $("r-first").disabled = $("r-prev").disabled = k === 0;
    $("r-next").disabled = $("r-last").disabled = k === r.steps;
  }
}
