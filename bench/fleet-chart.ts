// The fleet's picture: small panels over one time axis, drawn as an SVG and rendered to a PNG by Debian's chromium
// through playwright-core (as scripts/test-timeline.mjs draws the test run). bench/fleet.bench.ts calls it at the end
// with what it sampled, and writes the samples beside the picture's run (`fleet-samples.json`), so
// `npx tsx bench/fleet-chart.ts <samples.json> <out.png>` draws them again.
import { readFileSync } from "node:fs";
import { chromium } from "playwright-core";

export interface Line {
  label: string;
  color: string;
  /** [seconds since the load began, value] */
  points: [number, number][];
}
export interface Panel {
  title: string;
  lines: Line[];
}
export interface Chart {
  title: string;
  subtitle: string;
  /** The load's length, seconds: the axis ends there. */
  seconds: number;
  panels: Panel[];
}

const esc = (s: string) => s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");

/** A round top for an axis holding `max`. */
function niceTop(max: number) {
  if (max <= 0) return 1;
  const step = 10 ** Math.floor(Math.log10(max));
  for (const m of [1, 1.2, 1.5, 2, 2.5, 3, 4, 5, 6, 8, 10]) if (m * step >= max) return m * step;
  return 10 * step;
}
const fmt = (v: number) =>
  v >= 10_000 ? `${Math.round(v / 1000)}k` : v >= 1000 ? `${(v / 1000).toFixed(1)}k` : `${Number(v.toPrecision(3))}`;

export function svgOf(chart: Chart) {
  const W = 1200;
  const left = 70;
  const right = 250;
  const panelH = 130;
  const gap = 34;
  const top = 64;
  const H = top + chart.panels.length * (panelH + gap) + 30;
  const plotW = W - left - right;
  const x = (s: number) => left + (Math.max(0, Math.min(chart.seconds, s)) / Math.max(1, chart.seconds)) * plotW;
  const parts: string[] = [
    `<rect width="100%" height="100%" fill="#fff"/>`,
    `<text x="${left}" y="24" font-size="17" font-weight="bold">${esc(chart.title)}</text>`,
    `<text x="${left}" y="46" font-size="12" fill="#444">${esc(chart.subtitle)}</text>`,
  ];
  const tickEvery = chart.seconds > 600 ? 120 : chart.seconds > 240 ? 60 : chart.seconds > 60 ? 15 : 5;
  chart.panels.forEach((panel, i) => {
    const y0 = top + i * (panelH + gap) + 16;
    const max = niceTop(Math.max(0, ...panel.lines.flatMap((l) => l.points.map(([, v]) => v))));
    const y = (v: number) => y0 + panelH - (v / max) * panelH;
    parts.push(`<text x="${left}" y="${y0 - 5}" font-size="13" font-weight="bold">${esc(panel.title)}</text>`);
    for (const f of [0, 0.5, 1]) {
      parts.push(
        `<line x1="${left}" x2="${left + plotW}" y1="${y(max * f)}" y2="${y(max * f)}" stroke="${f ? "#eee" : "#999"}"/>`,
        `<text x="${left - 6}" y="${y(max * f) + 4}" font-size="11" text-anchor="end">${fmt(max * f)}</text>`,
      );
    }
    for (let s = 0; s <= chart.seconds; s += tickEvery)
      parts.push(`<line x1="${x(s)}" x2="${x(s)}" y1="${y0}" y2="${y0 + panelH}" stroke="#f2f2f2"/>`);
    panel.lines.forEach((line, j) => {
      const points = line.points.map(([s, v]) => `${x(s).toFixed(1)},${y(v).toFixed(1)}`).join(" ");
      if (line.points.length)
        parts.push(`<polyline fill="none" stroke="${line.color}" stroke-width="1.6" points="${points}"/>`);
      const last = line.points.at(-1)?.[1];
      parts.push(
        `<rect x="${left + plotW + 14}" y="${y0 + j * 17 + 2}" width="12" height="3" fill="${line.color}"/>`,
        `<text x="${left + plotW + 32}" y="${y0 + j * 17 + 8}" font-size="11">${esc(line.label)}${last !== undefined ? ` (last ${fmt(last)})` : ""}</text>`,
      );
    });
  });
  const axisY = top + chart.panels.length * (panelH + gap) + 2;
  for (let s = 0; s <= chart.seconds; s += tickEvery)
    parts.push(
      `<text x="${x(s)}" y="${axisY}" font-size="11" text-anchor="middle">${s >= 60 && tickEvery >= 60 ? `${s / 60} min` : `${s} s`}</text>`,
    );
  return {
    svg: `<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${H}" font-family="sans-serif">${parts.join("")}</svg>`,
    width: W,
    height: H,
  };
}

/** Draws the chart into a PNG with chromium. */
export async function drawChart(chart: Chart, png: string) {
  const { svg, width, height } = svgOf(chart);
  const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium" });
  try {
    const page = await browser.newPage({ viewport: { width, height } });
    await page.setContent(svg);
    await page.screenshot({ path: png });
  } finally {
    await browser.close();
  }
}

if (process.argv[1]?.endsWith("fleet-chart.ts")) {
  const [samples, png] = process.argv.slice(2);
  if (!samples || !png) throw new Error("usage: fleet-chart.ts <fleet-samples.json> <out.png>");
  await drawChart((JSON.parse(readFileSync(samples, "utf8")) as { chart: Chart }).chart, png);
  console.log(`${png} drawn`);
}
