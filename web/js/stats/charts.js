// Small SVG charts, built as DOM nodes (no innerHTML; the CSP allows SVG attributes): a
// line chart (each player's running total by round; the exact-bid trend) and a bar chart
// (the exact-bid rate by hand size).  Each is an <svg role="img"> with a <title>; the
// words and the table a screen reader reads instead come from the caller (chartBlock).
// The geometry is pure (ticks, scale, linePoints, barRects) and tested by node --test.
// Hand-drawn rather than a library: three chart shapes in 8 KB (3 KB gzipped), where the smallest
// charting libraries (uPlot, say) are some 45 KB minified, and none speaks our catalogues.

const SVG = "http://www.w3.org/2000/svg";

/** Round tick values from lo to at least hi: about `count` of them, 1-2-5 steps (whole
 *  numbers only when `integer`). */
export function ticks(lo, hi, count = 4, integer = false) {
  if (!(hi > lo)) return [lo];
  const raw = Math.max((hi - lo) / count, integer ? 1 : 0);
  const mag = 10 ** Math.floor(Math.log10(raw));
  const step = [1, 2, 5, 10].map((m) => m * mag).find((s) => s >= raw);
  const out = [];
  for (let v = Math.floor(lo / step) * step; v < hi + step - 1e-9; v += step) out.push(Math.round(v * 1e9) / 1e9);
  return out;
}

/** A linear map from [d0, d1] onto [r0, r1]. */
export function scale(d0, d1, r0, r1) {
  const span = d1 - d0 || 1;
  return (v) => r0 + ((v - d0) / span) * (r1 - r0);
}

/** Room left of the plot for the y axis' labels (about 6.5 px a character at 11 px). */
export function labelRoom(values, format) {
  return Math.max(38, Math.ceil(14 + 6.5 * Math.max(...values.map((v) => String(format(v)).length))));
}

/** The plot area of a chart `width` x `height` with room for the axes' labels. */
export function plotArea(width, height, { left = 38, right = 10, top = 10, bottom = 26 } = {}) {
  return { x0: left, x1: width - right, y0: height - bottom, y1: top };
}

/** Points of a series `values` (null: a gap) over x = 0..n-1 in `area` for [yMin, yMax]. */
export function linePoints(values, area, yMin, yMax, n = values.length) {
  const x = scale(0, Math.max(1, n - 1), area.x0, area.x1);
  const y = scale(yMin, yMax, area.y0, area.y1);
  return values.map((v, i) => (v === null || v === undefined ? null : { x: x(i), y: y(v) }));
}

/**
 * Points of several lines (`lists`: one list of {x, y}|null per series) with the ties
 * pulled apart: where two or more series are at the same height at the same point (two
 * players with equal totals), each is moved `step` px from the others, the group centred
 * on the true height, so no line runs hidden under another.  A new list; the input is
 * left as it is.
 */
export function separateTies(lists, step = 3) {
  const out = lists.map((pts) => pts.map((p) => (p ? { ...p } : p)));
  const n = Math.max(0, ...lists.map((pts) => pts.length));
  for (let i = 0; i < n; i++) {
    const level = new Map(); // height -> the series there, in order
    lists.forEach((pts, k) => {
      const p = pts[i];
      if (!p) return;
      const key = p.y.toFixed(1);
      if (!level.has(key)) level.set(key, []);
      level.get(key).push(k);
    });
    for (const tied of level.values()) {
      tied.forEach((k, j) => {
        out[k][i].y += (j - (tied.length - 1) / 2) * step;
      });
    }
  }
  return out;
}

/** Bars for `values` (0..yMax) side by side in `area`, each {x, y, w, h}. */
export function barRects(values, area, yMax) {
  const n = Math.max(1, values.length);
  const slot = (area.x1 - area.x0) / n;
  const w = Math.max(2, slot * 0.64);
  const y = scale(0, yMax || 1, area.y0, area.y1);
  return values.map((v, i) => ({ x: area.x0 + slot * i + (slot - w) / 2, y: y(v), w, h: area.y0 - y(v) }));
}

function node(tag, attrs = {}, text) {
  const n = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs)) n.setAttribute(k, String(v));
  if (text !== undefined) n.textContent = text;
  return n;
}

function frame(width, height, title) {
  const svg = node("svg", { viewBox: `0 0 ${width} ${height}`, role: "img", class: "chart", preserveAspectRatio: "xMidYMid meet" });
  svg.append(node("title", {}, title));
  return svg;
}

function yAxis(svg, area, tickValues, yMin, yMax, label) {
  const y = scale(yMin, yMax, area.y0, area.y1);
  for (const v of tickValues) {
    svg.append(node("line", { x1: area.x0, x2: area.x1, y1: y(v), y2: y(v), class: "grid" }));
    // clear of the markers a line starts with on the axis (radius ~4)
    svg.append(node("text", { x: area.x0 - 8, y: y(v) + 4, class: "tick", "text-anchor": "end" }, label(v)));
  }
}

function xLabels(svg, area, labels, at) {
  // at most 13 labels, and no more than fit side by side (~7 px a character, a gap)
  const widest = Math.max(1, ...labels.map((text) => String(text).length));
  const fit = Math.max(2, Math.floor((area.x1 - area.x0) / (widest * 7 + 8)));
  const step = Math.ceil(labels.length / Math.min(13, fit));
  const last = labels.length - 1;
  labels.forEach((text, i) => {
    // every step-th label and the last one, which pushes out a stepped one too close to it
    if (i !== last && (i % step || last - i < step)) return;
    svg.append(node("text", { x: at(i), y: area.y0 + 18, class: "tick", "text-anchor": "middle" }, text));
  });
}

