import { existsSync } from "node:fs";
import { mkdtemp, readdir, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { schema } from "@booth/db";
import { arrayContains, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { configFrom, firstAdminNotice, seedDemoInBackground } from "./bootstrap.ts";
import { missingProductionSettings, readEdgeSettings, seedsDemo } from "./config.ts";
import { loadKeys } from "./lib/tokens.ts";
import { DEMO_EMAIL } from "./seed/demo-catalogue.ts";
import { expectSettingsListed, SECRETS_CACHE_AND_DATABASE } from "./testing/production.ts";
import { createTestApp, type TestApp } from "./testing.ts";

// A production instance (NODE_ENV or BOOTH_ENV production) makes up no secret, prints no password, seeds no demo and
// sells nothing without money; the embedded default keeps doing all of that.

let t: TestApp;
let dataDir: string;
beforeAll(async () => {
  t = await createTestApp();
  dataDir = await mkdtemp(join(tmpdir(), "booth-production-"));
});
afterAll(async () => {
  await t.close();
  await rm(dataDir, { recursive: true, force: true });
});

const everySecret = {
  JWT_PRIVATE_KEY: "{}",
  BOOTH_SERVICE_SECRET: "s".repeat(40),
  VAPID_PUBLIC_KEY: "public",
  VAPID_PRIVATE_KEY: "private",
  REDIS_URL: "redis://cache.internal:6379",
  DATABASE_URL: "postgres://db.internal/booth",
  S3_BUCKET: "booth-media",
  S3_ACCESS_KEY_ID: "key",
  S3_SECRET_ACCESS_KEY: "secret",
};

describe("starting in production", () => {
  it("stops with one message naming every missing setting, before it creates anything", async () => {
    for (const mode of [{ NODE_ENV: "production" }, { BOOTH_ENV: "production" }]) {
      // The settings are read before anything is created (the entries' readStart).
      const start = () => readEdgeSettings({ ...mode, DATA_DIR: dataDir, INIT_CWD: "" });
      expect(start).toThrow(/production mode/);
      const message = (() => {
        try {
          return String(start());
        } catch (err) {
          return (err as Error).message;
        }
      })();
      expectSettingsListed(message, [...SECRETS_CACHE_AND_DATABASE, "S3_BUCKET"]);
    }
    expect(await readdir(dataDir)).toEqual([]);
  });

  it("names only what is missing; one instance by the operator's word needs no shared cache, database or storage", () => {
    expect(missingProductionSettings(everySecret)).toEqual([]);
    const { REDIS_URL: _r, DATABASE_URL: _d, S3_BUCKET: _s, ...secrets } = everySecret;
    expect(missingProductionSettings({ ...secrets, BOOTH_SINGLE_INSTANCE: "true" })).toEqual([]);
    expect(missingProductionSettings(secrets).map((line) => line.split(" ")[0])).toEqual([
      "REDIS_URL",
      "DATABASE_URL:",
      "S3_BUCKET",
    ]);
    const upstash = { UPSTASH_REDIS_REST_URL: "https://x.upstash.io", UPSTASH_REDIS_REST_TOKEN: "t" };
    expect(
      missingProductionSettings({ ...secrets, ...upstash, DATABASE_URL: "postgres://db", S3_BUCKET: "media" }),
    ).toEqual([]);
    expect(missingProductionSettings({ ...everySecret, ADMIN_EMAIL: "boss@example.com" })).toEqual([
      "ADMIN_EMAIL and ADMIN_PASSWORD: the first admin needs both (or neither)",
    ]);
  });

  it("never makes up a signing key, even where one could be kept", async () => {
    await expect(loadKeys({ dataDir, required: true })).rejects.toThrow("JWT_PRIVATE_KEY is required");
    await expect(loadKeys({ privateJwk: "not json", required: true })).rejects.toThrow("JWT_PRIVATE_KEY is not JSON");
    expect(existsSync(join(dataDir, "jwt-private.jwk.json"))).toBe(false);
  });

  it("creates no admin and prints no password without ADMIN_EMAIL/ADMIN_PASSWORD, but says what to set", async () => {
    const admins = () => t.db.$count(schema.users, arrayContains(schema.users.roles, ["admin"]));
    const notice = await firstAdminNotice(t.db, { NODE_ENV: "production" }, t.clock.now());
    expect(notice).toBe(
      "No admin account: set ADMIN_EMAIL and ADMIN_PASSWORD and restart (an existing account with that email becomes admin).",
    );
    expect(await admins()).toBe(0);
    const env = { NODE_ENV: "production", ADMIN_EMAIL: "boss@example.com", ADMIN_PASSWORD: "a long admin password" };
    expect(await firstAdminNotice(t.db, env, t.clock.now())).toBeNull();
    expect(await admins()).toBe(1);
    expect(await firstAdminNotice(t.db, { NODE_ENV: "production" }, t.clock.now())).toBeNull();
  });

  it("seeds no demo unless SEED_DEMO=true; the embedded default seeds unless SEED_DEMO=false", async () => {
    const lines: string[] = [];
    expect(seedDemoInBackground(t.deps, { NODE_ENV: "production" }, (line) => lines.push(line))).toBe(false);
    expect(seedDemoInBackground(t.deps, { BOOTH_ENV: "production", SEED_DEMO: "1" }, (l) => lines.push(l))).toBe(false);
    await new Promise((r) => setTimeout(r, 200));
    expect(lines).toEqual([]);
    expect(await t.db.$count(schema.users, eq(schema.users.email, DEMO_EMAIL))).toBe(0);
    expect(seedsDemo({ NODE_ENV: "production", SEED_DEMO: "true" })).toBe(true);
    expect(seedsDemo({})).toBe(true);
    expect(seedsDemo({ SEED_DEMO: "false" })).toBe(false);
  });

  it("turns the local test checkout off unless LOCAL_CHECKOUT=true", () => {
    // A production instance's settings come with its secrets (else it does not start).
    const local = (env: Record<string, string>) =>
      configFrom(readEdgeSettings({ ...everySecret, ...env })).payments?.localCheckout;
    expect(local({ NODE_ENV: "production" })).toBe(false);
    expect(local({ BOOTH_ENV: "production", LOCAL_CHECKOUT: "true" })).toBe(true);
    expect(local({})).toBe(true);
    expect(local({ LOCAL_CHECKOUT: "false" })).toBe(false);
  });
});
