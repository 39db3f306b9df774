// A replay on a page: a game record to step through on a board to look at (BoardView), with
// its controls (first, previous, next, last, close) and the record to download. Each step's
// board comes from the server (`<replay address>?step=k`: the board as the player saw it, no
// hidden card), as the tournaments' replays and a player's own games' replays
// (GET /api/plays/{id}/replay) answer alike.
//
// The page holds the markup (a section with the controls named by data-replay="first",
// "prev", "step", "next", "last", "move", "download", "close" and a board element); the
// caller gives the words of a step. The tournament and daily deal pages hold the same markup,
// the fragment `_replay.html` (`<!-- pk:replay -->`), and set up their replay with
// `pageReplay`.

import { ApiError, request } from "./api.js";
import { BoardView } from "./board-view.js";
import { formatNumber, t } from "./i18n.js";

/** The game record as a file's text: its deal number with all its digits (a parsed JSON
 * number keeps only 15 or 16 of a deal number's 20; the record's number_text has them). */
export function recordText(record) {
  const { number_text: digits, ...rest } = record;
  const text = JSON.stringify(rest, null, 2);
  return digits ? text.replace(/("number":\s*)\d+/, `$1${digits}`) : text;
}

/** The words of a step: the move that led to it, or the deal's start (replay.*). */
const STEP_WORDS = {
  move: (k, move) => t("replay.move", { k: formatNumber(k), move }),
  start: () => t("replay.deal_start"),
};

export class ReplayViewer {
  // section: the replay's section (hidden until a replay is open); board: its board element;
  // games: GET /api/games; words (optional): { move(k, move) -> text, start() -> text }.
  constructor({ section, board, games, words = STEP_WORDS }) {
    this.section = section;
    this.view = new BoardView(board, games);
    this.words = words;
    this.replay = null; // { address, record, text (the file's), steps, step, url, view }
    const part = (name) => section.querySelector(`[data-replay="${name}"]`);
    this.parts = Object.fromEntries(
      ["first", "prev", "step", "next", "last", "move", "download", "close"].map((n) => [n, part(n)]),
    );
    this.parts.first.addEventListener("click", () => this.show(0));
    this.parts.prev.addEventListener("click", () => this.show(this.replay.step - 1));
    this.parts.next.addEventListener("click", () => this.show(this.replay.step + 1));
    this.parts.last.addEventListener("click", () => this.show(this.replay.steps));
    this.parts.close.addEventListener("click", () => this.close());
  }

  // Opens the replay at `address` (its record is fetched; `fileName` for the download) at its
  // first step; the record. `titled(record)` is called once the record is there (the page
  // writes its title); the replay is shown once its first step is drawn (not the previous
  // replay's, nor "0 / 0").
  async open(address, fileName, titled = () => {}) {
    const record = await request("GET", address);
    if (this.replay && this.replay.url) URL.revokeObjectURL(this.replay.url);
    const text = recordText(record);
    const url = URL.createObjectURL(new Blob([text], { type: "application/json" }));
    this.replay = { address, record, text, steps: record.moves.length, step: 0, url, view: null };
    this.parts.download.href = url;
    this.parts.download.download = fileName;
    titled(record);
    await this.show(0);
    this.section.hidden = false;
    this.section.scrollIntoView({ block: "start" });
    return record;
  }

  async show(step) {
    const r = this.replay;
    if (!r) return;
    const k = Math.max(0, Math.min(r.steps, step));
    const view = await request("GET", `${r.address}?step=${encodeURIComponent(k)}`);
    if (this.replay !== r) return; // another replay was opened meanwhile
    r.step = k;
    r.view = view;
    this.view.setPlay(
      { id: `replay-${r.address}`, game: view.game, number: view.number, piles: view.piles, legal_moves: [], won: view.won },
      { animate: false },
    );
    this.parts.step.textContent = `${formatNumber(k)} / ${formatNumber(r.steps)}`;
    this.parts.move.textContent = view.last ? this.words.move(k, view.last) : this.words.start();
    this.parts.first.disabled = this.parts.prev.disabled = k === 0;
    this.parts.next.disabled = this.parts.last.disabled = k === r.steps;
  }

  close() {
    this.section.hidden = true;
  }
}

/** The replay of a page that holds the shared replay section (`_replay.html`: `#replay`, its
 * board `#replay-board`, its heading `#replay-title`), as the tournament and daily deal pages
 * show theirs. `open(address, fileName, title)` opens a replay as `ReplayViewer.open` does,
 * its heading `title(record)`; a refusal (an ApiError) is shown with `showError`, after
 * `clearError`. `replay` is the viewer's (the record and the step shown). */
export function pageReplay({ games, showError, clearError }) {
  const $ = (id) => document.getElementById(id);
  const viewer = new ReplayViewer({ section: $("replay"), board: $("replay-board"), games });
  return {
    get replay() {
      return viewer.replay;
    },
    async open(address, fileName, title) {
      clearError();
      try {
        await viewer.open(address, fileName, (record) => {
          $("replay-title").textContent = title(record);
        });
      } catch (e) {
        if (!(e instanceof ApiError)) throw e;
        showError(e.message);
      }
    },
  };
}
