// The competition's part of the JSON API (docs/api.md, "Tournaments and the Top 100" and "The
// daily deal"): the same request() as every page, so the CSRF header and the server's refusals
// work as in api.js.

// Which games are ranked (tournaments, ranked play, a Top 100) is the list's to say: games.js.

import { request } from "./api.js";
import { formatNumber, has, ordinal, t } from "./i18n.js";

const enc = encodeURIComponent;

export const compApi = {
  tournaments: (game = null, status = null) => {
    const q = new URLSearchParams();
    if (game) q.set("game", game);
    if (status) q.set("status", status);
    const text = q.toString();
    return request("GET", `/api/tournaments${text ? `?${text}` : ""}`);
  },
  create: (game, size) => request("POST", "/api/tournaments", { game, size }),
  tournament: (id) => request("GET", `/api/tournaments/${enc(id)}`),
  join: (id) => request("POST", `/api/tournaments/${enc(id)}/join`, {}),
  leave: (id) => request("POST", `/api/tournaments/${enc(id)}/leave`, {}),
  openRound: (id, round) => request("POST", `/api/tournaments/${enc(id)}/rounds/${enc(round)}/play`, {}),
  // An entrant's round once the tournament is over: where its replay is (replay.js steps it).
  replayAddress: (id, name, round) => `/api/tournaments/${enc(id)}/replays/${enc(name)}/${enc(round)}`,
  // Give up a ranked play: it ends with its running score (no time bonus).
  finish: (playId, n) => request("POST", `/api/plays/${enc(playId)}/finish`, { n }),
  // The daily deal: today's of every game, a game's of a day (today when day is null), playing
  // today's (201 new, 200 resumed; 409 daily_played once played), a closed day's replays.
  daily: () => request("GET", "/api/daily"),
  dailyDay: (game, day = null) => request("GET", `/api/daily/${enc(game)}${day ? `/${enc(day)}` : ""}`),
  playDaily: (game) => request("POST", `/api/daily/${enc(game)}/play`),
  // A closed day's play: where its replay is (replay.js steps it).
  dailyReplayAddress: (game, day, name) => `/api/daily/${enc(game)}/${enc(day)}/replays/${enc(name)}`,
  top100: (game, player = null) =>
    request("GET", `/api/top100/${enc(game)}${player ? `?player=${enc(player)}` : ""}`),
  player: (name) => request("GET", `/api/players/${enc(name)}`),
};

// Cups and medals as the seed's Top 100 shows them: each count that is not 0 beside the mark
// of its place (a cup or a medal: 1st gold, 2nd silver, 3rd bronze, 4th blue, 5th purple,
// with the place written on it), a count of 0 left out; "no cups" / "no medals" where every
// count is 0. Each place is also said in words, for screen readers and as a tooltip.
const SVG = "http://www.w3.org/2000/svg";
// 24 x 24 shapes, [class, path]: a cup (its bowl, handles, stem and foot); a medal on its ribbon
const SHAPES = {
  cups: [
    ["metal", "M7 3h10v5a5 5 0 0 1-10 0z"],
    ["metal", "M3.5 4H7v2H5.5v1a2 2 0 0 0 1.7 2l-.5 1.9A4 4 0 0 1 3.5 7z"],
    ["metal", "M20.5 4H17v2h1.5v1a2 2 0 0 1-1.7 2l.5 1.9A4 4 0 0 0 20.5 7z"],
    ["metal", "M11 12.5h2V17h-2z"],
    ["metal", "M7.5 17h9v3.5h-9z"],
  ],
  medals: [
    ["ribbon", "M6.5 1.5h4.5l2.5 7h-4.5z"],
    ["ribbon", "M17.5 1.5H13l-2.5 7H15z"],
    ["metal", "M12 8a7 7 0 1 0 0 14a7 7 0 1 0 0-14z"],
  ],
};
// where the place's digit sits on the mark
const DIGIT_AT = { cups: [12, 10.2], medals: [12, 17.9] };

function mark(what, place) {
  const svg = document.createElementNS(SVG, "svg");
  svg.setAttribute("viewBox", "0 0 24 24");
  svg.setAttribute("class", "mark");
  svg.setAttribute("aria-hidden", "true");
  svg.setAttribute("focusable", "false");
  for (const [part, d] of SHAPES[what]) {
    const path = document.createElementNS(SVG, "path");
    path.setAttribute("class", part);
    path.setAttribute("d", d);
    svg.append(path);
  }
  const digit = document.createElementNS(SVG, "text");
  const [x, y] = DIGIT_AT[what];
  digit.setAttribute("x", String(x));
  digit.setAttribute("y", String(y));
  digit.setAttribute("text-anchor", "middle");
  digit.textContent = String(place);
  svg.append(digit);
  return svg;
}

export function countsCell(counts, what) {
  const cell = document.createElement("span");
  cell.className = `counts ${what}`;
  if (!counts || counts.every((n) => !n)) {
    cell.textContent = t(`award.no_${what}`);
    cell.classList.add("none");
    return cell;
  }
  counts.forEach((n, i) => {
    if (!n) return; // a count of 0 is left out, as on the seed's table
    const award = document.createElement("span");
    award.className = `award place-${i + 1}`;
    award.dataset.place = String(i + 1);
    const words = t(`award.${what}`, { count: n, place: ordinal(i + 1) });
    award.title = `${formatPoints(n)} ${words}`;
    const said = document.createElement("span");
    said.className = "visually-hidden";
    said.textContent = `${words}: `;
    const count = document.createElement("span");
    count.className = "count";
    count.textContent = formatPoints(n);
    award.append(mark(what, i + 1), said, count);
    cell.append(award);
  });
  return cell;
}

export function formatPoints(points) {
  return formatNumber(points || 0);
}

export function placeText(place) {
  if (place === null || place === undefined) return "–";
  return ordinal(place);
}

/** A tournament's status in words (open, running, finished). */
export function statusWord(status) {
  return t(`status.${status}`);
}

/** A result's outcome in words ("won", "gave up", ...; the API's word where there is none). */
export function outcomeWord(outcome) {
  const key = `outcome.${outcome}`;
  return has(key) ? t(key) : String(outcome).replace("_", " ");
}

/** "5 h 12 min": the time left to the end of a day (a daily deal's), or "less than a minute". */
export function timeLeft(seconds) {
  const s = Math.max(0, Math.floor(seconds));
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  if (!h && !m) return t("daily.left_soon");
  return h ? t("daily.left_hours", { h, m }) : t("daily.left_minutes", { m });
}
