import { createHmac } from "node:crypto";
import { inflateSync } from "node:zlib";
import { schema } from "@booth/db";
import { describe, expect, it } from "vitest";
import { defaultConfig } from "../../deps.ts";
import { FAKE_CREDENTIALS } from "../../testing/fake-providers.ts";
import { withProviderApps } from "../../testing/provider-apps.ts";
import { expectRefusal, ok, type TestApp, withTestApp } from "../../testing.ts";
import { AGORA_MESSAGES, AGORA_TOKEN_SECONDS } from "./agora.ts";

/**
 * Agora's AccessToken2 ("007" tokens), read and checked independently of the library that makes them: "007", then
 * base64 of zlib(signature, appId, issueTs, expire, salt, services), little-endian, strings with a u16 length; the
 * signature is HMAC-SHA256 keyed by HMAC(salt, HMAC(issueTs, certificate)).
 */
function readToken(token: string, certificate: string) {
  expect(token.startsWith("007")).toBe(true);
  const buf = inflateSync(Buffer.from(token.slice(3), "base64"));
  let at = 0;
  const u16 = () => {
    const v = buf.readUInt16LE(at);
    at += 2;
    return v;
  };
  const u32 = () => {
    const v = buf.readUInt32LE(at);
    at += 4;
    return v;
  };
  const bytes = () => {
    const n = u16();
    const out = buf.subarray(at, at + n);
    at += n;
    return out;
  };
  const signature = bytes();
  const signed = buf.subarray(at);
  const appId = bytes().toString();
  const issueTs = u32();
  const expire = u32();
  const salt = u32();
  const services: { type: number; privileges: Record<number, number>; channel: string; uid: string }[] = [];
  for (let count = u16(); count > 0; count--) {
    const type = u16();
    const privileges: Record<number, number> = {};
    for (let p = u16(); p > 0; p--) privileges[u16()] = u32();
    services.push({ type, privileges, channel: bytes().toString(), uid: bytes().toString() });
  }
  const le32 = (n: number) => {
    const b = Buffer.alloc(4);
    b.writeUInt32LE(n);
    return b;
  };
  const key = createHmac("sha256", le32(salt))
    .update(createHmac("sha256", le32(issueTs)).update(certificate).digest())
    .digest();
  const valid = createHmac("sha256", key).update(signed).digest().equals(signature);
  return { appId, issueTs, expire, salt, services, valid };
}

describe("the AccessToken2 reader used by these tests", () => {
  it("accepts Agora's published test vector and refuses it with another certificate", () => {
    // From Agora's AccessToken2 tests: ts 1111111, salt 1, expire 600, join privilege 600, uid 2882341273.
    const vector =
      "007eJxTYBBbsMMnKq7p9Hf/HcIX5kce9b518kCiQgSr5Zrp4X1Tu6UUGCzNDZwdjU1TUs0Mkk1MzExMk5ISUy0SjQxNDcwMk4yN3b8IMEQwMTAwMoAwBIL4CgzmKeZGxmamqUmWFsYmFqbGluapxqnGaZYpJmYGSSkpiVwMRhYWRsYmhkbmxgDCaiTj";
    const read = readToken(vector, FAKE_CREDENTIALS.agora.certificate);
    expect(read).toMatchObject({
      valid: true,
      appId: FAKE_CREDENTIALS.agora.appId,
      issueTs: 1111111,
      expire: 600,
      salt: 1,
      services: [{ type: 1, privileges: { 1: 600 }, channel: "7d72365eb983485397e3e3f9d460bdda", uid: "2882341273" }],
    });
    expect(readToken(vector, "0".repeat(32)).valid).toBe(false);
  });
});

let t: TestApp;
let bare: TestApp;
withProviderApps({ bare: true }, (apps) => ({ t, bare } = apps));

const U = "/api/user-service";

