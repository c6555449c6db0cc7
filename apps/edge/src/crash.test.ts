import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { type ChildRun, freePort, waitForServer } from "./testing/child-server.ts";
import { spawnEdgeEntry } from "./testing/edge-entry.ts";

/*
 * Kill -9 during writes on the embedded PGlite (#19): the Node entry on its default database in a data folder takes a
 * stream of writes (crates created four at a time), is killed without warning in the middle, and is started again on
 * the same folder. It starts, and every write it had answered 2xx is there.
 */
let dataDir: string | undefined;
let run: ChildRun | undefined;
afterAll(async () => {
  run?.kill("SIGKILL");
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
});

async function start(port: number) {
  const child = spawnEdgeEntry({ port, dataDir: dataDir as string, env: { SEED_DEMO: "false" } });
  await waitForServer(child, {
    name: "the edge",
    ready: async () => (await fetch(`http://127.0.0.1:${port}/readyz`)).ok || undefined,
    timeoutMs: 90_000,
  });
  return child;
}

describe("the embedded database after a kill -9", () => {
  it("starts again on the same data folder with every write it had answered", async () => {
    dataDir = await mkdtemp(join(tmpdir(), "booth-crash-"));
    const port = await freePort();
    const api = `http://127.0.0.1:${port}`;
    run = await start(port);
    const admin = run.output().match(/First admin created: (\S+) \/ (\S+)/);
    expect(admin).not.toBeNull();
    const login = async () => {
      const res = await fetch(`${api}/api/user-service/auth/login`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ email: admin?.[1], password: admin?.[2] }),
      });
      return ((await res.json()) as { accessToken: string }).accessToken;
    };
    const token = await login();

    // Four writers creating crates until the edge dies under them; each keeps the names it was answered 201 for.
    const answered: string[] = [];
    let sent = 0;
    const writer = async () => {
      for (;;) {
        const name = `crate ${++sent}`;
        const res = await fetch(`${api}/api/playlist-service/crate`, {
          method: "POST",
          headers: { "content-type": "application/json", authorization: `Bearer ${token}` },
          body: JSON.stringify({ name }),
        }).catch(() => null);
        if (!res) return;
        if (res.status === 201) answered.push(name);
      }
    };
    const writers = Promise.all([writer(), writer(), writer(), writer()]);
    while (answered.length < 40) await new Promise((r) => setTimeout(r, 20));
    run.kill("SIGKILL");
    await writers;
    expect(await run.exited).toBeNull();

    run = await start(port);
    const after = await login();
    const res = await fetch(`${api}/api/playlist-service/crate/user?limit=100`, {
      headers: { authorization: `Bearer ${after}` },
    });
    expect(res.status).toBe(200);
    const kept = ((await res.json()) as { data: { crateName: string }[] }).data.map((c) => c.crateName);
    expect(answered.filter((name) => !kept.includes(name))).toEqual([]);
    expect(kept.length).toBeGreaterThanOrEqual(answered.length);
    run.kill("SIGTERM");
    expect(await run.exited).toBe(0);
  }, 180_000);
});
