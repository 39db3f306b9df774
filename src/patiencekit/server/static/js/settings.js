// The board's settings, remembered in this browser (localStorage), and their dialog:
//   - the card back ("pk-back") and the felt ("pk-felt"), drawn in CSS (css/settings.css);
//   - the left-handed layout ("pk-hand" = "left"): the board mirrored, the stock and the
//     foundations on the other side (layout.js);
//   - the animation speed ("pk-speed": off, normal, fast); without a choice of the player's
//     the system decides: motion is off when it asks for reduced motion, normal otherwise;
//   - sound ("pk-sound" = "on"; off until the player turns it on: sound.js).
// js/settings-init.js applies the looks to <html> (data-back, data-felt, data-hand,
// data-motion) before the first paint; this module keeps them applied when they change and
// tells the board (the "pk-settings" event on window, onSettingsChange).
//
// The dialog is a native <dialog> (modal: the focus stays in it, Escape closes it), made
// here on first use and opened by the board's settings button (wireSettings).

import { t } from "./i18n.js";

export const BACKS = ["blue", "red", "green", "charcoal"];
export const FELTS = ["green", "blue", "red", "grey"];
export const SPEEDS = ["off", "normal", "fast"];

// How long motion takes at each speed, as a share of the normal one (0: none).
const SCALE = { off: 0, normal: 1, fast: 0.55 };

const STORE = { back: "pk-back", felt: "pk-felt", hand: "pk-hand", speed: "pk-speed", sound: "pk-sound" };
const DEFAULTS = { back: "blue", felt: "green", hand: "right", speed: null, sound: "off" };
const ALLOWED = { back: BACKS, felt: FELTS, hand: ["right", "left"], speed: SPEEDS, sound: ["on", "off"] };

function read(key) {
  try {
    return window.localStorage.getItem(key);
  } catch (e) {
    return null; // storage refused (a private window): the defaults
  }
}

function write(key, value) {
  try {
    if (value === null) window.localStorage.removeItem(key);
    else window.localStorage.setItem(key, value);
  } catch (e) {
    // not remembered, but applied for this page
  }
}

/** A setting's value (back, felt, hand, speed, sound); speed is null while the player has not
 * chosen one (see motionSpeed). */
export function setting(name) {
  const value = read(STORE[name]);
  return ALLOWED[name].includes(value) ? value : DEFAULTS[name];
}

function reducedMotion() {
  return !!(window.matchMedia && window.matchMedia("(prefers-reduced-motion: reduce)").matches);
}

/** The speed motion runs at: the player's choice, else off under reduced motion, else normal. */
export function motionSpeed() {
  return setting("speed") || (reducedMotion() ? "off" : "normal");
}

/** How long motion takes, as a share of the normal duration (0: no motion at all). */
export function motionScale() {
  return SCALE[motionSpeed()];
}

/** Whether the player turned sound on. */
export function soundOn() {
  return setting("sound") === "on";
}

/** Whether the board is drawn for the left-handed. */
export function leftHanded() {
  return setting("hand") === "left";
}

/** The looks on <html>, as js/settings-init.js sets them before the first paint. */
export function applySettings() {
  const root = document.documentElement;
  root.dataset.back = setting("back");
  root.dataset.felt = setting("felt");
  root.dataset.hand = setting("hand");
  root.dataset.motion = motionSpeed();
}

/** Stores a setting, applies it and tells whoever listens (onSettingsChange). */
export function changeSetting(name, value) {
  if (name === "speed" ? value !== null && !SPEEDS.includes(value) : !ALLOWED[name].includes(value)) {
    throw new RangeError(`no ${name} ${value}`);
  }
  write(STORE[name], value);
  applySettings();
  window.dispatchEvent(new CustomEvent("pk-settings", { detail: { name, value } }));
}

/** fn({name, value}) on every change of a setting (from this page's dialog, or the system's
 * reduced-motion preference: name "speed"). */
export function onSettingsChange(fn) {
  window.addEventListener("pk-settings", (e) => fn(e.detail));
}

if (window.matchMedia) {
  window.matchMedia("(prefers-reduced-motion: reduce)").addEventListener("change", () => {
    applySettings();
    window.dispatchEvent(new CustomEvent("pk-settings", { detail: { name: "speed", value: setting("speed") } }));
  });
}

// -- the dialog ------------------------------------------------------------------------------

let dialog = null;

/** Whether the settings dialog is open (the board's keys wait meanwhile). */
export function settingsOpen() {
  return !!dialog && dialog.open;
}

function el(tag, attrs = {}, children = []) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (k === "text") node.textContent = v;
    else if (k === "dataset") Object.assign(node.dataset, v);
    else node.setAttribute(k, v);
  }
  for (const child of children) node.append(child);
  return node;
}

