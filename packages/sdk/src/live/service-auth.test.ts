import { exportJWK, generateKeyPair, type JWTHeaderParameters, SignJWT } from "jose";
import { describe, expect, it } from "vitest";
import { ROOMS_TOKEN_TTL, roomsTokenSource, signRoomsToken, verifyRoomsToken } from "./service-auth.ts";

const secret = "a-secret-the-edge-and-rooms-share-0123";
const now = Date.parse("2026-11-25T12:00:00Z");

describe("rooms tokens", () => {
  it("verifies a token signed with the shared secret, within its minute", async () => {
    const token = await signRoomsToken(secret, now);
    expect(await verifyRoomsToken(token, secret, now)).toBe(true);
    expect(await verifyRoomsToken(token, secret, now + 50_000)).toBe(true);
    // Past its minute (and the 30 s allowed for clocks that disagree), it opens nothing.
    expect(await verifyRoomsToken(token, secret, now + (ROOMS_TOKEN_TTL + 31) * 1000)).toBe(false);
  });

  it("refuses another secret, a short secret, another issuer or audience, an ES256 token and garbage", async () => {
    const token = await signRoomsToken(secret, now);
    expect(await verifyRoomsToken(token, `${secret}-rotated`, now)).toBe(false);
    const short = "too-short";
    expect(await verifyRoomsToken(await signRoomsToken(short, now), short, now)).toBe(false);
    const seconds = Math.floor(now / 1000);
    const claims = { type: "service", roles: [], badges: [] };
    /** A token shaped like the rooms' own but for what each case changes: its algorithm and key, issuer, audience. */
    const forged = (header: JWTHeaderParameters, key: Uint8Array | CryptoKey, issuer: string, audience: string) =>
      new SignJWT(claims)
        .setProtectedHeader(header)
        .setIssuer(issuer)
        .setAudience(audience)
        .setSubject("service:rooms")
        .setIssuedAt(seconds)
        .setExpirationTime(seconds + 60)
        .sign(key);
    const shared = new TextEncoder().encode(secret);
    const otherIssuer = await forged({ alg: "HS256" }, shared, "booth", "booth-edge");
    const otherAudience = await forged({ alg: "HS256" }, shared, "booth-rooms", "someone-else");
    const { privateKey, publicKey } = await generateKeyPair("ES256");
    const es256 = await forged(
      { alg: "ES256", jwk: await exportJWK(publicKey) },
      privateKey,
      "booth-rooms",
      "booth-edge",
    );
    for (const bad of [otherIssuer, otherAudience, es256, "garbage", `${token}x`])
      expect(await verifyRoomsToken(bad, secret, now)).toBe(false);
  });

  it("hands out the same token while it has more than 20 s to live, then a fresh one", async () => {
    let clock = now;
    const next = roomsTokenSource(secret, () => clock);
    const first = await next();
    clock += 30_000;
    expect(await next()).toBe(first);
    clock += 15_000;
    const second = await next();
    expect(second).not.toBe(first);
    expect(await verifyRoomsToken(second, secret, clock + 50_000)).toBe(true);
  });
});
