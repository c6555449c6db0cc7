import type { TokenRole } from "@booth/sdk/live/protocol";
import { importSPKI, jwtVerify } from "jose";

export interface Claims {
  sub: string;
  type: TokenRole | "service";
  roles: string[];
  badges: string[];
}

const TYPES = ["user", "bot", "guest", "service"] as const;

/** Verifies an edge token (ES256, issuer "booth") against the edge's public key; null when it is not valid. */
export async function verifyToken(token: string, publicKey: CryptoKey, nowMs = Date.now()): Promise<Claims | null> {
  try {
    const { payload } = await jwtVerify(token, publicKey, {
      algorithms: ["ES256"],
      issuer: "booth",
      currentDate: new Date(nowMs),
    });
    const type = payload.type as Claims["type"];
    if (typeof payload.sub !== "string" || !TYPES.includes(type)) return null;
    const strings = (v: unknown) => (Array.isArray(v) ? v.filter((x): x is string => typeof x === "string") : []);
    return { sub: payload.sub, type, roles: strings(payload.roles), badges: strings(payload.badges) };
  } catch {
    return null;
  }
}

export const importPublicKey = (pem: string) => importSPKI(pem, "ES256") as Promise<CryptoKey>;

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
