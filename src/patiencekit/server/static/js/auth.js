// Sign in and sign up forms.

import { api } from "./api.js";
import { initHeader } from "./common.js";
import { t } from "./i18n.js";
import { nextUrl } from "./next.js";

async function main() {
  initHeader();
  const form = document.getElementById("auth-form");
  const kind = form.dataset.kind;
  const error = document.getElementById("error");
  const other = document.getElementById("other");
  const next = nextUrl();
  if (other && next !== "/") other.href += `?next=${encodeURIComponent(next)}`;
  form.addEventListener("submit", async (e) => {
    e.preventDefault();
    error.textContent = "";
    const name = form.elements.name.value.trim();
    const password = form.elements.password.value;
    if (!/^[A-Za-z0-9_-]{3,32}$/.test(name)) {
      error.textContent = t("auth.name_wrong");
      form.elements.name.focus();
      return;
    }
    if (password.length < 8) {
      error.textContent = t("auth.password_short");
      form.elements.password.focus();
      return;
    }
    const button = form.querySelector("button[type=submit]");
    button.disabled = true;
    try {
      if (kind === "signup") await api.signup(name, password);
      else await api.signin(name, password);
      window.location.href = nextUrl();
    } catch (err) {
      error.textContent = err.message;
      button.disabled = false;
    }
  });
}

main();