const MARKS = ["circle", "square", "diamond", "triangle", "cross"];

function mark(kind, x, y, r, cls) {
  if (kind === "circle") return node("circle", { cx: x, cy: y, r, class: cls });
  if (kind === "square") return node("rect", { x: x - r, y: y - r, width: 2 * r, height: 2 * r, class: cls });
  const d = {
    diamond: `M${x} ${y - r * 1.3}L${x + r * 1.3} ${y}L${x} ${y + r * 1.3}L${x - r * 1.3} ${y}Z`,
    triangle: `M${x} ${y - r * 1.3}L${x + r * 1.2} ${y + r}L${x - r * 1.2} ${y + r}Z`,
    cross: `M${x - r} ${y - r}L${x + r} ${y + r}M${x + r} ${y - r}L${x - r} ${y + r}`,
  }[kind];
  return node("path", { d, class: cls });
}

/**
 * A line chart: `series` [{name, values: [number|null]}] over `labels` (the x axis).
 * Each series has its own colour class (series-0 …) and marker shape, so it is told
 * apart without colour too.  `yLabel(v)` formats the y ticks.
 */
export function lineChart({ series, labels, title, yLabel = String, yMin = null, yMax = null, integer = false, width = 420, height = 170 }) {
  const svg = frame(width, height, title);
  const all = series.flatMap((s) => s.values).filter((v) => v !== null && v !== undefined);
  const lo = yMin ?? Math.min(0, ...all);
  const top = yMax ?? Math.max(1, ...all);
  const tickValues = ticks(lo, top, 4, integer);
  const area = plotArea(width, height, { left: labelRoom(tickValues, yLabel) });
  const hi = Math.max(top, tickValues[tickValues.length - 1]);
  yAxis(svg, area, tickValues, lo, hi, yLabel);
  const x = scale(0, Math.max(1, labels.length - 1), area.x0, area.x1);
  xLabels(svg, area, labels, x);
  // equal values are drawn side by side (separateTies); the first series (you) is drawn
  // last, on top of any it comes close to
  const points = separateTies(series.map((s) => linePoints(s.values, area, lo, hi, labels.length)));
  series.map((s, k) => [s, k]).reverse().forEach(([, k]) => {
    const pts = points[k];
    const g = node("g", { class: `series series-${k}` });
    let d = "";
    let pen = false;
    for (const p of pts) {
      if (!p) {
        pen = false;
        continue;
      }
      d += `${pen ? "L" : "M"}${p.x.toFixed(1)} ${p.y.toFixed(1)}`;
      pen = true;
    }
    g.append(node("path", { d, class: "line" }));
    const r = pts.length > 25 ? 2 : 3;
    for (const p of pts) if (p) g.append(mark(MARKS[k % MARKS.length], p.x, p.y, r, "mark"));
    svg.append(g);
  });
  return svg;
}

/** A bar chart of `values` (0..yMax) under `labels`; `valueLabel(v)` is written on each bar. */
export function barChart({ values, labels, title, yLabel = String, yMax = 1, valueLabel = String, width = 420, height = 170 }) {
  const svg = frame(width, height, title);
  const area = plotArea(width, height, { left: labelRoom(ticks(0, yMax), yLabel) });
  yAxis(svg, area, ticks(0, yMax), 0, yMax, yLabel);
  const rects = barRects(values, area, yMax);
  rects.forEach((r, i) => {
    svg.append(node("rect", { x: r.x, y: r.y, width: r.w, height: Math.max(0, r.h), class: "bar" }));
    svg.append(node("text", { x: r.x + r.w / 2, y: Math.max(area.y1 + 10, r.y - 3), class: "value", "text-anchor": "middle" }, valueLabel(values[i])));
  });
  xLabels(svg, area, labels, (i) => rects[i].x + rects[i].w / 2);
  return svg;
}

/** A legend: each series' name beside its marker shape and colour. */
export function legend(names) {
  const list = document.createElement("ul");
  list.className = "chart-legend";
  list.setAttribute("aria-hidden", "true"); // the table alternative names them
  names.forEach((name, k) => {
    const li = document.createElement("li");
    const svg = node("svg", { viewBox: "0 0 16 16", width: 16, height: 16, class: `series series-${k}` });
    svg.append(node("path", { d: "M1 8H15", class: "line" }), mark(MARKS[k % MARKS.length], 8, 8, 3.5, "mark"));
    li.append(svg, document.createTextNode(name));
    list.append(li);
  });
  return list;
}

/**
 * A chart with its text alternative: a <figure> holding the chart (hidden from screen
 * readers, which get the table instead), a caption, and `table` as a visually hidden
 * table, or shown under a "as a table" disclosure when `showTableLabel` is given.
 */
export function chartBlock({ chart, caption, table, legendNames = null, showTableLabel = null, name = "" }) {
  const fig = document.createElement("figure");
  fig.className = "chart-block";
  if (name) fig.dataset.chart = name;
  chart.setAttribute("aria-hidden", "true");
  const cap = document.createElement("figcaption");
  cap.textContent = caption;
  fig.append(cap, chart);
  if (legendNames) fig.append(legend(legendNames));
  if (showTableLabel) {
    const details = document.createElement("details");
    const summary = document.createElement("summary");
    summary.textContent = showTableLabel;
    details.append(summary, table);
    fig.append(details);
  } else {
    // in a hidden box, not hidden itself: a table ignores the 1px size and overflow that
    // hide it, and its rows (373 px at 13 rounds) made the game-over panel scroll on
    // into empty space
    const box = document.createElement("div");
    box.className = "visually-hidden";
    box.append(table);
    fig.append(box);
  }
  return fig;
}
