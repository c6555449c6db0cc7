import { type Db, schema, type Tx } from "@booth/db";
import { eq, sql } from "drizzle-orm";
import type { Context } from "hono";
import { LRUCache } from "lru-cache";
import type { User } from "../../lib/auth.ts";
import type { AppEnv } from "../../lib/context.ts";
import { errorMessage } from "../../lib/error-codes.ts";
import { HttpError } from "../../lib/errors.ts";
import { isoOrNull } from "../../lib/json-rows.ts";
import { oncePer } from "../../lib/once-per.ts";
import { firstRow, returnedRow } from "../../lib/rows.ts";
import { type Keys, LIVE_TOKEN_TTL, signToken, TOKEN_TTL, TokenPurpose, type TokenType } from "../../lib/tokens.ts";
import { forgetAccount } from "./account-cache.ts";
import { type Profile, publicProfile } from "./public-profiles.ts";

export const ALREADY_REGISTERED = errorMessage("EMAIL_ALREADY_REGISTERED");

export const normalizeEmail = (email: string) => email.trim().toLowerCase();

export const ownProfile = (user: User, profile: Profile) => ({
  ...publicProfile(user, profile),
  allowExplicitAudio: profile.allowExplicitAudio,
  musicProviders: profile.musicProviders,
});

export function userView(user: User, profile: Profile | null | undefined) {
  return {
    uuid: user.uuid,
    email: user.email,
    roles: user.roles,
    badges: user.badges,
    capabilities: user.capabilities,
    isBot: user.roles.includes("bot"),
    botOwnerUuid: user.botOwnerUuid,
    verifiedAt: isoOrNull(user.verifiedAt),
    deactivatedAt: isoOrNull(user.deactivatedAt),
    lastLoginAt: isoOrNull(user.lastLoginAt),
    createdAt: user.createdAt.toISOString(),
    profile: profile ? ownProfile(user, profile) : null,
  };
}

/** A user after a change to their account, dropped from the account cache (`uuid`) so the next request reads it anew. */
export async function changedUser(
  c: Context<AppEnv>,
  uuid: string,
  { user, profile }: { user: User; profile: Profile | null | undefined },
) {
  await forgetAccount(c.var.deps.cache, uuid);
  return userView(user, profile);
}

export async function loadUser(db: Db | Tx, uuid: string) {
  const [row] = await db
    .select()
    .from(schema.users)
    .leftJoin(schema.profiles, eq(schema.profiles.userUuid, schema.users.uuid))
    .where(eq(schema.users.uuid, uuid))
    .limit(1);
  return row ? { user: row.users, profile: row.profiles } : null;
}

export async function findUserByEmail(db: Db | Tx, email: string) {
  return firstRow(db, schema.users, eq(schema.users.email, normalizeEmail(email)));
}

/** A nickname nobody has yet, from the wanted one or the email's local part. */
async function freeNickname(db: Db | Tx, wanted: string) {
  const base =
    wanted
      .replace(/[^\p{L}\p{N}_.-]+/gu, "")
      .slice(0, 24)
      .trim() || "listener";
  for (let attempt = 0; attempt < 20; attempt++) {
    const candidate = attempt === 0 ? base : `${base}${Math.floor(1000 + Math.random() * 9000)}`;
    const [taken] = await db
      .select({ uuid: schema.profiles.userUuid })
      .from(schema.profiles)
      .where(sql`lower(${schema.profiles.nickname}) = lower(${candidate})`)
      .limit(1);
    if (!taken) return candidate;
  }
  return `${base}${crypto.randomUUID().slice(0, 8)}`;
}

export async function nicknameTaken(db: Db | Tx, nickname: string, exceptUuid?: string) {
  const [taken] = await db
    .select({ uuid: schema.profiles.userUuid })
    .from(schema.profiles)
    .where(sql`lower(${schema.profiles.nickname}) = lower(${nickname})`)
    .limit(1);
  return !!taken && taken.uuid !== exceptUuid;
}

export interface NewAccount {
  email?: string | null;
  passwordHash?: string | null;
  nickname?: string | null;
  roles?: User["roles"];
  botOwnerUuid?: string | null;
  emailStatus?: "PENDING_VERIFICATION" | "VERIFIED" | "CREATED_BY_ADMIN";
  now: Date;
}

