/**
 * What an operator's load balancer and orchestrator read: /healthz (the process answers, and which Booth version it
 * runs), /readyz (it can serve: the database and the cache answer) and each service's status route, 503 when degraded.
 */
import { BOOTH_VERSION } from "@booth/sdk/version";
import { describe, expect, it } from "vitest";
import type { Cache } from "./ports/cache.ts";
import { openTestApp, type TestApp } from "./testing.ts";

const t = openTestApp();

const STATUS_ROUTES = [
  "/api/user-service/info-admin/user-service-status",
  "/api/room-service/info-admin/room-service-status",
  "/api/playlist-service/info-admin/playlists-service-status",
  "/api/upload-service/info-admin/upload-service-status",
  "/api/audit-service/info-admin/audit-service-status",
];

/** A cache whose every call fails, as one whose server went away does. */
function downCache(cache: Cache): Cache {
  return new Proxy(cache, {
    get: (target, key) =>
      key === "close" ? target.close.bind(target) : () => Promise.reject(new Error("connect ECONNREFUSED")),
  });
}

/** A database that never answers (a connection hanging on a dead host). */
function hangingDb(db: TestApp["deps"]["db"]) {
  return new Proxy(db, {
    get: (target, key) => (key === "execute" ? () => new Promise(() => undefined) : Reflect.get(target, key)),
  });
}

/** Expects /readyz to answer `status` and `ready`, and each status route `status` and what `routes` says. */
async function expectReadiness(status: number, ready: object, routes: object) {
  const res = await t.app.request("/readyz");
  expect(res.status).toBe(status);
  expect(await res.json()).toEqual(ready);
  for (const path of STATUS_ROUTES) {
    const res = await t.app.request(path);
    expect(res.status, path).toBe(status);
    expect(await res.json()).toMatchObject(routes);
  }
}

describe("health", () => {
  it("is alive, naming the Booth version it runs, and ready when the database and the cache answer", async () => {
    const alive = await t.app.request("/healthz");
    expect(alive.status).toBe(200);
    expect(alive.headers.get("cache-control")).toBe("no-store");
    expect(await alive.json()).toEqual({ status: "ok", version: BOOTH_VERSION });
    expect(BOOTH_VERSION).toMatch(/^\d+\.\d+\.\d+$/);
    await expectReadiness(200, { status: "ok", database: "ok", cache: "ok" }, { status: "ok" });
  });

  it("answers 503 naming what is down when the cache fails or the database hangs, and recovers with them", async () => {
    const { cache, db } = t.deps;
    t.deps.cache = downCache(cache);
    try {
      const ready = { status: "degraded", database: "ok", cache: "unreachable" };
      await expectReadiness(503, ready, { status: "degraded", cache: "unreachable" });
      // Alive all the same: restarting the process would not bring the cache back.
      expect((await t.app.request("/healthz")).status).toBe(200);
    } finally {
      t.deps.cache = cache;
    }
    t.deps.db = hangingDb(db);
    try {
      const started = Date.now();
      const ready = await t.app.request("/readyz");
      expect(ready.status).toBe(503);
      expect(await ready.json()).toEqual({ status: "degraded", database: "unreachable", cache: "ok" });
      // It answers within its probe's bound rather than hanging with the database.
      expect(Date.now() - started).toBeLessThan(5000);
    } finally {
      t.deps.db = db;
    }
    expect((await t.app.request("/readyz")).status).toBe(200);
  }, 20_000);
});
