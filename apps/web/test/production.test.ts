import { spawnSync } from "node:child_process";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { describe, expect, it } from "vitest";
import { missingProductionSettings } from "../app/config.server.ts";

// A production web server (NODE_ENV or BOOTH_ENV production) signs sessions only with the SESSION_SECRET every web
// server shares; it never makes one up.
const webRoot = join(import.meta.dirname, "..");
const tsx = join(dirname(createRequire(import.meta.url).resolve("tsx/package.json")), "dist", "cli.mjs");

describe("the web server in production", () => {
  it("does not start without SESSION_SECRET, and says so in one line with every other bad setting", () => {
    const run = spawnSync(process.execPath, [tsx, join(webRoot, "server.ts")], {
      cwd: webRoot,
      env: {
        ...process.env,
        NODE_ENV: "production",
        SESSION_SECRET: "",
        WEB_PORT: "1",
        BOOTH_EDGE_URL: "edge.internal",
        SHUTDOWN_TIMEOUT_MS: "ten seconds",
      },
      encoding: "utf8",
      timeout: 60_000,
    });
    expect(run.status).toBe(1);
    expect(run.stderr).toContain("  - SESSION_SECRET");
    // One line, naming them all, before anything listens.
    expect(run.stderr.trim().split("\n")).toEqual([
      expect.stringMatching(
        /^web: BOOTH_EDGE_URL is not an address: "edge.internal" .*; SHUTDOWN_TIMEOUT_MS is not a whole number .*; production mode .* - SESSION_SECRET: /,
      ),
    ]);
    expect(run.stdout).not.toContain("Booth is at");
  });

  it("needs SESSION_SECRET only in production", () => {
    expect(missingProductionSettings({ BOOTH_ENV: "production" })).toHaveLength(1);
    expect(missingProductionSettings({ NODE_ENV: "production", SESSION_SECRET: "s" })).toEqual([]);
    expect(missingProductionSettings({})).toEqual([]);
  });
});
