// The competition's part of the JSON API (docs/api.md, "Tournaments and the Top 100"): the
// same request() as every page, so the CSRF header and the server's refusals work as in api.js.

import { request } from "./api.js";

const enc = encodeURIComponent;

export const VARIANTS = [
  { id: "klondike", name: "Solitaire", long: "Solitaire (Klondike, draw 3)" },
  { id: "klondike-draw1", name: "Solitaire Simple", long: "Solitaire Simple (Klondike, draw 1)" },
];

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
  replay: (id, name, round, step = null) =>
    request(
      "GET",
      `/api/tournaments/${enc(id)}/replays/${enc(name)}/${enc(round)}${step === null ? "" : `?step=${enc(step)}`}`,
    ),
  // Give up a ranked play: it ends with its running score (no time bonus).
  finish: (playId, n) => request("POST", `/api/plays/${enc(playId)}/finish`, { n }),
  top100: (game, player = null) =>
    request("GET", `/api/top100/${enc(game)}${player ? `?player=${enc(player)}` : ""}`),
  player: (name) => request("GET", `/api/players/${enc(name)}`),
};

// "no cups" / "no medals" where every count is 0, as on the seed's Top 100; else the counts
// by place, each with its place in words for screen readers and as a tooltip.
const ORDINALS = ["1st", "2nd", "3rd", "4th", "5th"];

export function countsCell(counts, what) {
  const cell = document.createElement("span");
  cell.className = `counts ${what}`;
  if (!counts || counts.every((n) => !n)) {
    cell.textContent = what === "cups" ? "no cups" : "no medals";
    cell.classList.add("none");
    return cell;
  }
  counts.forEach((n, i) => {
    const badge = document.createElement("span");
    badge.className = `badge place-${i + 1}`;
    badge.textContent = String(n);
    const label = `${n} × ${ORDINALS[i]} place ${what === "cups" ? "cup" : "medal"}${n === 1 ? "" : "s"}`;
    badge.title = label;
    badge.setAttribute("aria-label", label);
    cell.append(badge);
  });
  return cell;
}

export function formatPoints(points) {
  return Number(points || 0).toLocaleString("en-US");
}

export function placeText(place) {
  if (place === null || place === undefined) return "–";
  const s = ["th", "st", "nd", "rd"];
  const v = place % 100;
  return `${place}${s[(v - 20) % 10] || s[v] || s[0]}`;
}

export function variantName(id) {
  const v = VARIANTS.find((x) => x.id === id);
  return v ? v.name : id;
}
