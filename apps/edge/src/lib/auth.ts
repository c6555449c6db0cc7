import { ROOMS_SUBJECT, verifyRoomsToken } from "@booth/sdk/live/service-auth";
import type { Context } from "hono";
import { decodeProtectedHeader } from "jose";
import { LRUCache } from "lru-cache";
import type { AppEnv, User } from "./context.ts";
import { forbidden, HttpError, unauthorized } from "./errors.ts";
import { oncePer } from "./once-per.ts";
import { type Keys, type TokenClaims, TokenPurpose, type TokenType, verifyTokenUntil } from "./tokens.ts";

export type { User };
export type Role = User["roles"][number];

/** Global roles, strongest first. A caller may act on a user only when strictly above that user's highest role. */
export const ROLE_RANK: Record<Role, number> = {
  superUser: 6,
  admin: 5,
  staff: 4,
  globalModerator: 3,
  moderator: 2,
  promoter: 1,
  user: 0,
  bot: 0,
};

export const ADMINS: Role[] = ["superUser", "admin"];
export const STAFF: Role[] = [...ADMINS, "staff"];
export const MODERATORS: Role[] = [...STAFF, "globalModerator", "moderator"];

export const highestRank = (roles: readonly Role[]) => Math.max(0, ...roles.map((r) => ROLE_RANK[r] ?? 0));
/**
 * Whether an account with `callerRoles` may act on another's account: a superUser on anyone, others only on accounts
 * they outrank (an admin does not edit another admin). Acting on one's own account is the caller's to check.
 */
export const outranks = (callerRoles: readonly Role[], targetRoles: readonly Role[]) =>
  callerRoles.includes("superUser") || highestRank(callerRoles) > highestRank(targetRoles);
/** Whether an admin may change this account: their own, or one they outrank. */
export const mayManage = (
  caller: { uuid: string; roles: readonly Role[] },
  target: { uuid: string; roles: readonly Role[] },
) => caller.uuid === target.uuid || outranks(caller.roles, target.roles);
export const hasAnyRole = (roles: readonly Role[], wanted: readonly Role[]) => roles.some((r) => wanted.includes(r));

/** Reads the bearer token, if any. A bad token is the same as none here; routes that need one refuse with 401. */
export async function authenticate(c: Context<AppEnv>) {
  const header = c.req.header("authorization");
  const token = header?.match(/^Bearer\s+(\S+)$/i)?.[1];
  c.set("auth", token ? await claimsOf(c.get("deps"), token) : null);
}

/**
 * The claims of a bearer token: the edge's own ES256 tokens, or the live rooms' one-minute HS256 token signed with
 * the shared secret (a service token). Each kind is verified with its own algorithm only, so neither passes for the
 * other.
 */
async function claimsOf(
  deps: { keys: Keys; clock: { now(): Date }; serviceSecret: string | null },
  token: string,
): Promise<TokenClaims | null> {
  const now = deps.clock.now();
  let alg: string | undefined;
  try {
    alg = decodeProtectedHeader(token).alg;
  } catch {
    return null;
  }
  if (alg !== "HS256") return verifiedClaims(deps.keys, token, Math.floor(now.getTime() / 1000));
  if (!deps.serviceSecret || !(await verifyRoomsToken(token, deps.serviceSecret, now.getTime()))) return null;
  return { sub: ROOMS_SUBJECT, type: "service", roles: [], badges: [], ver: 0, purpose: TokenPurpose.session };
}

/**
 * Tokens this process has verified, by the keys that verified them, until they expire. A token's signature is the
 * same check each time it comes back (an ES256 verify costs more than the rest of a session's request); whether its
 * account still stands is requireUser's question, asked at every request. Bounded; nothing here is shared state.
 */
const VERIFIED_TOKENS_KEPT = 10_000;
const verifiedWith = oncePer(
  (_keys: Keys) => new LRUCache<string, { claims: TokenClaims; expiresAt: number }>({ max: VERIFIED_TOKENS_KEPT }),
);

async function verifiedClaims(keys: Keys, token: string, nowSeconds: number): Promise<TokenClaims | null> {
  const memo = verifiedWith(keys);
  const known = memo.get(token);
  if (known && nowSeconds < known.expiresAt) return known.claims;
  const result = await verifyTokenUntil(keys, token, nowSeconds);
  if (!result) return null;
  memo.set(token, result);
  return result.claims;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export interface Caller {
  claims: TokenClaims;
  /** The account without its password hash (routes that check a password read it themselves). */
  user: User;
}

export const LIVE_TOKEN_REFUSED = "A live token cannot be used here: sign in with your session.";

/** Live tokens open only the routes a browser calls with one itself (`live: true`); anywhere else they are refused. */
function checkPurpose(claims: TokenClaims, live: boolean | undefined) {
  if (claims.purpose === TokenPurpose.live && !live) throw unauthorized(LIVE_TOKEN_REFUSED);
}

/**
 * The signed-in caller, checked against the database: the account exists, is active, is not banned and the token
 * has not been revoked. `types` lists the token kinds accepted (user only, by default); `roles` any of which the
 * caller must hold; `live` admits live tokens too.
 */
export async function requireUser(
  c: Context<AppEnv>,
  options: { types?: TokenType[]; roles?: readonly Role[]; live?: boolean } = {},
): Promise<Caller> {
  const claims = c.var.auth;
  const types = options.types ?? ["user"];
  // Service tokens name no account; they are admitted by requireService, never here.
  if (!claims || claims.type === "service" || !types.includes(claims.type) || !UUID.test(claims.sub))
    throw unauthorized();
  checkPurpose(claims, options.live);
  // The account and whether a ban is in force: the user service reads them (services/user/account-cache.ts, from the
  // shared cache, which every change to them forgets, else one round trip to the database).
  const account = await c.var.readAccount(claims.sub, c.var.deps.clock.now());
  const user = account?.user;
  if (!user || user.deactivatedAt || user.tokenVersion !== claims.ver) throw unauthorized();
  if (account.banned) throw new HttpError(403, "This account is banned.");
  if (options.roles && !hasAnyRole(user.roles, options.roles)) throw forbidden();
  return { claims, user };
}

/** Service-to-service calls (the live rooms, other services): a service token, or an admin acting by hand. */
export async function requireService(c: Context<AppEnv>): Promise<void> {
  const claims = c.var.auth;
  if (claims?.type === "service") return;
  await requireUser(c, { roles: ADMINS });
}

/** A service token, or a signed-in user holding one of `roles`: answers the user, or null for a service. */
export async function requireServiceOrRole(c: Context<AppEnv>, roles: readonly Role[]): Promise<User | null> {
  if (c.var.auth?.type === "service") return null;
  return (await requireUser(c, { roles })).user;
}

/** The claims of any valid token (user, guest, bot or service); live tokens only with `live`. */
export function requireToken(c: Context<AppEnv>, options: { live?: boolean } = {}): TokenClaims {
  if (!c.var.auth) throw unauthorized();
  checkPurpose(c.var.auth, options.live);
  return c.var.auth;
}

// Routes import these from here; they live in files of their own.
export { addressBucket, clientAddress } from "./client-address.ts";
export { accountAttempt, rateLimit } from "./rate-limit.ts";
