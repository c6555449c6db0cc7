/** The rooms' settings (src/config.ts): read from the Worker's env and by scripts/dev.mjs, and nowhere else. */
import { spawnSync } from "node:child_process";
import { join } from "node:path";
import { expect, it } from "vitest";
import { environmentReaders } from "../../../scripts/environment-readers.ts";
import { settingsOf } from "../src/config.ts";

it("stops `npm start` before wrangler starts, naming a bad setting and a missing production one in one line", () => {
  const run = spawnSync(process.execPath, [join(import.meta.dirname, "..", "scripts", "dev.mjs")], {
    env: { ...process.env, BOOTH_ENV: "production", BOOTH_SERVICE_SECRET: "", BOOTH_TIME_SCALE: "fast" },
    encoding: "utf8",
    timeout: 30_000,
  });
  expect(run.status).toBe(1);
  expect(run.stderr.trim().split("\n")).toEqual([
    'rooms-party cannot start: BOOTH_TIME_SCALE is not a number from 0.001: "fast"; BOOTH_SERVICE_SECRET is required in production (the same value as the edge\'s)',
  ]);
  expect(run.stdout).toBe("");
});

it("reads the Worker's env once per env object, typed", () => {
  const env = { BOOTH_EDGE_URL: "https://api.example.org/", BOOTH_TIME_SCALE: "0.5", Main: {} };
  const settings = settingsOf(env);
  expect(settings).toMatchObject({ BOOTH_EDGE_URL: "https://api.example.org", BOOTH_TIME_SCALE: 0.5 });
  expect(settingsOf(env)).toBe(settings);
});

it("reads the environment only in its config module and its entries", () => {
  expect(environmentReaders("apps/rooms-party", /\bprocess\.env\b|\benv\.[A-Z][A-Z0-9_]*\b/)).toEqual([
    "apps/rooms-party/scripts/deploy.mjs",
    "apps/rooms-party/scripts/dev.mjs",
    // How wrangler is started (for dev.mjs, the tests and the bench): it hands its environment on to wrangler.
    "apps/rooms-party/scripts/wrangler-dev.mjs",
  ]);
});