/** Creates the user, the profile and (with an email) the personal email row, in the caller's transaction. */
export async function createAccount(tx: Tx, input: NewAccount) {
  const email = input.email ? normalizeEmail(input.email) : null;
  if (email && (await findUserByEmail(tx, email))) throw new HttpError(403, ALREADY_REGISTERED);
  if (input.nickname && (await nicknameTaken(tx, input.nickname)))
    throw new HttpError(409, "This nickname is already taken.");
  const user = await returnedRow(
    "user insert",
    tx
      .insert(schema.users)
      .values({
        email,
        passwordHash: input.passwordHash ?? null,
        roles: input.roles ?? ["user"],
        botOwnerUuid: input.botOwnerUuid ?? null,
        verifiedAt: input.emailStatus === "VERIFIED" ? input.now : null,
        createdAt: input.now,
        updatedAt: input.now,
      })
      .returning(),
  );
  const nickname = input.nickname ?? (await freeNickname(tx, email?.split("@")[0] ?? "listener"));
  const [profile] = await tx
    .insert(schema.profiles)
    .values({ userUuid: user.uuid, nickname, createdAt: input.now, updatedAt: input.now })
    .returning();
  if (email) {
    await tx.insert(schema.emails).values({
      userUuid: user.uuid,
      email,
      type: "personal",
      status: input.emailStatus ?? "PENDING_VERIFICATION",
      verifiedAt: input.emailStatus === "VERIFIED" ? input.now : null,
      createdAt: input.now,
    });
  }
  return { user, profile: profile ?? null };
}

/** A signed token for a user or bot, with its expiry: a session unless `purpose` says otherwise. */
export async function issueToken(
  c: Context<AppEnv>,
  user: User,
  type: TokenType = "user",
  purpose: TokenPurpose = TokenPurpose.session,
) {
  const { keys, clock } = c.var.deps;
  const now = Math.floor(clock.now().getTime() / 1000);
  const ttl = purpose === TokenPurpose.live ? LIVE_TOKEN_TTL : TOKEN_TTL[type];
  const accessToken = await signToken(
    keys,
    { sub: user.uuid, type, roles: user.roles, badges: user.badges, ver: user.tokenVersion, purpose },
    now,
    ttl,
  );
  return {
    accessToken,
    tokenType: "Bearer" as const,
    expiresAt: new Date((now + ttl) * 1000).toISOString(),
  };
}

/** The user's profile, or null. */
export async function findProfile(db: Db | Tx, userUuid: string) {
  return firstRow(db, schema.profiles, eq(schema.profiles.userUuid, userUuid));
}

/**
 * Session tokens this process signed lately, by the keys that signed them and what they say. GET /auth/session slides
 * the session: a token signed for the same claims less than SESSION_TOKEN_REUSE_SECONDS ago is answered again rather
 * than signed anew (so the session's end moves on by the minute, not by the request). A change of roles, badges or
 * token version is a new key, so a new token. Bounded; nothing here is shared state.
 */
export const SESSION_TOKEN_REUSE_SECONDS = 60;
type Issued = Awaited<ReturnType<typeof issueToken>>;
const recentSessionTokens = oncePer(
  (_keys: Keys) => new LRUCache<string, Issued & { signedAt: number }>({ max: 10_000 }),
);

export async function sessionToken(c: Context<AppEnv>, user: User, type: TokenType): Promise<Issued> {
  const { keys, clock } = c.var.deps;
  const recent = recentSessionTokens(keys);
  const now = Math.floor(clock.now().getTime() / 1000);
  const key = JSON.stringify([user.uuid, type, user.tokenVersion, user.roles, user.badges]);
  const hit = recent.get(key);
  if (hit && hit.signedAt <= now && now - hit.signedAt < SESSION_TOKEN_REUSE_SECONDS)
    return { accessToken: hit.accessToken, tokenType: hit.tokenType, expiresAt: hit.expiresAt };
  const issued = await issueToken(c, user, type);
  recent.set(key, { ...issued, signedAt: now });
  return issued;
}

/** A user row by uuid, or null. */
export async function findUser(db: Db | Tx, uuid: string) {
  return firstRow(db, schema.users, eq(schema.users.uuid, uuid));
}
