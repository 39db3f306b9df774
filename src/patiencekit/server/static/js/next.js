// Where to go after signing in or up: the page's `next` parameter if it is a path of this
// site, else "/". The server refuses the same (pages.safe_next); this is the page's own check.
//
// A browser drops tabs and newlines from a URL and reads "\" as "/", so "/\t/host" and
// "/\host" lead to another site just as "//host" does: a path must start with one "/" and
// hold no control character and no backslash at all, and must still be on this site once
// the browser has read it.
export function safeNext(value) {
  if (typeof value !== "string" || !value.startsWith("/") || value.startsWith("//")) return "/";
  if (/[\u0000-\u001f\u007f\\]/.test(value)) return "/";
  let url;
  try {
    url = new URL(value, window.location.origin);
  } catch {
    return "/";
  }
  if (url.origin !== window.location.origin) return "/";
  return url.pathname + url.search + url.hash;
}

// The `next` parameter of this page's address, made safe.
export function nextUrl() {
  return safeNext(new URLSearchParams(window.location.search).get("next"));
}
