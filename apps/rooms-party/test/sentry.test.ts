/**
 * The rooms' Worker reports a room's errors to Sentry when SENTRY_DSN is set (#34): the real Worker under
 * `wrangler dev`, a local stand-in for Sentry's ingest, and a fault a room throws on request, which only a build with
 * `--define BOOTH_TEST_FAULTS:true` has (src/server.ts).
 */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { BOOTH_VERSION } from "@booth/sdk/version";
import { afterAll, beforeAll, expect, it } from "vitest";
import { sentryIngest } from "../../edge/src/testing/sentry.ts";
import { freePort, startParty } from "./helpers.ts";

const ROOM = "00000000-0000-4000-8000-00000000beef";
let ingest: Awaited<ReturnType<typeof sentryIngest>>;
let party: Awaited<ReturnType<typeof startParty>>;
let persistDir: string;

beforeAll(async () => {
  ingest = await sentryIngest();
  persistDir = await mkdtemp(join(tmpdir(), "booth-party-sentry-"));
  party = await startParty({
    port: await freePort(),
    persistDir,
    // No edge: the fault is thrown before a token would be checked against its keys.
    vars: { BOOTH_EDGE_URL: "http://127.0.0.1:9", SENTRY_ENVIRONMENT: "rooms-test" },
    secrets: { SENTRY_DSN: ingest.dsn },
    defines: { BOOTH_TEST_FAULTS: "true" },
  });
}, 120_000);

afterAll(async () => {
  await party?.stop();
  ingest?.close();
  if (persistDir) await rm(persistDir, { recursive: true, force: true });
});

it("sends an error thrown in a room's handling, with Booth's version and nothing of the caller's", async () => {
  const token = `secret-token-${crypto.randomUUID()}`;
  const res = await fetch(`${party.url}/parties/main/${ROOM}?token=${token}`, {
    method: "POST",
    headers: { "x-booth-test-fault": "throw", authorization: `Bearer ${token}`, cookie: `session=${token}` },
    body: "{}",
  });
  expect(res.status).toBe(500);

  await res.body?.cancel();
  const event = await ingest.event(
    (e) => e.exception.values.some((v) => v.value === `A test fault in room ${ROOM}`),
    20_000,
  );
  expect(event.release).toBe(BOOTH_VERSION);
  expect(event.environment).toBe("rooms-test");
  expect(event.user).toBeUndefined();
  const sent = ingest.envelopes().join("\n");
  expect(sent).not.toContain(token);
});
