import { exportJWK, generateKeyPair, SignJWT } from "jose";
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
    const key = new TextEncoder().encode(secret);
    const claims = { type: "service", roles: [], badges: [] };
    const otherIssuer = await new SignJWT(claims)
      .setProtectedHeader({ alg: "HS256" })
      .setIssuer("booth")
      .setAudience("booth-edge")
      .setSubject("service:rooms")
      .setIssuedAt(seconds)
      .setExpirationTime(seconds + 60)
      .sign(key);
    const otherAudience = await new SignJWT(claims)
      .setProtectedHeader({ alg: "HS256" })
      .setIssuer("booth-rooms")
      .setAudience("someone-else")
      .setSubject("service:rooms")
      .setIssuedAt(seconds)
      .setExpirationTime(seconds + 60)
      .sign(key);
    const { privateKey, publicKey } = await generateKeyPair("ES256");
    const es256 = await new SignJWT(claims)
      .setProtectedHeader({ alg: "ES256", jwk: await exportJWK(publicKey) })
      .setIssuer("booth-rooms")
      .setAudience("booth-edge")
      .setSubject("service:rooms")
      .setIssuedAt(seconds)
      .setExpirationTime(seconds + 60)
      .sign(privateKey);
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
