/**
 * Draws a test run as a picture: each test file a bar on the worker lane that ran it, from vitest's JSON report,
 * and, when given, the machine's CPU use over the run (the share of its cores busy, from `/proc/stat` samples).
 *
 *   npx vitest run --reporter=default --reporter=json --outputFile.json=/tmp/run.json
 *   node scripts/test-timeline.mjs /tmp/run.json docs/decisions/test-run.png [/tmp/cpu.txt]
 *
 * The CPU file is what `node scripts/test-timeline.mjs --sample /tmp/cpu.txt` writes while the run goes on (a line
 * every 2 s: the time and the busy and total jiffies of /proc/stat). The picture is an SVG drawn by chromium into a
 * PNG (Debian's chromium, as the browser tests use).
 */
import { appendFileSync, readFileSync, writeFileSync } from "node:fs";
import { chromium } from "playwright-core";

if (process.argv[2] === "--sample") {
  const out = process.argv[3] ?? "/tmp/cpu.txt";
  writeFileSync(out, "");
  const read = () => {
    const [cpu] = readFileSync("/proc/stat", "utf8").split("\n");
    const jiffies = (cpu ?? "").trim().split(/\s+/).slice(1).map(Number);
    const idle = (jiffies[3] ?? 0) + (jiffies[4] ?? 0);
    const total = jiffies.reduce((a, b) => a + b, 0);
    appendFileSync(out, `${Date.now()} ${total - idle} ${total}\n`);
  };
  read();
  setInterval(read, 2000);
} else {
  const [report, png, cpuFile] = process.argv.slice(2);
  if (!report || !png) throw new Error("usage: test-timeline.mjs <vitest json> <out.png> [cpu samples]");
  await draw(JSON.parse(readFileSync(report, "utf8")), png, cpuFile);
}

async function draw(run, png, cpuFile) {
  const files = run.testResults
    .map((f) => ({ name: f.name.replace(/^.*?\/(apps|packages)\//, "$1/"), start: f.startTime, end: f.endTime }))
    .sort((a, b) => a.start - b.start);
  const t0 = Math.min(...files.map((f) => f.start));
  const t1 = Math.max(...files.map((f) => f.end));
  // A file goes on the first lane free when it started (vitest's workers, as far as the report tells them).
  const lanes = [];
  for (const f of files) {
    let lane = lanes.findIndex((end) => end <= f.start + 50);
    if (lane < 0) lane = lanes.push(0) - 1;
    lanes[lane] = f.end;
    f.lane = lane;
  }
  const W = 1400;
  const left = 60;
  const laneH = 70;
  const cpuH = cpuFile ? 120 : 0;
  const H = 60 + lanes.length * laneH + cpuH + 40;
  const x = (t) => left + ((t - t0) / (t1 - t0)) * (W - left - 20);
  const long = (f) => f.end - f.start > 20_000;
  const browser = (f) => /apps\/web\/test|rooms-party\/test|apps\/cli/.test(f.name);
  const bars = files
    .map((f) => {
      const y = 40 + f.lane * laneH;
      const label = long(f)
        ? `<text x="${x(f.start) + 3}" y="${y + 38}" font-size="11">${f.name.split("/").pop()} ${Math.round((f.end - f.start) / 1000)} s</text>`
        : "";
      return `<rect x="${x(f.start)}" y="${y}" width="${Math.max(1, x(f.end) - x(f.start) - 1)}" height="${laneH - 30}" fill="${browser(f) ? "#8b5cf6" : "#22c55e"}" stroke="#fff" stroke-width="0.5"><title>${f.name}</title></rect>${label}`;
    })
    .join("");
  let cpu = "";
  if (cpuFile) {
    const samples = readFileSync(cpuFile, "utf8")
      .trim()
      .split("\n")
      .map((l) => l.split(" ").map(Number));
    const top = 40 + lanes.length * laneH + 10;
    const points = [];
    let busy = 0;
    let all = 0;
    for (let i = 1; i < samples.length; i++) {
      const [t, b, a] = samples[i];
      const [, pb, pa] = samples[i - 1];
      if (t < t0 || t > t1) continue;
      busy += b - pb;
      all += a - pa;
      points.push(`${x(t)},${top + cpuH - ((b - pb) / Math.max(1, a - pa)) * (cpuH - 20)}`);
    }
    cpu = `<text x="4" y="${top + 12}" font-size="12">CPU</text><line x1="${left}" x2="${W - 20}" y1="${top}" y2="${top}" stroke="#ccc"/><line x1="${left}" x2="${W - 20}" y1="${top + cpuH - 20}" y2="${top + cpuH - 20}" stroke="#ccc"/><polyline fill="none" stroke="#ef4444" points="${points.join(" ")}"/><text x="${left}" y="${top + cpuH - 4}" font-size="12">cores busy over the run: ${Math.round((100 * busy) / Math.max(1, all))}% (top line: all cores)</text>`;
  }
  const ticks = [];
  for (let s = 0; s <= (t1 - t0) / 1000; s += 60)
    ticks.push(
      `<line x1="${x(t0 + s * 1000)}" x2="${x(t0 + s * 1000)}" y1="30" y2="${H - 30}" stroke="#eee"/><text x="${x(t0 + s * 1000) - 8}" y="${H - 12}" font-size="11">${s / 60} min</text>`,
    );
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${H}" font-family="sans-serif"><rect width="100%" height="100%" fill="#fff"/>${ticks.join("")}<text x="${left}" y="20" font-size="14">Test files by worker lane (violet: browser, live-room and CLI files; green: the rest), ${Math.round((t1 - t0) / 1000)} s</text>${lanes.map((_, i) => `<text x="4" y="${40 + i * laneH + 24}" font-size="12">lane ${i + 1}</text>`).join("")}${bars}${cpu}</svg>`;
  const browserApp = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium" });
  try {
    const page = await browserApp.newPage({ viewport: { width: W, height: H } });
    await page.setContent(svg);
    await page.screenshot({ path: png });
  } finally {
    await browserApp.close();
  }
  console.log(`${png}: ${files.length} files on ${lanes.length} lanes over ${Math.round((t1 - t0) / 1000)} s`);
}
