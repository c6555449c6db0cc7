/**
 * The rooms' production deploy (scripts/deploy.mjs, wrangler.jsonc's env.production): the edge's address is the
 * operator's BOOTH_EDGE_URL, and one Cloudflare cannot reach is refused before anything is built or uploaded. The dry
 * runs need no account; where the machine allows it they run with no network at all (a namespace of their own).
 */
import { spawnSync } from "node:child_process";
import { expect, it } from "vitest";
import { edgeUrlProblem } from "../scripts/deploy.mjs";
import { APP_DIR, wranglerBin, wranglerEnv } from "../scripts/wrangler-dev.mjs";

/** `unshare -rn` runs a command with no network (only a loopback that is down), when the machine allows it. */
const offline = spawnSync("unshare", ["-rn", "true"]).status === 0;
const run = (command: string[], env: Record<string, string>) => {
  const argv = offline ? ["unshare", "-rn", ...command] : command;
  return spawnSync(argv[0] as string, argv.slice(1), {
    cwd: APP_DIR,
    env: { ...wranglerEnv(), ...env },
    encoding: "utf8",
    timeout: 120_000,
  });
};
const npm = (script: string, env: Record<string, string>) => run(["npm", "run", "--silent", script], env);

it("refuses an edge address Cloudflare cannot reach, and takes a public one", () => {
  for (const refused of [
    undefined,
    "",
    "  ",
    "api.example.org",
    "ftp://api.example.org",
    "http://127.0.0.1:8787",
    "http://127.9.9.9",
    "http://localhost:8787",
    "https://edge.localhost",
    "http://0.0.0.0:8787",
    "http://[::1]:8787",
    "http://[::]:8787",
    "http://[::ffff:127.0.0.1]:8787",
  ])
    expect(edgeUrlProblem(refused), String(refused)).toMatch(/^BOOTH_EDGE_URL .*https:\/\/api\.example\.org\)$/);
  for (const taken of [
    "https://api.example.org",
    "https://api.example.org/",
    "http://203.0.113.7:8787",
    "https://[2001:db8::1]",
  ])
    expect(edgeUrlProblem(taken), taken).toBeNull();
});

it("npm run deploy:check refuses a loopback edge in one line, before wrangler starts", () => {
  for (const edge of ["http://127.0.0.1:8787", ""]) {
    const check = npm("deploy:check", { BOOTH_EDGE_URL: edge });
    expect(check.status, check.stderr).toBe(1);
    expect(check.stderr.trim().split("\n")).toEqual([expect.stringMatching(/^rooms-party: BOOTH_EDGE_URL /)]);
    expect(check.stdout).not.toContain("wrangler");
  }
}, 60_000);

it("npm run deploy:check builds the production Worker with the operator's edge address, offline", () => {
  const check = npm("deploy:check", { BOOTH_EDGE_URL: "https://api.example.org" });
  expect(check.status, `${check.stdout}\n${check.stderr}`).toBe(0);
  // The guard ran as wrangler's build step, and the Worker has the edge's address and its rooms' class.
  expect(check.stdout).toContain("[custom build] Running: node scripts/deploy.mjs --guard");
  expect(check.stdout).toMatch(/env\.BOOTH_EDGE_URL \(.*\)\s+Environment Variable/);
  expect(check.stdout).toMatch(/env\.Main \(RoomServer\)/);
  expect(check.stdout).toContain("--dry-run: exiting now.");
}, 150_000);

it("wrangler deploy --env production run directly is refused: it would upload no edge address", () => {
  const direct = run(["node", wranglerBin(), "deploy", "--env", "production", "--dry-run"], {
    BOOTH_EDGE_URL: "https://api.example.org",
  });
  expect(direct.status).not.toBe(0);
  expect(`${direct.stdout}${direct.stderr}`).toContain(
    "rooms-party: deploy the rooms with `npm run deploy -w @booth/rooms-party -- --env production`",
  );
}, 150_000);
