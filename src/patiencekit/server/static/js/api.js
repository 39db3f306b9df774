// The JSON API of docs/api.md, wrapped: every state-changing request carries the CSRF header
// (the value of the pk_csrf cookie), and every refusal becomes an ApiError carrying the
// server's own message for the player (in the page's language: the server reads the same
// pk_lang cookie and Accept-Language as for the page).

import { t } from "./i18n.js";

export class ApiError extends Error {
  constructor(status, code, message) {
    super(message);
    this.name = "ApiError";
    this.status = status;
    this.code = code;
  }
}

export function readCookie(name) {
  for (const part of document.cookie.split(";")) {
    const eq = part.indexOf("=");
    if (eq < 0) continue;
    if (part.slice(0, eq).trim() === name) return decodeURIComponent(part.slice(eq + 1).trim());
  }
  return null;
}

let sessionCsrf = null;

async function csrfToken() {
  const fromCookie = readCookie("pk_csrf");
  if (fromCookie) return fromCookie;
  if (sessionCsrf) return sessionCsrf;
  // No cookie yet (e.g. the page came from a cache): GET /api/session sets it.
  const s = await request("GET", "/api/session");
  sessionCsrf = readCookie("pk_csrf") || (s && s.csrf) || "";
  return sessionCsrf;
}

// Deal numbers go up to 10^20 - 1, beyond JavaScript's exact integers, so they travel as
// digit strings and are spliced into the JSON text unquoted.
function encodeBody(body) {
  if (body === undefined) return undefined;
  const big = {};
  const json = JSON.stringify(body, (key, value) => {
    if (value && typeof value === "object" && value.__bigint) {
      const marker = `@@big${Object.keys(big).length}@@`;
      big[marker] = value.digits;
      return marker;
    }
    return value;
  });
  return json.replace(/"(@@big\d+@@)"/g, (_, marker) => big[marker]);
}

export function bigInt(digits) {
  return { __bigint: true, digits: String(digits) };
}

export async function request(method, path, body) {
  const headers = { Accept: "application/json" };
  if (body !== undefined) headers["Content-Type"] = "application/json";
  if (method !== "GET" && method !== "HEAD") headers["X-CSRF-Token"] = await csrfToken();
  let response;
  try {
    response = await fetch(path, {
      method,
      headers,
      body: encodeBody(body),
      credentials: "same-origin",
      cache: "no-store",
    });
  } catch (e) {
    throw new ApiError(0, "network", t("error.network"));
  }
  const text = await response.text();
  let data = null;
  if (text) {
    try {
      data = JSON.parse(text);
    } catch (e) {
      data = null;
    }
  }
  if (!response.ok) {
    const err = data && data.error;
    throw new ApiError(
      response.status,
      (err && err.code) || `http_${response.status}`,
      (err && err.message) || t("error.http", { status: response.status, text: response.statusText }),
    );
  }
  if (data && typeof data === "object" && !Array.isArray(data) && "number" in data) {
    // Keep the exact digits of a play's deal number.
    const m = /"number"\s*:\s*(\d+)/.exec(text);
    if (m) data.number_text = m[1];
  }
  return data;
}

const enc = encodeURIComponent;

export const api = {
  session: () => request("GET", "/api/session"),
  games: () => request("GET", "/api/games"),
  signup: (name, password) => request("POST", "/api/auth/signup", { name, password }),
  signin: (name, password) => request("POST", "/api/auth/signin", { name, password }),
  signout: () => request("POST", "/api/auth/signout", {}),
  // number: null for a random deal, or a string of digits
  createPlay: (game, number, ranked = false, winnable = false) =>
    request("POST", `/api/games/${enc(game)}/play`, {
      number: number === null || number === undefined ? null : bigInt(number),
      ranked,
      winnable: winnable && (number === null || number === undefined),
    }),
  // A ranked deal is drawn by the server (never a number); giveUp ends the player's open
  // ranked game of the variant first, as given up (it counts).
  createRanked: (game, giveUp = false) =>
    request("POST", `/api/games/${enc(game)}/play`, { ranked: true, give_up: giveUp }),
  hint: (id) => request("POST", `/api/plays/${enc(id)}/hint`, {}),
  getPlay: (id) => request("GET", `/api/plays/${enc(id)}`),
  move: (id, move, n) => request("POST", `/api/plays/${enc(id)}/moves`, { move, n }),
  foundation: (id, pile, n) => request("POST", `/api/plays/${enc(id)}/foundation`, { pile, n }),
  undo: (id, n) => request("POST", `/api/plays/${enc(id)}/undo`, { n }),
  redo: (id, n) => request("POST", `/api/plays/${enc(id)}/redo`, { n }),
  restart: (id, n) => request("POST", `/api/plays/${enc(id)}/restart`, { n }),
  // The won play, and the moves played to win it (`autocompleted`); 409 no_autocomplete
  // while the player's view does not prove a win.
  autocomplete: (id, n) => request("POST", `/api/plays/${enc(id)}/autocomplete`, { n }),
  stats: (name) => request("GET", `/api/stats/${enc(name)}`),
};

// A new ranked game of `game`. While one is open the server refuses (ranked_open): the player
// is asked (`ask(message)`, true to go on) whether to give it up, which counts it; null if not.
export async function startRanked(game, ask) {
  try {
    return await api.createRanked(game);
  } catch (e) {
    if (!(e instanceof ApiError) || e.code !== "ranked_open") throw e;
    const question = `${e.message}\n\n${t("ranked.give_up_ask")}`;
    return ask(question) ? api.createRanked(game, true) : null;
  }
}
