/**
 * How the live rooms prove themselves to the edge: each call carries an HS256 token signed with the secret the two
 * share (`BOOTH_SERVICE_SECRET`), lasting a minute. Nothing long-lived is written anywhere, and changing the secret
 * on both sides revokes everything at once. Only jose and Web Crypto: it runs in Workers, Deno and Node.
 *
 * The other way, the edge signs its calls to the rooms with its own ES256 key (and `kid`), which the rooms check
 * against the edge's JWKS.
 */
import { jwtVerify, SignJWT } from "jose";

export const SERVICE_SECRET_MIN_LENGTH = 32;
export const ROOMS_ISSUER = "booth-rooms";
export const EDGE_AUDIENCE = "booth-edge";
export const ROOMS_SUBJECT = "service:rooms";
/** How long a rooms token lasts, in seconds. */
export const ROOMS_TOKEN_TTL = 60;

const key = (secret: string) => new TextEncoder().encode(secret);

/** A token for one call (or a few within the minute) from the rooms to the edge. */
export function signRoomsToken(secret: string, nowMs = Date.now()): Promise<string> {
  const now = Math.floor(nowMs / 1000);
  return new SignJWT({ type: "service", roles: [], badges: [] })
    .setProtectedHeader({ alg: "HS256", typ: "JWT" })
    .setIssuer(ROOMS_ISSUER)
    .setAudience(EDGE_AUDIENCE)
    .setSubject(ROOMS_SUBJECT)
    .setIssuedAt(now)
    .setExpirationTime(now + ROOMS_TOKEN_TTL)
    .sign(key(secret));
}

/** Whether `token` is a rooms token signed with `secret`, for the edge, and not expired (30 s of clock skew at most). */
export async function verifyRoomsToken(token: string, secret: string, nowMs = Date.now()): Promise<boolean> {
  if (secret.length < SERVICE_SECRET_MIN_LENGTH) return false;
  try {
    const { payload } = await jwtVerify(token, key(secret), {
      algorithms: ["HS256"],
      issuer: ROOMS_ISSUER,
      audience: EDGE_AUDIENCE,
      subject: ROOMS_SUBJECT,
      currentDate: new Date(nowMs),
      clockTolerance: 30,
    });
    return payload.type === "service";
  } catch {
    return false;
  }
}

/**
 * A source of rooms tokens: the same token while it has more than 20 s to live, then a fresh one. A busy room does
 * not sign per call, and never sends a token that expires on the way.
 */
export function roomsTokenSource(secret: string, clock: () => number = Date.now): () => Promise<string> {
  let current: { token: Promise<string>; expiresAt: number } | null = null;
  return () => {
    const now = clock();
    if (!current || current.expiresAt - now < 20_000) {
      const token = signRoomsToken(secret, now);
      current = { token, expiresAt: now + ROOMS_TOKEN_TTL * 1000 };
      token.catch(() => {
        current = null;
      });
    }
    return current.token;
  };
}
