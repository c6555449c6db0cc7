import type { TokenRole } from "@booth/sdk/live/protocol";
import { createRemoteJWKSet, errors, type JWTVerifyGetKey, jwtVerify } from "jose";

export interface Claims {
  sub: string;
  type: TokenRole | "service";
  roles: string[];
  badges: string[];
}

const TYPES = ["user", "bot", "guest", "service"] as const;

/** The edge's keys could not be read: the token can be neither accepted nor refused. */
export class EdgeUnreachable extends Error {}

/**
 * The edge's public keys, from its JWKS (`/.well-known/jwks.json`), one set per isolate and edge. jose caches the set
 * and reads it again when a token names a key it has not seen (a rotated key), at most every 30 s.
 */
const keySets = new Map<string, JWTVerifyGetKey>();
export function edgeKeys(edgeUrl: string): JWTVerifyGetKey {
  const base = edgeUrl.replace(/\/+$/, "");
  let set = keySets.get(base);
  if (!set) {
    set = createRemoteJWKSet(new URL(`${base}/.well-known/jwks.json`), { timeoutDuration: 8000 });
    keySets.set(base, set);
  }
  return set;
}

/**
 * Verifies an edge token (ES256, issuer "booth") against the edge's keys: the claims, or null when it is not valid.
 * Throws `EdgeUnreachable` when the keys cannot be read.
 */
export async function verifyToken(
  token: string,
  keys: CryptoKey | JWTVerifyGetKey,
  nowMs = Date.now(),
): Promise<Claims | null> {
  let payload: Record<string, unknown>;
  try {
    const options = { algorithms: ["ES256"], issuer: "booth", currentDate: new Date(nowMs) };
    ({ payload } =
      typeof keys === "function" ? await jwtVerify(token, keys, options) : await jwtVerify(token, keys, options));
  } catch (err) {
    if (unreachable(err)) throw new EdgeUnreachable(`The edge's keys could not be read: ${(err as Error).message}`);
    return null;
  }
  const type = payload.type as Claims["type"];
  if (typeof payload.sub !== "string" || !TYPES.includes(type)) return null;
  const strings = (v: unknown) => (Array.isArray(v) ? v.filter((x): x is string => typeof x === "string") : []);
  return { sub: payload.sub, type, roles: strings(payload.roles), badges: strings(payload.badges) };
}

/** A failure to read the key set, as opposed to a token that is not good. */
function unreachable(err: unknown) {
  if (err instanceof errors.JWKSTimeout || err instanceof errors.JWKSInvalid) return true;
  // The set answered with an error status, or not as JSON.
  if (err instanceof errors.JOSEError) return /JSON Web Key Set HTTP response/.test(err.message);
  // fetch's own failures (refused, reset).
  return err instanceof TypeError;
}

/** The bearer token of a request: the Authorization header, or `?token=` (browsers cannot set headers on sockets). */
export function tokenOf(request: { headers: Headers; url: string }): string | null {
  const header = request.headers.get("authorization")?.match(/^Bearer\s+(\S+)$/i)?.[1];
  if (header) return header;
  try {
    return new URL(request.url).searchParams.get("token");
  } catch {
    return null;
  }
}
