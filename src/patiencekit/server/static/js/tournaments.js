// The tournaments: open ones to join, running and finished ones to look at, a form to start one.
// /tournaments[?game={id}][&status=open]; the games with tournaments are the ranked ones of
// GET /api/games.

import { ApiError } from "./api.js";
import { initHeader, el } from "./common.js";
import { compApi, statusWord } from "./competition-api.js";
import { games, shortName } from "./games.js";
import { formatDateTime, t as tr } from "./i18n.js";

const $ = (id) => document.getElementById(id);
const params = new URLSearchParams(window.location.search);
const filter = { game: params.get("game"), status: params.get("status") };
let signedIn = false;
let listed = []; // GET /api/games

function statusText(t) {
  if (t.status === "open") return tr("tournaments.open_missing", { count: t.size - t.entrants_count });
  return statusWord(t.status);
}

function fillForm() {
  const game = $("new-game");
  for (const g of listed.filter((x) => x.ranked)) game.append(el("option", { value: g.id }, g.name));
  const size = $("new-size");
  for (let n = 2; n <= 10; n++) {
    const o = el("option", { value: String(n) }, String(n));
    if (n === 4) o.selected = true;
    size.append(o);
  }
  $("new-form").addEventListener("submit", async (e) => {
    e.preventDefault();
    $("error").textContent = "";
    try {
      const t = await compApi.create(game.value, Number(size.value));
      window.location.href = `/tournaments/${t.id}`;
    } catch (err) {
      if (!(err instanceof ApiError)) throw err;
      $("error").textContent = err.message;
    }
  });
}

function fillFilters() {
  const nav = $("filters");
  const link = (label, game, status) => {
    const q = new URLSearchParams();
    if (game) q.set("game", game);
    if (status) q.set("status", status);
    const href = `/tournaments${q.toString() ? `?${q}` : ""}`;
    const a = el("a", { href }, label);
    if ((filter.game || null) === game && (filter.status || null) === status) a.setAttribute("aria-current", "page");
    nav.append(a);
  };
  link(tr("tournaments.all"), null, null);
  link(tr("tournaments.filter_open"), null, "open");
  link(tr("tournaments.filter_running"), null, "running");
  link(tr("tournaments.filter_finished"), null, "finished");
  for (const g of listed.filter((x) => x.ranked)) link(g.short_name, g.id, null);
}

async function join(t, button) {
  button.disabled = true;
  try {
    await compApi.join(t.id);
    window.location.href = `/tournaments/${t.id}`;
  } catch (err) {
    if (!(err instanceof ApiError)) throw err;
    $("error").textContent = err.message;
    button.disabled = false;
  }
}

async function load() {
  const body = document.querySelector("#list tbody");
  try {
    const items = await compApi.tournaments(filter.game, filter.status);
    body.innerHTML = "";
    if (!items.length) {
      const td = el("td", {}, tr("tournaments.none"));
      td.colSpan = 6;
      body.append(el("tr", {}, td));
    }
    for (const t of items) {
      const actions = el("td", {});
      const view = el("a", { href: `/tournaments/${t.id}` }, t.joined ? tr("tournaments.open") : tr("tournaments.view"));
      actions.append(view);
      if (t.status === "open" && signedIn && !t.joined) {
        const b = el("button", { type: "button", class: "primary join" }, tr("tournaments.join"));
        b.addEventListener("click", () => join(t, b));
        actions.append(" ", b);
      }
      const row = el(
        "tr",
        { "data-id": String(t.id) },
        el("td", {}, el("a", { href: `/tournaments/${t.id}` }, `#${t.id}`)),
        el("td", {}, shortName(listed, t.game)),
        el("td", {}, el("span", { class: `status ${t.status}` }, statusText(t))),
        el("td", { class: "num" }, `${t.entrants_count} / ${t.size}`),
        el("td", {}, formatDateTime(t.started_at)),
        actions,
      );
      body.append(row);
    }
  } catch (err) {
    if (!(err instanceof ApiError)) throw err;
    $("error").textContent = err.message;
  }
}

async function main() {
  try {
    listed = await games();
  } catch (err) {
    if (!(err instanceof ApiError)) throw err;
    $("error").textContent = err.message;
  }
  fillForm();
  fillFilters();
  const session = await initHeader();
  const user = session && session.user;
  signedIn = !!(user && !user.guest);
  $("new-form").hidden = !signedIn;
  $("new-signin").hidden = signedIn;
  await load();
}

main();
