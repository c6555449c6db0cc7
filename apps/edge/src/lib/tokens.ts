import { mkdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import {
  type CryptoKey,
  decodeProtectedHeader,
  exportJWK,
  exportSPKI,
  generateKeyPair,
  importJWK,
  type JWK,
  jwtVerify,
  SignJWT,
} from "jose";

export const TOKEN_ALG = "ES256";
export const TOKEN_ISSUER = "booth";

export const TokenType = { user: "user", guest: "guest", bot: "bot", service: "service" } as const;
export type TokenType = (typeof TokenType)[keyof typeof TokenType];

/** How long each kind of token lives, in seconds. A user's session slides: GET /auth/session hands out a fresh one. */
export const TOKEN_TTL: Record<TokenType, number> = {
  user: 7 * 24 * 3600,
  guest: 24 * 3600,
  bot: 365 * 24 * 3600,
  // One call's worth: the edge signs a fresh one for each call to the rooms.
  service: 60,
};

/**
 * What a token is for. A session token is the account's own credential; a live token is the short one a browser hands
 * to what it calls itself (the live room's socket, HLS playlists, listening events), where a page's script or a
 * hostile room could read it, so it opens nothing else. Tokens signed before purposes existed carry none: sessions.
 */
export const TokenPurpose = { session: "session", live: "live" } as const;
export type TokenPurpose = (typeof TokenPurpose)[keyof typeof TokenPurpose];

/** How long a live token lasts: long enough to join a room and reconnect, short if it leaks. */
export const LIVE_TOKEN_TTL = 15 * 60;

export interface TokenClaims {
  sub: string;
  type: TokenType;
  roles: string[];
  badges: string[];
  /** The user's token version when issued; a bump revokes every older token. */
  ver: number;
  purpose: TokenPurpose;
}

/** What signing needs: the purpose defaults to a session. */
export type TokenInput = Omit<TokenClaims, "purpose"> & { purpose?: TokenPurpose };

export interface Keys {
  privateKey: CryptoKey;
  publicKey: CryptoKey;
  publicJwk: JWK;
  publicPem: string;
  kid: string;
  /**
   * Keys this edge signed with before (JWT_PREVIOUS_PUBLIC_KEYS): published in the JWKS and still accepted, so a key
   * rotates without signing everyone out or redeploying the rooms.
   */
  previous: PublicKey[];
}

export interface PublicKey {
  kid: string;
  publicKey: CryptoKey;
  publicJwk: JWK;
}

async function fromJwk(privateJwk: JWK): Promise<Keys> {
  const { d: _d, ...pub } = privateJwk;
  const privateKey = (await importJWK(privateJwk, TOKEN_ALG)) as CryptoKey;
  const publicKey = (await importJWK(pub, TOKEN_ALG)) as CryptoKey;
  const kid = privateJwk.kid ?? "booth";
  return {
    privateKey,
    publicKey,
    publicJwk: { ...pub, kid, alg: TOKEN_ALG, use: "sig" },
    publicPem: await exportSPKI(publicKey),
    kid,
    previous: [],
  };
}

/**
 * The keys with JWT_PREVIOUS_PUBLIC_KEYS added: a JSON array of public ES256 JWKs, each with its `kid`. A private part
 * is refused (it does not belong in a list of public keys), as is the current key's kid.
 */
export async function withPreviousKeys(keys: Keys, json: string | undefined): Promise<Keys> {
  if (!json?.trim()) return keys;
  let list: unknown;
  try {
    list = JSON.parse(json);
  } catch {
    throw new Error(
      "JWT_PREVIOUS_PUBLIC_KEYS is not JSON: it must be an array of public JWKs (ES256), each with a kid.",
    );
  }
  if (!Array.isArray(list)) throw new Error("JWT_PREVIOUS_PUBLIC_KEYS must be an array of public JWKs.");
  const previous: PublicKey[] = [];
  for (const item of list as JWK[]) {
    if (!item || typeof item !== "object" || typeof item.kid !== "string" || !item.kid)
      throw new Error("JWT_PREVIOUS_PUBLIC_KEYS: every key needs a kid.");
    if ("d" in item)
      throw new Error(`JWT_PREVIOUS_PUBLIC_KEYS: key ${item.kid} has a private part; list public keys only.`);
    if (item.kid === keys.kid) throw new Error(`JWT_PREVIOUS_PUBLIC_KEYS: ${item.kid} is the current key's kid.`);
    const { kid, kty, crv, x, y } = item;
    const publicKey = (await importJWK({ kty, crv, x, y }, TOKEN_ALG)) as CryptoKey;
    previous.push({ kid, publicKey, publicJwk: { kty, crv, x, y, kid, alg: TOKEN_ALG, use: "sig" } });
  }
  return { ...keys, previous };
}

/** The JWKS this edge publishes: the current key first, then the previous ones. */
export const jwks = (keys: Keys) => ({ keys: [keys.publicJwk, ...keys.previous.map((k) => k.publicJwk)] });

/**
 * The key that verifies `token`: the one its `kid` names (the current key for tokens without one, signed before keys
 * had ids); null for a kid this edge does not know.
 */
function verificationKey(keys: Keys, token: string): CryptoKey | null {
  let kid: string | undefined;
  try {
    kid = decodeProtectedHeader(token).kid;
  } catch {
    return null;
  }
  if (kid === undefined || kid === keys.kid) return keys.publicKey;
  return keys.previous.find((k) => k.kid === kid)?.publicKey ?? null;
}

export async function generateKeys(): Promise<{ keys: Keys; privateJwk: JWK }> {
  const pair = await generateKeyPair(TOKEN_ALG, { extractable: true });
  const privateJwk = { ...(await exportJWK(pair.privateKey)), kid: crypto.randomUUID() };
  return { keys: await fromJwk(privateJwk), privateJwk };
}

/**
 * JWT_PRIVATE_KEY (a JWK) wins; else the key kept in DATA_DIR; else a new one written there. `required` (production)
 * accepts JWT_PRIVATE_KEY only: a key made up by one instance would sign tokens no other instance accepts.
 */
export async function loadKeys(options: {
  privateJwk?: string | undefined;
  dataDir?: string | undefined;
  required?: boolean | undefined;
}): Promise<Keys> {
  if (options.privateJwk) {
    let jwk: JWK;
    try {
      jwk = JSON.parse(options.privateJwk) as JWK;
    } catch {
      throw new Error("JWT_PRIVATE_KEY is not JSON: it must be a private JWK (ES256).");
    }
    return fromJwk(jwk);
  }
  if (options.required) throw new Error("JWT_PRIVATE_KEY is required: it is the key that signs every token.");
  if (!options.dataDir) return (await generateKeys()).keys;
  const file = join(options.dataDir, "jwt-private.jwk.json");
  try {
    return await fromJwk(JSON.parse(await readFile(file, "utf8")) as JWK);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== "ENOENT") throw err;
  }
  const { keys, privateJwk } = await generateKeys();
  await mkdir(options.dataDir, { recursive: true });
  await writeFile(file, JSON.stringify(privateJwk), { mode: 0o600 });
  return keys;
}

