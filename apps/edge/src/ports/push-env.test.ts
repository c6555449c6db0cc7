import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Db } from "@booth/db";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import webpush from "web-push";
import { readEdgeSettings } from "../config.ts";
import { pemKeyPair } from "../testing/keys.ts";
import { pushFrom } from "./push-env.ts";

let dir = "";
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "booth-push-env-"));
});
afterAll(() => rm(dir, { recursive: true, force: true }));

// Building the port touches no database; sends would.
const db = {} as Db;
const settings = (environment: Record<string, string> = {}) => readEdgeSettings(environment);

describe("the push port from the environment", () => {
  it("unconfigured: the outbox for mobile, Web Push with a VAPID pair kept in DATA_DIR", async () => {
    const push = await pushFrom(settings(), db, dir);
    expect(push.kind).toBe("outbox");
    const kept = JSON.parse(await readFile(join(dir, "web-push-vapid.json"), "utf8")) as { publicKey: string };
    expect(push.web.publicKey).toBe(kept.publicKey);
    expect((await pushFrom(settings(), db, dir)).web.publicKey).toBe(kept.publicKey);
    expect(push.web.check("http://127.0.0.1:9/push")).not.toBeNull();
    const local = await pushFrom(settings({ WEB_PUSH_HOSTS: "127.0.0.1, push.example.org" }), db, dir);
    expect(local.web.check("http://127.0.0.1:9/push")).toBeNull();
    expect(local.web.check("https://push.example.org/x")).toBeNull();
  });

  it("VAPID keys from the environment win", async () => {
    const vapid = webpush.generateVAPIDKeys();
    const push = await pushFrom(
      settings({ VAPID_PUBLIC_KEY: vapid.publicKey, VAPID_PRIVATE_KEY: vapid.privateKey }),
      db,
      dir,
    );
    expect(push.web.publicKey).toBe(vapid.publicKey);
  });

  it("FCM and APNs when their keys are set, naming a missing setting", async () => {
    const rsa = await pemKeyPair("RS256");
    const ec = await pemKeyPair("ES256");
    const FCM_SERVICE_ACCOUNT = JSON.stringify({
      project_id: "p",
      client_email: "e@p.iam.gserviceaccount.com",
      private_key: rsa.privatePem,
    });
    // A PEM pasted on one line keeps its newlines as \n.
    const APNS_KEY = ec.privatePem.replace(/\n/g, "\\n");
    expect((await pushFrom(settings({ FCM_SERVICE_ACCOUNT }), db, dir)).kind).toBe("fcm");
    const both = await pushFrom(
      settings({ FCM_SERVICE_ACCOUNT, APNS_KEY, APNS_KEY_ID: "K", APNS_TEAM_ID: "T", APNS_TOPIC: "fm.booth" }),
      db,
      dir,
    );
    expect(both.kind).toBe("fcm+apns");
    await both.close();
    // An APNs key without the rest stops the start (config.ts).
    expect(() => settings({ APNS_KEY, APNS_KEY_ID: "K" })).toThrow(
      "APNS_TEAM_ID is required when APNS_KEY or APNS_KEY_PATH is set",
    );
    await expect(pushFrom(settings({ FCM_SERVICE_ACCOUNT: "{}" }), db, dir)).rejects.toThrow(
      /FCM_SERVICE_ACCOUNT has no/,
    );
  });
});
