// What every page shares: the header (the site's sections, who is signed in, sign in / up /
// out, the theme switch; the language menu is the server's, wired by i18n.js). On a narrow
// screen the links are behind a "Menu" button (js/disclosure.js). And how a time or a missing
// figure is written.

import { api } from "./api.js";
import { suitMark } from "./cards.js";
import { disclosure } from "./disclosure.js";
import { t } from "./i18n.js";
import { fitTables } from "./tables.js";

const THEME_KEY = "pk-theme";

export function currentTheme() {
  return document.documentElement.getAttribute("data-theme") === "dark" ? "dark" : "light";
}

export function setTheme(theme, store = true) {
  document.documentElement.setAttribute("data-theme", theme);
  if (store) {
    try {
      window.localStorage.setItem(THEME_KEY, theme);
    } catch (e) {
      // private mode: the choice lasts for this page only
    }
  }
  for (const b of document.querySelectorAll("[data-theme-toggle]")) {
    b.setAttribute("aria-pressed", theme === "dark" ? "true" : "false");
    b.querySelector(".theme-word").textContent = theme === "dark" ? t("header.light") : t("header.dark");
  }
}

function storedTheme() {
  try {
    const t = window.localStorage.getItem(THEME_KEY);
    return t === "dark" || t === "light" ? t : null;
  } catch (e) {
    return null;
  }
}

function el(tag, attrs = {}, ...children) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (k === "class") e.className = v;
    else if (k.startsWith("on")) e.addEventListener(k.slice(2), v);
    else e.setAttribute(k, v);
  }
  for (const c of children) e.append(c);
  return e;
}
export { el };

// Fills the header's nav; resolves to the session ({user, csrf}) or null if unknown.
export async function initHeader() {
  fitTables(); // the page's tables, as blocks on a phone
  const nav = document.getElementById("site-nav");
  const brand = document.querySelector(".brand-mark-slot");
  if (brand) brand.innerHTML = suitMark("S", "brand-mark");
  const toggle = el(
    "button",
    { type: "button", class: "icon-button", "data-theme-toggle": "", "aria-pressed": "false", title: t("header.theme_title") },
    el("span", { "aria-hidden": "true" }, "\u25D0 "),
    el("span", { class: "theme-word" }, t("header.dark")),
    el("span", { class: "visually-hidden" }, t("header.theme_suffix")),
  );
  toggle.addEventListener("click", () => setTheme(currentTheme() === "dark" ? "light" : "dark"));
  if (window.matchMedia) {
    window.matchMedia("(prefers-color-scheme: dark)").addEventListener("change", (e) => {
      if (!storedTheme()) setTheme(e.matches ? "dark" : "light", false);
    });
  }
  let session = null;
  try {
    session = await api.session();
  } catch (e) {
    session = null;
  }
  if (nav) {
    nav.innerHTML = "";
    const menu = el(
      "button",
      { type: "button", class: "nav-toggle", "aria-expanded": "false", "aria-controls": "site-nav-links", "data-testid": "nav-toggle" },
      t("layout.menu"),
    );
    const links = el("div", { class: "nav-links", id: "site-nav-links" });
    // The site's sections, the one the page belongs to marked as the current one.
    const path = window.location.pathname;
    const section = (href, cls, words, here) => {
      const a = el("a", { href, class: cls }, words);
      if (here) a.setAttribute("aria-current", "page");
      links.append(a);
    };
    section("/", "nav-games", t("header.games"), path === "/");
    section("/tournaments", "nav-tournaments", t("layout.nav_tournaments"), /^\/tournaments(\/|$)/.test(path));
    section("/top100", "nav-top100", t("layout.nav_top100"), /^\/top100(\/|$)/.test(path));
    const user = session && session.user;
    if (user && !user.guest) {
      links.append(el("a", { href: `/stats/${encodeURIComponent(user.name)}` }, t("header.my_stats")));
      links.append(el("span", { class: "who", "data-testid": "who" }, t("header.signed_in_as"), el("strong", {}, user.name)));
      const out = el("button", { type: "button", class: "link-like" }, t("header.sign_out"));
      out.addEventListener("click", async () => {
        try {
          await api.signout();
        } finally {
          window.location.href = "/";
        }
      });
      links.append(out);
    } else {
      if (user && user.guest) links.append(el("span", { class: "who", "data-testid": "who" }, t("header.guest")));
      const next = encodeURIComponent(window.location.pathname + window.location.search);
      links.append(el("a", { href: `/signin?next=${next}` }, t("signin.heading")));
      links.append(el("a", { href: `/signup?next=${next}` }, t("signup.heading")));
    }
    nav.append(menu, links, toggle);
    disclosure(menu);
  }
  setTheme(currentTheme(), false);
  return session;
}

/** `how(value)`, or a dash where there is no value (null or undefined). */
export function shown(value, how = String) {
  return value === null || value === undefined ? "\u2013" : how(value);
}

export function formatTime(seconds) {
  if (seconds === null || seconds === undefined || Number.isNaN(seconds)) return "\u2013";
  const s = Math.max(0, Math.floor(seconds));
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  const sec = String(s % 60).padStart(2, "0");
  return h ? `${h}:${String(m).padStart(2, "0")}:${sec}` : `${m}:${sec}`;
}
