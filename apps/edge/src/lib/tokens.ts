import { mkdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { type CryptoKey, exportJWK, exportSPKI, generateKeyPair, importJWK, type JWK, jwtVerify, SignJWT } from "jose";

export const TOKEN_ALG = "ES256";
export const TOKEN_ISSUER = "booth";

export const TokenType = { user: "user", guest: "guest", bot: "bot", service: "service" } as const;
export type TokenType = (typeof TokenType)[keyof typeof TokenType];

/** How long each kind of token lives, in seconds. A user's session slides: GET /auth/session hands out a fresh one. */
export const TOKEN_TTL: Record<TokenType, number> = {
  user: 7 * 24 * 3600,
  guest: 24 * 3600,
  bot: 365 * 24 * 3600,
  service: 3600,
};

export interface TokenClaims {
  sub: string;
  type: TokenType;
  roles: string[];
  badges: string[];
  /** The user's token version when issued; a bump revokes every older token. */
  ver: number;
}

export interface Keys {
  privateKey: CryptoKey;
  publicKey: CryptoKey;
  publicJwk: JWK;
  publicPem: string;
  kid: string;
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
  };
}

export async function generateKeys(): Promise<{ keys: Keys; privateJwk: JWK }> {
  const pair = await generateKeyPair(TOKEN_ALG, { extractable: true });
  const privateJwk = { ...(await exportJWK(pair.privateKey)), kid: crypto.randomUUID() };
  return { keys: await fromJwk(privateJwk), privateJwk };
}

/** JWT_PRIVATE_KEY (a JWK) wins; else the key kept in DATA_DIR; else a new one written there. */
export async function loadKeys(options: {
  privateJwk?: string | undefined;
  dataDir?: string | undefined;
}): Promise<Keys> {
  if (options.privateJwk) return fromJwk(JSON.parse(options.privateJwk) as JWK);
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

export async function signToken(keys: Keys, claims: TokenClaims, nowSeconds: number, ttl = TOKEN_TTL[claims.type]) {
  return new SignJWT({ type: claims.type, roles: claims.roles, badges: claims.badges, ver: claims.ver })
    .setProtectedHeader({ alg: TOKEN_ALG, kid: keys.kid, typ: "JWT" })
    .setSubject(claims.sub)
    .setIssuer(TOKEN_ISSUER)
    .setIssuedAt(nowSeconds)
    .setExpirationTime(nowSeconds + ttl)
    .sign(keys.privateKey);
}

export async function verifyToken(keys: Keys, token: string, nowSeconds: number): Promise<TokenClaims | null> {
  try {
    const { payload } = await jwtVerify(token, keys.publicKey, {
      algorithms: [TOKEN_ALG],
      issuer: TOKEN_ISSUER,
      currentDate: new Date(nowSeconds * 1000),
    });
    const type = payload.type as TokenType;
    if (!payload.sub || !(type in TokenType)) return null;
    return {
      sub: payload.sub,
      type,
      roles: Array.isArray(payload.roles) ? (payload.roles as string[]) : [],
      badges: Array.isArray(payload.badges) ? (payload.badges as string[]) : [],
      ver: typeof payload.ver === "number" ? payload.ver : 0,
    };
  } catch {
    return null;
  }
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