/** Signs a JWT of this edge's (its key, its issuer) for `sub`, valid `ttl` seconds from `nowSeconds`. */
const signJwt = (keys: Keys, jwt: SignJWT, sub: string, nowSeconds: number, ttl: number) =>
  jwt
    .setProtectedHeader({ alg: TOKEN_ALG, kid: keys.kid, typ: "JWT" })
    .setSubject(sub)
    .setIssuer(TOKEN_ISSUER)
    .setIssuedAt(nowSeconds)
    .setExpirationTime(nowSeconds + ttl)
    .sign(keys.privateKey);

/** The payload of a JWT this edge signed (for `audience`, when given), unexpired at `nowSeconds`; null otherwise. */
async function verifyJwt(keys: Keys, jwt: string, nowSeconds: number, audience?: string) {
  const key = verificationKey(keys, jwt);
  if (!key) return null;
  try {
    const { payload } = await jwtVerify(jwt, key, {
      algorithms: [TOKEN_ALG],
      issuer: TOKEN_ISSUER,
      ...(audience === undefined ? {} : { audience }),
      currentDate: new Date(nowSeconds * 1000),
    });
    return payload;
  } catch {
    return null;
  }
}

export async function signToken(keys: Keys, claims: TokenInput, nowSeconds: number, ttl = TOKEN_TTL[claims.type]) {
  const jwt = new SignJWT({
    type: claims.type,
    roles: claims.roles,
    badges: claims.badges,
    ver: claims.ver,
    purpose: claims.purpose ?? TokenPurpose.session,
  });
  return signJwt(keys, jwt, claims.sub, nowSeconds, ttl);
}

export async function verifyToken(keys: Keys, token: string, nowSeconds: number): Promise<TokenClaims | null> {
  return (await verifyTokenUntil(keys, token, nowSeconds))?.claims ?? null;
}

/** The claims of a token this edge signed, with the second it expires (tokens without one are refused by jose). */
export async function verifyTokenUntil(
  keys: Keys,
  token: string,
  nowSeconds: number,
): Promise<{ claims: TokenClaims; expiresAt: number } | null> {
  const payload = await verifyJwt(keys, token, nowSeconds);
  if (!payload) return null;
  const type = payload.type as TokenType;
  if (!payload.sub || !(type in TokenType)) return null;
  const purpose = (payload.purpose ?? TokenPurpose.session) as TokenPurpose;
  // A purpose this edge does not know opens nothing: it may be a newer edge's narrower token.
  if (!Object.values(TokenPurpose).includes(purpose)) return null;
  const claims: TokenClaims = {
    sub: payload.sub,
    type,
    roles: Array.isArray(payload.roles) ? (payload.roles as string[]) : [],
    badges: Array.isArray(payload.badges) ? (payload.badges as string[]) : [],
    ver: typeof payload.ver === "number" ? payload.ver : 0,
    purpose,
  };
  return { claims, expiresAt: payload.exp ?? Number.POSITIVE_INFINITY };
}

/** A token for another process of the platform (the live rooms, the edge calling them), named by `sub`. */
export function serviceToken(keys: Keys, sub: string, now: Date, ttlSeconds = TOKEN_TTL.service) {
  return signToken(
    keys,
    { sub, type: "service", roles: [], badges: [], ver: 0 },
    Math.floor(now.getTime() / 1000),
    ttlSeconds,
  );
}

/**
 * A grant: a short capability for one thing (`audience` says what), named for one holder (`sub`). It carries no
 * token `type`, so no route and no live room takes it for a bearer token; and bearer tokens carry no audience, so no
 * grant check takes one for a grant.
 */
export function signGrant(
  keys: Keys,
  grant: { audience: string; sub: string; claims: Record<string, string> },
  nowSeconds: number,
  ttl: number,
) {
  return signJwt(keys, new SignJWT(grant.claims).setAudience(grant.audience), grant.sub, nowSeconds, ttl);
}

/** The grant's claims when it is ours, for `audience`, and not expired; null otherwise. */
export async function verifyGrant(keys: Keys, grant: string, audience: string, nowSeconds: number) {
  const payload = await verifyJwt(keys, grant, nowSeconds, audience);
  if (!payload || typeof payload.sub !== "string" || "type" in payload) return null;
  return payload as Record<string, unknown> & { sub: string };
}
