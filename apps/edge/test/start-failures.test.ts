/**
 * A start that cannot succeed (a database that does not answer, a port in use) is one line naming its cause, without
 * a password, and a failed exit: for the edge, the job worker and the release step alike, and never a stack.
 */
import { mkdtemp, rm } from "node:fs/promises";
import { createServer, type Server } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { BOOTH_VERSION } from "@booth/sdk/version";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type ChildRun, freePort, spawnChild } from "../src/testing/child-server.ts";
import { EDGE_DIR, spawnEdgeEntry } from "../src/testing/edge-entry.ts";

let dataDir = "";
let taken: Server | undefined;
const runs: ChildRun[] = [];
beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), "booth-start-failures-"));
});
afterAll(async () => {
  for (const run of runs) await run.stop(1000);
  taken?.close();
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
});

/** Its exit code and everything it printed, once it exited (within a minute and a half). */
async function outcome(run: ChildRun) {
  runs.push(run);
  const code = await Promise.race([run.exited, new Promise<"running">((r) => setTimeout(() => r("running"), 90_000))]);
  return { code, lines: run.output().trim().split("\n") };
}

describe("a start that fails", () => {
  it("on a database that does not answer: the edge, the worker and the release step each say so in one line", async () => {
    // Nothing listens there; the password must not be printed.
    const url = `postgres://booth:s3cret@127.0.0.1:${await freePort()}/booth`;
    const env = { DATABASE_URL: url, SEED_DEMO: "false" };
    const [edge, worker, release] = await Promise.all([
      outcome(spawnEdgeEntry({ port: await freePort(), dataDir, env })),
      outcome(
        spawnEdgeEntry({
          port: 0,
          dataDir,
          args: ["--import", "tsx", "src/main.worker.ts"],
          env: { ...env, WORKER_PORT: String(await freePort()) },
        }),
      ),
      outcome(
        spawnChild({
          args: ["--import", "tsx", "src/main.migrate.ts"],
          cwd: EDGE_DIR,
          env: { ...process.env, ...env },
        }),
      ),
    ]);
    const said =
      /^Booth (edge|job worker|migrate) did not start: migrating the database: 127\.0\.0\.1:\d+ does not answer \(ECONNREFUSED\); check DATABASE_URL and REDIS_URL$/;
    expect(edge).toEqual({ code: 1, lines: [expect.stringMatching(said)] });
    expect(worker).toEqual({ code: 1, lines: [expect.stringMatching(said)] });
    // The release step says first what it does.
    expect(release).toEqual({
      code: 1,
      lines: [
        `Booth ${BOOTH_VERSION}: migrating the database (waits for any other migration to finish first)...`,
        expect.stringMatching(said),
      ],
    });
  }, 120_000);

  it("on a port in use: the worker names WORKER_PORT", async () => {
    const port = await freePort();
    taken = createServer();
    await new Promise<void>((resolve) => taken?.listen(port, "0.0.0.0", resolve));
    const worker = await outcome(
      spawnEdgeEntry({
        port: 0,
        dataDir,
        args: ["--import", "tsx", "src/main.worker.ts"],
        env: { SEED_DEMO: "false", WORKER_PORT: String(port) },
      }),
    );
    expect(worker).toEqual({ code: 1, lines: [`Booth job worker: port ${port} is in use (WORKER_PORT)`] });
  }, 120_000);
});