// A group of radio buttons, one per value, each with its words (and a sample to see).
function choices(name, legend, values, sample) {
  const set = el("fieldset", { class: `settings-group settings-${name}` }, [el("legend", { text: legend })]);
  const row = el("div", { class: "settings-choices" });
  for (const value of values) {
    const input = el("input", { type: "radio", name: `settings-${name}`, value, "data-testid": `settings-${name}-${value}` });
    const label = el("label", { class: "settings-choice" }, [input]);
    if (sample) label.append(sample(value));
    label.append(el("span", { text: t(`settings.${name}_${value}`) }));
    row.append(label);
  }
  set.append(row);
  return set;
}

function toggle(name, legend, words) {
  const input = el("input", { type: "checkbox", name: `settings-${name}`, "data-testid": `settings-${name}` });
  return el("fieldset", { class: `settings-group settings-${name}` }, [
    el("legend", { text: legend }),
    el("label", { class: "settings-toggle" }, [input, el("span", { text: words })]),
  ]);
}

function build() {
  const d = el("dialog", { class: "settings-dialog", "aria-labelledby": "settings-title", "data-testid": "settings-dialog" });
  const form = el("form", { method: "dialog" });
  form.append(el("h2", { id: "settings-title", text: t("settings.title") }));
  form.append(
    choices("back", t("settings.back"), BACKS, (v) => el("span", { class: "settings-sample", dataset: { back: v } }, [
      el("span", { class: "card back", "aria-hidden": "true" }),
    ])),
  );
  form.append(
    choices("felt", t("settings.felt"), FELTS, (v) => el("span", { class: "settings-sample felt-sample", dataset: { felt: v }, "aria-hidden": "true" })),
  );
  form.append(toggle("hand", t("settings.layout"), t("settings.left_handed")));
  const motion = choices("speed", t("settings.speed"), SPEEDS, null);
  motion.append(el("p", { class: "settings-note", id: "settings-reduced", text: t("settings.speed_reduced") }));
  form.append(motion);
  form.append(toggle("sound", t("settings.sound"), t("settings.sound_on")));
  form.append(el("div", { class: "settings-actions" }, [
    el("button", { type: "submit", class: "primary", value: "done", "data-testid": "settings-done", text: t("settings.done") }),
  ]));
  d.append(form);

  // Tab goes round the dialog's controls (a group of choices is one stop: its chosen one).
  d.addEventListener("keydown", (e) => {
    if (e.key !== "Tab") return;
    const stops = [...d.querySelectorAll("input, button")].filter(
      (x) => !x.disabled && (x.type !== "radio" || x.checked),
    );
    const i = stops.indexOf(document.activeElement);
    const next = e.shiftKey ? (i <= 0 ? stops.length - 1 : i - 1) : (i + 1) % stops.length;
    stops[next].focus();
    e.preventDefault();
  });

  form.addEventListener("change", (e) => {
    const input = e.target;
    const name = input.name.replace(/^settings-/, "");
    if (name === "hand") changeSetting("hand", input.checked ? "left" : "right");
    else if (name === "sound") changeSetting("sound", input.checked ? "on" : "off");
    else changeSetting(name, input.value);
    show(d);
  });
  document.body.append(d);
  return d;
}

// The dialog's controls as the settings are now.
function show(d) {
  for (const name of ["back", "felt"]) {
    const value = setting(name);
    for (const input of d.querySelectorAll(`input[name="settings-${name}"]`)) input.checked = input.value === value;
  }
  const speed = motionSpeed();
  for (const input of d.querySelectorAll('input[name="settings-speed"]')) input.checked = input.value === speed;
  d.querySelector("#settings-reduced").hidden = !(reducedMotion() && setting("speed") === null);
  d.querySelector('input[name="settings-hand"]').checked = leftHanded();
  d.querySelector('input[name="settings-sound"]').checked = soundOn();
}

/** Opens the settings dialog (focus on its first choice; back to `opener` when it closes). */
export function openSettings(opener = null) {
  if (!dialog) dialog = build();
  if (dialog.open) return;
  show(dialog);
  dialog.showModal();
  const first = dialog.querySelector("input:checked") || dialog.querySelector("input");
  if (first) first.focus();
  dialog.addEventListener(
    "close",
    () => {
      if (opener && opener.isConnected) opener.focus();
    },
    { once: true },
  );
}

/** The board's settings button (its markup is the page's: an icon and a label). */
export function wireSettings(button) {
  if (!button) return;
  button.setAttribute("aria-haspopup", "dialog");
  button.addEventListener("click", () => openSettings(button));
}

applySettings();
