// A disclosure: a button that shows and hides the panel it controls (aria-controls), for the
// menus of a narrow screen (the header's links, the play page's other actions). The button's
// aria-expanded is the one state: the style sheets show the panel from it
// (`[aria-expanded="true"] + panel`), and on a wide screen they show the panel anyway and
// hide the button. Enter or Space on the button opens and closes it (it is a button);
// Escape, a click elsewhere or the focus leaving both closes it; Escape gives the focus back
// to the button.

export function disclosure(button) {
  const panel = document.getElementById(button.getAttribute("aria-controls"));
  if (!panel) return null;
  const open = () => button.getAttribute("aria-expanded") === "true";
  const set = (value) => button.setAttribute("aria-expanded", value ? "true" : "false");
  button.addEventListener("click", () => set(!open()));
  // A click on one of the panel's actions (a button or a link) closes it; its own fields
  // (a check box, a number) keep it open.
  panel.addEventListener("click", (e) => {
    if (e.target.closest("button, a")) set(false);
  });
  const onKey = (e) => {
    if (e.key === "Escape" && open()) {
      set(false);
      button.focus();
      e.stopPropagation();
    }
  };
  button.addEventListener("keydown", onKey);
  panel.addEventListener("keydown", onKey);
  document.addEventListener("pointerdown", (e) => {
    if (open() && !button.contains(e.target) && !panel.contains(e.target)) set(false);
  });
  const onFocusOut = (e) => {
    const next = e.relatedTarget;
    if (open() && next && !button.contains(next) && !panel.contains(next)) set(false);
  };
  button.addEventListener("focusout", onFocusOut);
  panel.addEventListener("focusout", onFocusOut);
  return { open, close: () => set(false) };
}
