import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { BOOTH_VERSION } from "@booth/sdk/version";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type ChildRun, freePort, waitForServer } from "./testing/child-server.ts";
import { spawnEdgeEntry } from "./testing/edge-entry.ts";
import { until } from "./testing/until.ts";

/*
 * The Node entry's log, as whoever runs it reads it: pino's JSON lines at LOG_LEVEL, with nothing in them that opens
 * an account (#34): a bearer token, a cookie, a sign-in or OAuth code, a magic-link token, in headers, in the query or
 * in the body.
 */
let dataDir: string;
beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), "booth-logging-"));
});
afterAll(() => rm(dataDir, { recursive: true, force: true }));

async function startEdge(env: Record<string, string>) {
  const port = await freePort();
  const run = spawnEdgeEntry({ port, dataDir, env: { SEED_DEMO: "false", ...env } });
  await waitForServer(run, {
    name: "the edge",
    ready: async () => (await fetch(`http://127.0.0.1:${port}/healthz`)).ok,
    timeoutMs: 90_000,
  });
  return { url: `http://127.0.0.1:${port}`, run };
}

const jsonLines = (run: ChildRun) =>
  run
    .output()
    .split("\n")
    .filter((line) => line.startsWith("{"))
    .map((line) => JSON.parse(line) as Record<string, unknown>);

const SECRETS = {
  bearer: `eyJhbGciOiJFUzI1NiJ9.bearer-${crypto.randomUUID()}`,
  queryCode: `qc-${crypto.randomUUID()}`,
  queryToken: `qt-${crypto.randomUUID()}`,
  bodyCode: `bc-${crypto.randomUUID()}`,
  bodyToken: `bt-${crypto.randomUUID()}`,
  cookie: `ck-${crypto.randomUUID()}`,
  email: `someone-${crypto.randomUUID().slice(0, 8)}@booth.test`,
};

describe("the edge's log", () => {
  it("keeps no token, cookie, code or email of a request, in its headers, query or body", async () => {
    const { url, run } = await startEdge({ LOG_LEVEL: "info" });
    try {
      const headers = {
        authorization: `Bearer ${SECRETS.bearer}`,
        cookie: `session=${SECRETS.cookie}`,
        "content-type": "application/json",
      };
      // Discord's OAuth code exchanged for a session (503 here: Discord is not set up), with a code and a token in the
      // query too.
      const exchange = await fetch(
        `${url}/api/user-service/auth/exchange-code?code=${SECRETS.queryCode}&token=${SECRETS.queryToken}&page=2`,
        { method: "POST", headers, body: JSON.stringify({ code: SECRETS.bodyCode }) },
      );
      const magic = await fetch(`${url}/api/user-service/auth/validate-magic-link?token=${SECRETS.queryToken}`, {
        method: "POST",
        headers,
        body: JSON.stringify({ token: SECRETS.bodyToken }),
      });
      const link = await fetch(`${url}/api/user-service/auth/magic-link?email=${encodeURIComponent(SECRETS.email)}`, {
        headers,
      });
      expect([exchange.status, magic.status, link.status].every((s) => s > 0)).toBe(true);
      // Each request has its access line (written asynchronously: wait for the last one).
      const accessLine = (path: string) => jsonLines(run).find((l) => String(l.path).startsWith(path));
      await until(() => accessLine("/api/user-service/auth/magic-link"), "the access lines", 10_000);
      expect(accessLine("/api/user-service/auth/exchange-code")).toMatchObject({
        method: "POST",
        path: "/api/user-service/auth/exchange-code?code=[Redacted]&token=[Redacted]&page=2",
        status: exchange.status,
      });
      expect(accessLine("/api/user-service/auth/validate-magic-link")?.path).toBe(
        "/api/user-service/auth/validate-magic-link?token=[Redacted]",
      );
      expect(accessLine("/api/user-service/auth/magic-link")?.path).toBe(
        "/api/user-service/auth/magic-link?email=[Redacted]",
      );
      expect(typeof accessLine("/api/user-service/auth/exchange-code")?.requestId).toBe("string");
      expect(typeof accessLine("/api/user-service/auth/exchange-code")?.time).toBe("string");
      const output = run.output();
      for (const [name, secret] of Object.entries(SECRETS))
        expect(output.includes(secret), `${name} in the log:\n${output}`).toBe(false);
      expect(output).toContain(`Booth edge ${BOOTH_VERSION} listening on ${url}`);
    } finally {
      await run.stop();
    }
  }, 120_000);

  it("at LOG_LEVEL=warn writes no info line; an unknown LOG_LEVEL stops the start with one line", async () => {
    const { url, run } = await startEdge({ LOG_LEVEL: "warn" });
    try {
      await fetch(`${url}/api/user-service/auth/pub-key`);
      // Stopped, the entry writes what its log still holds before it exits: an info line would be in the output now.
      // (Closing its database takes a while on a loaded machine: it is given its time rather than killed.)
      await run.stop(30_000);
      const lines = jsonLines(run);
      expect(run.output()).toContain("Booth edge stopped");
      expect(lines.filter((l) => l.level === "info")).toEqual([]);
    } finally {
      await run.stop();
    }

    const refused = spawnEdgeEntry({ port: await freePort(), dataDir, env: { LOG_LEVEL: "loud" } });
    expect(await refused.exited).toBe(1);
    expect(refused.output().trim()).toBe(
      'Booth edge cannot start: LOG_LEVEL must be one of fatal, error, warn, info, debug, trace, silent (it is "loud")',
    );
  }, 120_000);
});
