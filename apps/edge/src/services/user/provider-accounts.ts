import { type Db, schema } from "@booth/db";
import type { LinkedProvider } from "@booth/db/schema";
import { and, eq, sql } from "drizzle-orm";
import type { Context } from "hono";
import { requireUser } from "../../lib/auth.ts";
import type { AppEnv } from "../../lib/context.ts";
import { conflict, forbidden, HttpError, notFound, unauthorized } from "../../lib/errors.ts";
import { isoOrNull } from "../../lib/json-rows.ts";
import { firstRow, returnedRow } from "../../lib/rows.ts";
import { type OAuthClient, OAuthGrantError, requestToken, type TokenSet } from "../../ports/oauth.ts";

export type ProviderAccount = typeof schema.providerAccounts.$inferSelect;

/** Refresh a stored access token this long before it expires. */
const EXPIRY_MARGIN_MS = 60_000;

export const tokenView = (row: ProviderAccount) => ({
  provider: row.provider,
  accessToken: row.accessToken ?? "",
  tokenType: "Bearer",
  expiresAt: isoOrNull(row.accessTokenExpiresAt),
  scope: row.scope,
  providerUserId: row.providerUserId,
});

export async function findLinked(db: Db, userUuid: string, provider: LinkedProvider) {
  const p = schema.providerAccounts;
  return firstRow(db, p, and(eq(p.userUuid, userUuid), eq(p.provider, provider)));
}

/** The provider name a profile lists once an account there is linked (profile.musicProviders). */
const PROFILE_NAME: Partial<Record<LinkedProvider, string>> = {
  spotify: "spotify",
  youtube: "youtube",
  soundcloud: "soundcloud",
  soundcloudMobile: "soundcloud",
  apple: "apple",
};

async function listOnProfile(db: Db, userUuid: string, provider: LinkedProvider, on: boolean) {
  const name = PROFILE_NAME[provider];
  if (!name) return;
  const musicProviders = schema.profiles.musicProviders;
  await db
    .update(schema.profiles)
    .set({
      musicProviders: on
        ? sql`case when ${name} = any(${musicProviders}) then ${musicProviders} else array_append(${musicProviders}, ${name}) end`
        : sql`array_remove(${musicProviders}, ${name})`,
    })
    .where(eq(schema.profiles.userUuid, userUuid));
}

/**
 * Stores what a provider answered for a user (one row per user and provider). A provider that leaves the refresh
 * token out of a refresh keeps the one stored.
 */
export async function saveTokens(
  db: Db,
  input: {
    userUuid: string;
    provider: LinkedProvider;
    tokens: Pick<TokenSet, "accessToken" | "refreshToken" | "expiresIn" | "scope">;
    now: Date;
    providerUserId?: string | null;
    displayName?: string | null;
    details?: Record<string, unknown>;
  },
) {
  const t = schema.providerAccounts;
  const { tokens, now } = input;
  const values = {
    userUuid: input.userUuid,
    provider: input.provider,
    providerUserId: input.providerUserId ?? null,
    displayName: input.displayName ?? null,
    refreshToken: tokens.refreshToken,
    accessToken: tokens.accessToken,
    accessTokenExpiresAt: tokens.expiresIn ? new Date(now.getTime() + tokens.expiresIn * 1000) : null,
    scope: tokens.scope,
    details: input.details ?? {},
    createdAt: now,
    updatedAt: now,
  };
  const row = await returnedRow(
    "provider account upsert",
    db
      .insert(t)
      .values(values)
      .onConflictDoUpdate({
        target: [t.userUuid, t.provider],
        set: {
          refreshToken: sql`coalesce(excluded.refresh_token, ${t.refreshToken})`,
          accessToken: values.accessToken,
          accessTokenExpiresAt: values.accessTokenExpiresAt,
          scope: sql`coalesce(excluded.scope, ${t.scope})`,
          providerUserId: sql`coalesce(excluded.provider_user_id, ${t.providerUserId})`,
          displayName: sql`coalesce(excluded.display_name, ${t.displayName})`,
          ...(input.details ? { details: input.details } : {}),
          updatedAt: now,
        },
      })
      .returning(),
  );
  await listOnProfile(db, input.userUuid, input.provider, true);
  return row;
}

