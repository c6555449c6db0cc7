/**
 * How the edge and the live rooms prove themselves to each other: the edge's JWKS (with key rotation), and the
 * rooms' one-minute HS256 tokens from the shared secret, accepted on service routes and nowhere else.
 */
import { ROOMS_TOKEN_TTL, signRoomsToken } from "@booth/sdk/live/service-auth";
import { createLocalJWKSet, decodeProtectedHeader, jwtVerify } from "jose";
import { describe, expect, it } from "vitest";
import { openTestApp } from "../testing.ts";
import { generateKeys, type Keys, serviceToken, signToken, withPreviousKeys } from "./tokens.ts";

const t = openTestApp();

const R = "/api/room-service";

async function room() {
  const owner = await t.createUser();
  const res = await t.request("POST", `${R}/rooms/infrastructure`, { token: owner.token, body: { name: "Keys room" } });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.uuid as string;
}

describe("the edge's JWKS", () => {
  it("publishes the key every token names by kid, and the rooms' way of verifying accepts the edge's tokens", async () => {
    const res = await t.app.request("/.well-known/jwks.json");
    expect(res.status).toBe(200);
    expect(res.headers.get("cache-control")).toBe("public, max-age=300");
    const set = (await res.json()) as { keys: Record<string, unknown>[] };
    expect(set.keys).toHaveLength(1);
    expect(set.keys[0]).toMatchObject({ kid: t.deps.keys.kid, alg: "ES256", use: "sig", kty: "EC", crv: "P-256" });
    expect(set.keys[0]).not.toHaveProperty("d");
    const { token } = await t.createUser();
    for (const signed of [token, await serviceToken(t.deps.keys, "service:edge", t.clock.now())]) {
      expect(decodeProtectedHeader(signed).kid).toBe(t.deps.keys.kid);
      const { payload } = await jwtVerify(signed, createLocalJWKSet(set as never), {
        issuer: "booth",
        currentDate: t.clock.now(),
      });
      expect(payload.sub).toBeTruthy();
    }
  });

  it("keeps accepting a previous key's tokens while JWT_PREVIOUS_PUBLIC_KEYS lists it, and none after", async () => {
    const old = await generateKeys();
    const { user } = await t.createUser();
    const seconds = Math.floor(t.clock.now().getTime() / 1000);
    const oldToken = await signToken(
      old.keys,
      { sub: user.uuid, type: "user", roles: user.roles, badges: [], ver: user.tokenVersion },
      seconds,
    );
    const current = t.deps.keys;
    const session = () => t.request("GET", "/api/user-service/auth/session", { token: oldToken });
    expect((await session()).status).toBe(401);
    t.deps.keys = await withPreviousKeys(current, JSON.stringify([old.keys.publicJwk]));
    try {
      expect((await session()).status).toBe(200);
      const set = (await (await t.app.request("/.well-known/jwks.json")).json()) as { keys: { kid: string }[] };
      expect(set.keys.map((k) => k.kid)).toEqual([current.kid, old.keys.kid]);
    } finally {
      t.deps.keys = current;
    }
    expect((await session()).status).toBe(401);
  });

  it("refuses a list of previous keys that is not one: private parts, no kid, the current kid, not JSON", async () => {
    const keys: Keys = t.deps.keys;
    const other = await generateKeys();
    const privateJwk = other.privateJwk;
    await expect(withPreviousKeys(keys, "{nope")).rejects.toThrow(/not JSON/);
    await expect(withPreviousKeys(keys, JSON.stringify({}))).rejects.toThrow(/array/);
    await expect(withPreviousKeys(keys, JSON.stringify([privateJwk]))).rejects.toThrow(/private part/);
    const { kid: _kid, ...noKid } = other.keys.publicJwk;
    await expect(withPreviousKeys(keys, JSON.stringify([noKid]))).rejects.toThrow(/kid/);
    await expect(withPreviousKeys(keys, JSON.stringify([{ ...other.keys.publicJwk, kid: keys.kid }]))).rejects.toThrow(
      /current key/,
    );
    expect((await withPreviousKeys(keys, "")).previous).toEqual([]);
  });
});

describe("the rooms' tokens", () => {
  it("open a service route when signed with the shared secret, within their minute", async () => {
    const uuid = await room();
    const token = await signRoomsToken(t.serviceSecret, t.clock.now().getTime());
    const res = await t.request("GET", `${R}/rooms/service/room/${uuid}`, { token });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.uuid).toBe(uuid);
  });

  it("are refused with another secret, once expired, or when the edge has no secret; a user's token stays refused", async () => {
    const uuid = await room();
    const path = `${R}/rooms/service/room/${uuid}`;
    const now = t.clock.now().getTime();
    const wrong = await signRoomsToken(`${t.serviceSecret}-not-it`, now);
    const expired = await signRoomsToken(t.serviceSecret, now - (ROOMS_TOKEN_TTL + 60) * 1000);
    for (const token of [wrong, expired]) expect((await t.request("GET", path, { token })).status).toBe(401);
    const good = await signRoomsToken(t.serviceSecret, now);
    const secret = t.deps.serviceSecret;
    t.deps.serviceSecret = null;
    try {
      expect((await t.request("GET", path, { token: good })).status).toBe(401);
    } finally {
      t.deps.serviceSecret = secret;
    }
    const user = await t.createUser();
    expect((await t.request("GET", path, { token: user.token })).status).toBe(403);
  });

  it("name no account: a rooms token opens no route for people", async () => {
    const token = await signRoomsToken(t.serviceSecret, t.clock.now().getTime());
    expect((await t.request("GET", "/api/user-service/auth/session", { token })).status).toBe(401);
  });
});
