import { schema } from "@booth/db";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { defaultConfig } from "./deps.ts";
import { pgBossJobs } from "./ports/jobs.ts";
import { testLogger } from "./testing/logger.ts";
import { createTestApp, type TestApp } from "./testing.ts";

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ config: { ...defaultConfig, metricsToken: "the scraper's secret" } });
  // Jobs wait in the queue (no worker here): the metrics count them, nothing runs them after the test.
  t.deps.jobs = pgBossJobs(t.sql, { logger: testLogger });
});
afterAll(() => t?.close());

/** The value of one sample line (`name{labels} value`) of the exposition, or undefined. */
const sample = (text: string, line: string) => {
  const found = text.split("\n").find((l) => l.startsWith(`${line} `));
  return found === undefined ? undefined : Number(found.slice(line.length + 1));
};

describe("GET /metrics", () => {
  it("answers Prometheus with METRICS_TOKEN or an admin's token, nobody else", async () => {
    const user = await t.createUser();
    const admin = await t.createUser({ roles: ["user", "admin"] });
    expect((await t.request("GET", "/metrics")).status).toBe(401);
    expect((await t.request("GET", "/metrics", { token: "not the secret" })).status).toBe(401);
    expect((await t.request("GET", "/metrics", { token: user.token })).status).toBe(403);
    expect((await t.request("GET", "/metrics", { token: admin.token })).status).toBe(200);
    const scrape = await t.request("GET", "/metrics", { token: "the scraper's secret" });
    expect(scrape.status).toBe(200);
    expect(scrape.headers.get("content-type")).toContain("text/plain");
  });

  it("counts requests by route pattern and status, with their latency, the job queue, who is live and their messages", async () => {
    const owner = await t.createUser();
    const room = await t.request("POST", "/api/room-service/rooms/infrastructure", {
      token: owner.token,
      body: { name: "Metered room", type: "PUBLIC" },
    });
    for (let i = 0; i < 3; i++) await t.request("GET", `/api/room-service/rooms/${room.body.slug}`);
    await t.request("GET", "/api/room-service/rooms/no-such-room");
    await t.request("GET", "/no/such/path");
    const listener = await t.createUser();
    await t.db.insert(schema.roomPresence).values([
      { roomUuid: room.body.uuid, userUuid: owner.user.uuid },
      { roomUuid: room.body.uuid, userUuid: listener.user.uuid },
    ]);
    await t.deps.jobs.send("transcode", { uploadId: crypto.randomUUID() });

    // The live rooms report the messages their clients sent with their live state; only they may.
    const live = `/api/room-service/rooms/live-state/${room.body.uuid}/infrastructure`;
    const service = await t.serviceToken();
    for (const messagesReceived of [7, 5])
      expect((await t.request("PATCH", live, { token: service, body: { messagesReceived } })).status).toBe(200);
    expect((await t.request("PATCH", live, { token: owner.token, body: { messagesReceived: 1000 } })).status).toBe(403);

    const text = (await t.request("GET", "/metrics", { token: "the scraper's secret" })).body as string;
    expect(sample(text, "booth_live_room_messages_received")).toBe(12);
    const route = "/api/room-service/rooms/:slug";
    expect(sample(text, `booth_http_requests_total{method="GET",route="${route}",status="200"}`)).toBe(3);
    expect(sample(text, `booth_http_requests_total{method="GET",route="${route}",status="404"}`)).toBe(1);
    expect(sample(text, `booth_http_requests_total{method="GET",route="(unmatched)",status="404"}`)).toBe(1);
    // Never the raw path: one series per route, whatever the slugs.
    expect(text).not.toContain(room.body.slug);
    expect(sample(text, `booth_http_request_duration_seconds_count{method="GET",route="${route}"}`)).toBe(4);
    expect(sample(text, "booth_live_room_connections")).toBe(2);
    expect(sample(text, "booth_live_rooms")).toBe(1);
    expect(sample(text, 'booth_jobs{kind="transcode",state="created"}')).toBe(1);
    expect(text).toContain("booth_edge_process_resident_memory_bytes");
  });
});
