// Charts drawn as inline SVG by the page itself (no library): a line through points, or bars.
//
// chart(spec) makes a <figure class="chart" data-chart="id">: its caption (the title), an
// <svg role="img"> named by its <title> and <desc> (what the chart shows, in words), and a
// table of the same numbers in a <details> (the text alternative). Every point or bar is an
// element of its own (class "point" or "bar", data-n its place) with a <title> of its value.
// Colours are the theme's (css/stats.css: var(--accent), var(--line), ...), so the charts
// follow the light and dark themes; a point that is not a win is drawn hollow, so the chart
// does not say it by colour alone, and a legend under the picture says which is which (its
// marks are "key", not "point"). The caller gives every word (already translated).

const NS = "http://www.w3.org/2000/svg";
const WIDTH = 320;
const HEIGHT = 170;
const PAD = { left: 44, right: 10, top: 10, bottom: 30 };

let charts = 0;

function svg(tag, attrs = {}, ...children) {
  const node = document.createElementNS(NS, tag);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, String(v));
  for (const c of children) node.append(c);
  return node;
}

function html(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (k === "class") node.className = v;
    else node.setAttribute(k, String(v));
  }
  for (const c of children) node.append(c);
  return node;
}

/** A round top for an axis that starts at 0 and goes to at least `max` (1, 2, 5 × 10^k). */
export function niceMax(max) {
  if (!(max > 0)) return 1;
  const step = 10 ** Math.floor(Math.log10(max));
  for (const k of [1, 2, 5, 10]) if (k * step >= max) return k * step;
  return 10 * step;
}

/** Where the points go: x along the plays' places (`x` of each point), y from 0 to `top`. */
export function scale(points, top) {
  const inner = { w: WIDTH - PAD.left - PAD.right, h: HEIGHT - PAD.top - PAD.bottom };
  const xs = points.map((p) => p.x);
  const lo = Math.min(...xs);
  const hi = Math.max(...xs);
  const x = (v) => PAD.left + (hi === lo ? inner.w / 2 : ((v - lo) / (hi - lo)) * inner.w);
  const y = (v) => PAD.top + inner.h - (Math.max(0, Math.min(v, top)) / top) * inner.h;
  return { x, y, inner, lo, hi };
}

/**
 * spec: {
 *   id: "rate",                 the chart's name (data-chart)
 *   kind: "line" | "bars",
 *   title, desc,                its words: the caption and title, and the description
 *   points: [{ x, y, label, value, hollow, mark }], in order (x: the play's place; label: the
 *                               table's first cells, an array; value: y in words; hollow: not a
 *                               win; mark: a bar to set apart, such as the best streak)
 *   top,                        the y axis' top (niceMax of the values when not given)
 *   ticks: [values],            the y axis' lines (0, top / 2, top when not given)
 *   format: (v) => text,        a y value in words (the axis)
 *   xTitle,                     the x axis' words
 *   table: { summary, heads }   the text alternative: the <details> summary and the table's heads
 *   legend: [{ text, hollow }]  the marks' words: a filled point, a hollow one (none when not given)
 * }
 */
