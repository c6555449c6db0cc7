/**
 * The rooms' deployable bundle: `wrangler deploy --dry-run` builds what `wrangler deploy` would upload, without
 * reaching Cloudflare. It must build, and export the Durable Object class wrangler.jsonc binds.
 */
import { spawnSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { expect, it } from "vitest";
import { APP_DIR, wranglerBin, wranglerEnv } from "../scripts/wrangler-dev.mjs";

it("builds the Worker bundle with the room's Durable Object class", async () => {
  const outdir = await mkdtemp(join(tmpdir(), "booth-rooms-bundle-"));
  try {
    const run = spawnSync(process.execPath, [wranglerBin(), "deploy", "--dry-run", "--outdir", outdir], {
      cwd: APP_DIR,
      env: wranglerEnv(),
      encoding: "utf8",
      timeout: 90_000,
    });
    expect(run.status, `${run.stdout}\n${run.stderr}`).toBe(0);
    // wrangler names the binding and its class in what it would deploy.
    expect(run.stdout).toMatch(/env\.Main \(RoomServer\)/);
    const bundle = join(outdir, "server.js");
    expect(existsSync(bundle), `bundle at ${bundle}`).toBe(true);
    const code = readFileSync(bundle, "utf8");
    expect(code).toMatch(/LiveRoomServer = class extends Server/);
    expect(code).toMatch(/export\s*\{[^}]*RoomServer/);
    // Nothing of Node's that the Workers runtime lacks: AsyncLocalStorage alone (Sentry's), which the nodejs_als flag
    // gives it (wrangler.jsonc).
    expect(code.match(/from "node:[^"]+"/g) ?? []).toEqual(['from "node:async_hooks"']);
  } finally {
    await rm(outdir, { recursive: true, force: true });
  }
}, 120_000);