/** Forgets a user's account at a provider; false when there was none. */
export async function unlink(db: Db, userUuid: string, provider: LinkedProvider) {
  const t = schema.providerAccounts;
  const gone = await db
    .delete(t)
    .where(and(eq(t.userUuid, userUuid), eq(t.provider, provider)))
    .returning({ id: t.id });
  if (gone.length) await listOnProfile(db, userUuid, provider, false);
  return gone.length > 0;
}

const reconnect = (name: string) => `The ${name} connection has expired or was revoked: connect ${name} again.`;

/** How long a refresh may hold the per-link lock, and how long others wait for it. */
const LOCK_SECONDS = 30;
const LOCK_WAIT_MS = 20_000;

/**
 * Refreshes the stored access token with the stored refresh token. Providers that rotate refresh tokens
 * (SoundCloud) accept each only once, so refreshes of one link take turns under a lock in the cache; whoever waited
 * takes the token the other refresh stored. The update is also conditional on the refresh token read.
 */
export async function refreshStored(
  c: Context<AppEnv>,
  input: { userUuid: string; provider: LinkedProvider; client: OAuthClient; force: boolean },
): Promise<ProviderAccount> {
  const { db, clock, cache } = c.var.deps;
  const t = schema.providerAccounts;
  const name = input.client.provider;
  const fresh = (r: ProviderAccount) =>
    !!r.accessToken &&
    (!r.accessTokenExpiresAt || r.accessTokenExpiresAt.getTime() - EXPIRY_MARGIN_MS > clock.now().getTime());
  const row = await findLinked(db, input.userUuid, input.provider);
  if (!row) throw notFound(`${name} is not connected for this user.`);
  if (!input.force && fresh(row)) return row;

  const lock = `lock:provider-refresh:${input.provider}:${input.userUuid}`;
  const giveUpAt = Date.now() + LOCK_WAIT_MS;
  while ((await cache.incr(lock, LOCK_SECONDS)) > 1) {
    if (Date.now() > giveUpAt) throw new HttpError(503, `A ${name} refresh is under way, please try again.`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  try {
    // Read again under the lock: a refresh that held it may have stored a new token meanwhile.
    const current = await findLinked(db, input.userUuid, input.provider);
    if (!current) throw notFound(`${name} is not connected for this user.`);
    if (fresh(current) && (!input.force || current.refreshToken !== row.refreshToken)) return current;
    if (!current.refreshToken) throw conflict(reconnect(name));
    let tokens: TokenSet;
    try {
      tokens = await requestToken(
        input.client,
        { grant_type: "refresh_token", refresh_token: current.refreshToken },
        "stored refresh token",
      );
    } catch (err) {
      if (!(err instanceof OAuthGrantError) || err.oauthError !== "invalid_grant") throw err;
      // The provider no longer honours the link: forget it, so the user is asked to connect again.
      await db.delete(t).where(and(eq(t.id, current.id), eq(t.refreshToken, current.refreshToken)));
      await listOnProfile(db, input.userUuid, input.provider, false);
      throw conflict(reconnect(name));
    }
    const now = clock.now();
    const [updated] = await db
      .update(t)
      .set({
        accessToken: tokens.accessToken,
        accessTokenExpiresAt: tokens.expiresIn ? new Date(now.getTime() + tokens.expiresIn * 1000) : null,
        refreshToken: tokens.refreshToken ?? current.refreshToken,
        scope: tokens.scope ?? current.scope,
        updatedAt: now,
      })
      .where(and(eq(t.id, current.id), eq(t.refreshToken, current.refreshToken)))
      .returning();
    if (updated) return updated;
    const winner = await findLinked(db, input.userUuid, input.provider);
    if (!winner?.accessToken) throw conflict(reconnect(name));
    return winner;
  } finally {
    await cache.del(lock);
  }
}

/**
 * Tokens of user `id` go to that user and to service tokens only: never to another user, admins included.
 */
export async function requireSelfOrService(c: Context<AppEnv>, userUuid: string) {
  if (c.var.auth?.type === "service") return;
  if (!c.var.auth) throw unauthorized();
  const { user } = await requireUser(c, { types: ["user", "bot"] });
  if (user.uuid !== userUuid) throw forbidden("Only this user and Booth's services may read this user's tokens.");
}

/** Service tokens only (the live rooms, other services): these routes hand out other users' provider tokens. */
export function requireServiceToken(c: Context<AppEnv>) {
  const claims = c.var.auth;
  if (!claims) throw unauthorized();
  if (claims.type !== "service") throw forbidden("Only Booth's services may call this route.");
}