export function chart(spec) {
  charts += 1;
  const base = `chart-${spec.id}-${charts}`;
  const points = spec.points;
  const top = spec.top ?? niceMax(Math.max(0, ...points.map((p) => p.y)));
  const ticks = spec.ticks ?? [0, top / 2, top];
  const format = spec.format ?? String;
  const { x, y, inner, lo, hi } = scale(points.length ? points : [{ x: 0 }], top);

  const title = svg("title", { id: `${base}-title` });
  title.textContent = spec.title;
  const desc = svg("desc", { id: `${base}-desc` });
  desc.textContent = spec.desc;
  const picture = svg("svg", {
    viewBox: `0 0 ${WIDTH} ${HEIGHT}`,
    role: "img",
    "aria-labelledby": `${base}-title ${base}-desc`,
    class: `chart-svg ${spec.kind}`,
  }, title, desc);

  const grid = svg("g", { class: "grid", "aria-hidden": "true" });
  for (const v of ticks) {
    const at = y(v);
    grid.append(svg("line", { x1: PAD.left, x2: WIDTH - PAD.right, y1: at, y2: at }));
    const label = svg("text", { x: PAD.left - 5, y: at + 3.5, "text-anchor": "end", class: "tick" });
    label.textContent = format(v);
    grid.append(label);
  }
  for (const [v, anchor] of lo === hi ? [[lo, "middle"]] : [[lo, "start"], [hi, "end"]]) {
    const label = svg("text", { x: x(v), y: HEIGHT - PAD.bottom + 13, "text-anchor": anchor, class: "tick" });
    label.textContent = String(v);
    grid.append(label);
  }
  const axis = svg("text", { x: PAD.left + inner.w / 2, y: HEIGHT - 3, "text-anchor": "middle", class: "axis" });
  axis.textContent = spec.xTitle || "";
  grid.append(axis);
  picture.append(grid);

  const series = svg("g", { class: "series" });
  if (spec.kind === "bars") {
    const slot = inner.w / Math.max(1, hi - lo + 1);
    const width = Math.max(1, Math.min(18, slot * 0.7));
    for (const p of points) {
      const h = PAD.top + inner.h - y(p.y);
      const bar = svg("rect", {
        class: p.mark ? "bar mark" : "bar",
        "data-n": p.x,
        x: (lo === hi ? x(p.x) : PAD.left + (p.x - lo + 0.5) * slot) - width / 2,
        y: y(p.y),
        width,
        height: Math.max(h, p.y > 0 ? 1 : 0),
      });
      const tip = svg("title");
      tip.textContent = `${p.label.join(", ")}: ${p.value}`;
      bar.append(tip);
      series.append(bar);
    }
  } else {
    if (points.length > 1) {
      const d = points.map((p, i) => `${i ? "L" : "M"}${x(p.x).toFixed(1)},${y(p.y).toFixed(1)}`).join(" ");
      series.append(svg("path", { class: "line", d, "aria-hidden": "true" }));
    }
    for (const p of points) {
      const dot = svg("circle", {
        class: p.hollow ? "point hollow" : "point",
        "data-n": p.x,
        cx: x(p.x).toFixed(1),
        cy: y(p.y).toFixed(1),
        r: points.length > 60 ? 2 : 3.2,
      });
      const tip = svg("title");
      tip.textContent = `${p.label.join(", ")}: ${p.value}`;
      dot.append(tip);
      series.append(dot);
    }
  }
  picture.append(series);

  const table = html("table", { class: "board-table chart-table" });
  const head = html("tr");
  for (const h of spec.table.heads) head.append(html("th", { scope: "col" }, h));
  table.append(html("thead", {}, head));
  const body = html("tbody");
  for (const p of points) {
    const row = html("tr", { "data-n": p.x });
    p.label.forEach((cell, i) => row.append(html(i ? "td" : "th", i ? {} : { scope: "row" }, String(cell))));
    row.append(html("td", { class: "num" }, p.value));
    body.append(row);
  }
  table.append(body);
  const details = html("details", { class: "chart-numbers" }, html("summary", {}, spec.table.summary), table);

  const caption = html("figcaption", { id: `${base}-caption` }, spec.title);
  const parts = [caption, picture];
  if (spec.legend && spec.legend.length) parts.push(legend(spec.legend));
  parts.push(details);
  return html("figure", { class: "chart", "data-chart": spec.id }, ...parts);
}

// The legend: each mark as the chart draws it, then its words.
function legend(items) {
  const list = html("ul", { class: "chart-legend" });
  for (const item of items) {
    const mark = svg(
      "svg",
      { viewBox: "0 0 12 12", width: 12, height: 12, "aria-hidden": "true", class: "chart-key" },
      svg("circle", { class: item.hollow ? "key hollow" : "key", cx: 6, cy: 6, r: 4 }),
    );
    list.append(html("li", { "data-hollow": item.hollow ? "true" : "false" }, mark, item.text));
  }
  return list;
}