async function makeRoom(app: TestApp, ownerUuid: string, extra: Partial<typeof schema.rooms.$inferInsert> = {}) {
  const [room] = await app.db
    .insert(schema.rooms)
    .values({ slug: `room-${crypto.randomUUID().slice(0, 8)}`, name: "Live", ownerUuid, liveAudio: true, ...extra })
    .returning();
  if (!room) throw new Error("no room");
  return room;
}

describe("POST /agora/token", () => {
  it("gives a listener a signed token for the room's channel, for their uuid", async () => {
    const owner = await t.createUser();
    const listener = await t.createUser();
    const room = await makeRoom(t, owner.user.uuid);
    const res = await t
      .api(listener.token)
      .user.POST("/agora/token", { body: { channelName: room.uuid, role: "SUBSCRIBER" } });
    expect(res.response.status).toBe(200);
    expect(res.data).toMatchObject({
      appId: FAKE_CREDENTIALS.agora.appId,
      channelName: room.uuid,
      account: listener.user.uuid,
      uid: null,
      role: "SUBSCRIBER",
      expiresAt: new Date(t.clock.now().getTime() + AGORA_TOKEN_SECONDS * 1000).toISOString(),
    });
    const read = readToken(ok(res).token, FAKE_CREDENTIALS.agora.certificate);
    expect(read.valid).toBe(true);
    expect(read.expire).toBe(AGORA_TOKEN_SECONDS);
    expect(read.services).toEqual([
      { type: 1, privileges: { 1: AGORA_TOKEN_SECONDS }, channel: room.uuid, uid: listener.user.uuid },
    ]);
  });

  it("lets the owner speak (publish privileges), with a numeric uid when asked", async () => {
    const owner = await t.createUser();
    const room = await makeRoom(t, owner.user.uuid);
    const res = await t
      .api(owner.token)
      .user.POST("/agora/token", { body: { channelName: room.uuid, role: "PUBLISHER", uid: 42 } });
    expect(res.response.status).toBe(200);
    expect(res.data).toMatchObject({ uid: 42, account: null, role: "PUBLISHER" });
    const read = readToken(ok(res).token, FAKE_CREDENTIALS.agora.certificate);
    expect(read.services[0]?.uid).toBe("42");
    expect(Object.keys(read.services[0]?.privileges ?? {}).sort()).toEqual(["1", "2", "3", "4"]);
  });

  it("lets a DJ of the room speak, and refuses speaking to an ordinary listener", async () => {
    const { owner, dj, listener } = await t.createUsers("owner", "dj", "listener");
    const room = await makeRoom(t, owner.user.uuid);
    await t.db.insert(schema.roomUserRoles).values({ roomUuid: room.uuid, userUuid: dj.user.uuid, role: "dj" });
    const body = { channelName: room.uuid, role: "PUBLISHER" as const };
    expect((await t.api(dj.token).user.POST("/agora/token", { body })).response.status).toBe(200);
    const refused = await t.api(listener.token).user.POST("/agora/token", { body });
    expectRefusal(refused, 403, AGORA_MESSAGES.notSpeaker);
  });

  it("refuses banned listeners, guests in private rooms, and rooms without live audio", async () => {
    const owner = await t.createUser();
    const banned = await t.createUser();
    const room = await makeRoom(t, owner.user.uuid);
    await t.db.insert(schema.roomUserRoles).values({ roomUuid: room.uuid, userUuid: banned.user.uuid, role: "banned" });
    const body = { channelName: room.uuid };
    // Raw: without a role, which the route defaults (SUBSCRIBER) though the contract marks it required.
    const res = await t.request("POST", "/api/user-service/agora/token", { token: banned.token, body });
    expectRefusal(res, 403, "You are banned from this room.");

    const guest = ok(await t.api().user.GET("/auth/guest")).accessToken;
    // Raw: without a role, which the route defaults (SUBSCRIBER) though the contract marks it required.
    expect((await t.request("POST", "/api/user-service/agora/token", { token: guest, body })).status).toBe(200);
    const secret = await makeRoom(t, owner.user.uuid, { type: "PRIVATE" });
    // Raw: without a role, which the route defaults (SUBSCRIBER) though the contract marks it required.
    const guestInPrivate = await t.request("POST", "/api/user-service/agora/token", {
      token: guest,
      body: { channelName: secret.uuid },
    });
    expect(guestInPrivate.status).toBe(403);
    // A signed-in listener of a private room must be in it first.
    const stranger = await t.createUser();
    // Raw: without a role, which the route defaults (SUBSCRIBER) though the contract marks it required.
    const outside = await t.request("POST", "/api/user-service/agora/token", {
      token: stranger.token,
      body: { channelName: secret.uuid },
    });
    expectRefusal(outside, 403, "Join the room first.");
    await t.db.insert(schema.roomPresence).values({ roomUuid: secret.uuid, userUuid: stranger.user.uuid });
    // Raw: without a role, which the route defaults (SUBSCRIBER) though the contract marks it required.
    const inside = await t.request("POST", "/api/user-service/agora/token", {
      token: stranger.token,
      body: { channelName: secret.uuid },
    });
    expect(inside.status).toBe(200);

    const quiet = await makeRoom(t, owner.user.uuid, { liveAudio: false });
    // Raw: without a role, which the route defaults (SUBSCRIBER) though the contract marks it required.
    const off = await t.request("POST", "/api/user-service/agora/token", {
      token: owner.token,
      body: { channelName: quiet.uuid },
    });
    expectRefusal(off, 409, AGORA_MESSAGES.audioOff);
  });

  it("answers 401 without a token, 404 for an unknown room, 400 for bad input", async () => {
    const me = await t.createUser();
    const room = await makeRoom(t, me.user.uuid);
    // Raw: without a role, which the route defaults (SUBSCRIBER) though the contract marks it required.
    expect(
      (await t.request("POST", "/api/user-service/agora/token", { body: { channelName: room.uuid } })).status,
    ).toBe(401);
    // Raw: without a role, which the route defaults (SUBSCRIBER) though the contract marks it required.
    const unknown = await t.request("POST", "/api/user-service/agora/token", {
      token: me.token,
      body: { channelName: crypto.randomUUID() },
    });
    expect(unknown.status).toBe(404);
    // Raw: malformed input, which the typed client cannot send.
    for (const body of [
      {},
      { channelName: "lobby" },
      { channelName: room.uuid, role: "HOST" },
      { channelName: room.uuid, uid: 0 },
      { channelName: room.uuid, uid: 2 ** 32 },
      { channelName: room.uuid, extra: true },
    ]) {
      const res = await t.request("POST", `${U}/agora/token`, { token: me.token, body });
      expect(res.status, JSON.stringify(body)).toBe(400);
    }
  });

  it("answers 503 naming the settings when Agora is not configured", async () => {
    const me = await bare.createUser();
    const room = await makeRoom(bare, me.user.uuid);
    // Raw: without a role, which the route defaults (SUBSCRIBER) though the contract marks it required.
    const res = await bare.request("POST", "/api/user-service/agora/token", {
      token: me.token,
      body: { channelName: room.uuid },
    });
    expectRefusal(res, 503, "Agora is not configured: set AGORA_APP_ID and AGORA_APP_CERTIFICATE.");
  });

  it("answers 503 when the credentials are not in Agora's format", async () => {
    const integrations = { agoraAppId: "short", agoraAppCertificate: "short" };
    await withTestApp({ config: { ...defaultConfig, integrations } }, async (odd) => {
      const me = await odd.createUser();
      const room = await makeRoom(odd, me.user.uuid);
      const res = await odd.request("POST", `${U}/agora/token`, { token: me.token, body: { channelName: room.uuid } });
      expectRefusal(res, 503, AGORA_MESSAGES.badCredentials);
    });
  });
});
