// Runs before a board page paints (a classic script, not a module), as theme-init.js does for
// the theme: the board's looks chosen in its settings (js/settings.js, which owns them and
// their names) go on <html> at once, so the felt, the card backs and the motion never flash
// from the defaults.
(function () {
  var root = document.documentElement;
  function read(key, allowed, fallback) {
    var value = null;
    try {
      value = window.localStorage.getItem(key);
    } catch (e) {
      value = null;
    }
    return allowed.indexOf(value) >= 0 ? value : fallback;
  }
  var reduced = !!(window.matchMedia && window.matchMedia("(prefers-reduced-motion: reduce)").matches);
  root.setAttribute("data-back", read("pk-back", ["blue", "red", "green", "charcoal"], "blue"));
  root.setAttribute("data-felt", read("pk-felt", ["green", "blue", "red", "grey"], "green"));
  root.setAttribute("data-hand", read("pk-hand", ["right", "left"], "right"));
  root.setAttribute("data-motion", read("pk-speed", ["off", "normal", "fast"], reduced ? "off" : "normal"));
})();
