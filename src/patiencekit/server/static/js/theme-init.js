// Runs before the page paints (a classic script, not a module) so the theme never flashes.
// The choice is stored in localStorage under "pk-theme"; without one the system's preference wins.
(function () {
  var theme = null;
  try {
    theme = window.localStorage.getItem("pk-theme");
  } catch (e) {
    theme = null;
  }
  if (theme !== "dark" && theme !== "light") {
    theme = window.matchMedia && window.matchMedia("(prefers-color-scheme: dark)").matches ? "dark" : "light";
  }
  document.documentElement.setAttribute("data-theme", theme);
})();
