// The page's language: its words (the pages' catalogue, /static/i18n/<lang>.json, the same
// one the server translated the page's HTML with), and numbers and dates in the reader's
// convention (Intl).
//
// The language is the page's own (<html lang>, chosen by the server: ?lang=, the pk_lang
// cookie, then the browser's Accept-Language). A catalogue is flat: key -> text, with {name}
// placeholders; a text with a count is an object of plural forms ({"one": ..., "other": ...},
// Intl.PluralRules' categories, "other" always there). t(key, params) says a key.

const FALLBACK = "en";

/** The page's language: "en", "nl" or "es". */
export const lang = (document.documentElement.lang || FALLBACK).toLowerCase();

/** The reader's locale for numbers and dates: their browser's own variant of the page's
 * language (nl-BE, es-MX) when it has one, else the language itself. */
export const locale =
  (navigator.languages || [navigator.language || ""]).find(
    (l) => l && l.toLowerCase().split("-")[0] === lang,
  ) || lang;

async function load(language) {
  try {
    const r = await fetch(`/static/i18n/${encodeURIComponent(language)}.json`, { credentials: "same-origin" });
    if (r.ok) return await r.json();
  } catch (e) {
    // the words are shown by their keys (and in English where that catalogue is reachable)
  }
  return null;
}

const own = await load(lang);
const english = lang === FALLBACK ? own : await load(FALLBACK);
const messages = own || english || {};
const fallback = english || {};

const cardinal = new Intl.PluralRules(locale);
const ordinalRules = new Intl.PluralRules(locale, { type: "ordinal" });

function fill(text, params) {
  return String(text).replace(/\{(\w+)\}/g, (whole, name) =>
    Object.hasOwn(params, name) && params[name] !== undefined && params[name] !== null ? String(params[name]) : whole,
  );
}

function pick(value, count, rules) {
  if (value === null || typeof value !== "object") return value;
  const n = Number(count);
  const category = Number.isFinite(n) ? rules.select(n) : "other";
  return value[category] ?? value.other;
}

function lookup(key) {
  if (Object.hasOwn(messages, key)) return messages[key];
  if (Object.hasOwn(fallback, key)) return fallback[key];
  return undefined;
}

/** The text of `key` in the page's language, its {placeholders} filled from `params`; a key
 * with plural forms takes the form for `params.count`. A key no catalogue has is shown as
 * it is (a test checks that every key used is in every catalogue). */
export function t(key, params = {}) {
  const value = lookup(key);
  if (value === undefined) return key;
  return fill(pick(value, params.count, cardinal), params);
}

/** Whether the catalogue has `key`. */
export function has(key) {
  return lookup(key) !== undefined;
}

/** A place as an ordinal: "1st" / "1e" / "1.º". */
export function ordinal(n) {
  const value = lookup("place.ordinal");
  if (value === undefined) return String(n);
  return fill(pick(value, n, ordinalRules), { n: String(n) });
}

/** A number in the reader's convention (9,605 / 9.605 / 9605). */
export function formatNumber(n, options = {}) {
  const x = Number(n);
  if (!Number.isFinite(x)) return "\u2013";
  return x.toLocaleString(locale, options);
}

/** A rate from 0 to 1 as a percentage (one decimal below 10 %). */
export function formatPercent(rate) {
  const r = Number(rate);
  if (Number.isNaN(r)) return "\u2013";
  const p = r <= 1 ? r : r / 100;
  const digits = p * 100 < 10 && p > 0 ? 1 : 0;
  return p.toLocaleString(locale, { style: "percent", minimumFractionDigits: digits, maximumFractionDigits: digits });
}

/** A moment (seconds since the epoch) as a date and time; "–" for none. */
export function formatDateTime(seconds) {
  if (!seconds) return "\u2013";
  return new Date(seconds * 1000).toLocaleString(locale, { dateStyle: "medium", timeStyle: "short" });
}

/** A moment (seconds since the epoch) as a date; "–" for none. */
export function formatDate(seconds) {
  if (!seconds) return "\u2013";
  return new Date(seconds * 1000).toLocaleDateString(locale);
}

/** A UTC day ("2024-05-01") as a date in the reader's convention. */
export function formatDay(day) {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(String(day || ""));
  if (!m) return String(day ?? "\u2013");
  const date = new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])));
  return date.toLocaleDateString(locale, { dateStyle: "medium", timeZone: "UTC" });
}

// -- the language menu -------------------------------------------------------------------------

/** This page's address in another language (?lang=xx kept with the rest of the query). */
export function addressIn(language, where = window.location) {
  const url = new URL(where.href);
  url.searchParams.set("lang", language);
  return url.pathname + url.search + url.hash;
}

function wireMenu() {
  const menu = document.getElementById("lang-menu");
  if (!menu) return;
  for (const a of menu.querySelectorAll("a[data-lang]")) {
    a.addEventListener("click", (e) => {
      if (e.button !== 0 || e.ctrlKey || e.metaKey || e.shiftKey || e.altKey) return;
      e.preventDefault();
      // The address as it is now (a play page has moved to /p/{id} since it loaded).
      window.location.assign(addressIn(a.dataset.lang));
    });
  }
  menu.addEventListener("keydown", (e) => {
    if (e.key === "Escape" && menu.open) {
      menu.open = false;
      menu.querySelector("summary").focus();
    }
  });
  document.addEventListener("click", (e) => {
    if (menu.open && !menu.contains(e.target)) menu.open = false;
  });
}

// The choice is remembered (the server set pk_lang): ?lang= leaves the address bar, so that a
// shared or reloaded address does not carry it.
function forgetAsked() {
  const url = new URL(window.location.href);
  if (!url.searchParams.has("lang")) return;
  url.searchParams.delete("lang");
  window.history.replaceState(window.history.state, "", url.pathname + url.search + url.hash);
}

wireMenu();
forgetAsked();
