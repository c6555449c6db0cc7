import { type Db, schema } from "@booth/db";
import { and, eq } from "drizzle-orm";
import type { Context } from "hono";
import type { AppEnv } from "../../lib/context.ts";
import { isUniqueViolation, uniqueOr } from "../../lib/db-errors.ts";
import { inDiscordMode } from "../../lib/discord-mode.ts";
import { conflict, HttpError } from "../../lib/errors.ts";
import { discordOAuthClient, type IntegrationsConfig, PROVIDER_URLS, trimSlash } from "../../ports/integrations.ts";
import { providerJson, requestToken } from "../../ports/oauth.ts";
import { createAccount, findUserByEmail, nicknameTaken } from "./accounts.ts";

export const DISCORD_MESSAGES = {
  linkedElsewhere: "This Discord account is linked to another Booth account.",
  emailTaken:
    "A Booth account already uses this Discord account's email: sign in to it and link Discord from your settings.",
  foreignToken: "This Discord access token was not issued to Booth.",
  tokenRefused: "Discord refused the access token.",
  deactivated: "This account is deactivated.",
  banned: "This account is banned.",
} as const;

/** Booth's Discord app (a 503 naming the missing settings when it is not configured). */
export function discordSettings(integrations: IntegrationsConfig | undefined) {
  const i = integrations ?? {};
  const apiUrl = trimSlash(i.discordApiUrl || PROVIDER_URLS.discordApi);
  return { client: discordOAuthClient(i, apiUrl), apiUrl, redirectUri: i.discordRedirectUri };
}

export interface DiscordGrant {
  code?: string | undefined;
  redirectUri?: string | undefined;
  accessToken?: string | undefined;
}

export type DiscordSettings = ReturnType<typeof discordSettings>;

interface DiscordUser {
  id: string;
  username: string;
  globalName: string | null;
  email: string | null;
  verified: boolean;
}

/**
 * Exchanges a Discord authorization code for Discord's tokens. A code from Discord's consent screen was issued for a
 * redirect URI (the one given, else DISCORD_REDIRECT_URI); the Activity's (the SDK's `authorize`) for none, so
 * `activity` sends none unless one is given.
 */
export const exchange = (
  settings: DiscordSettings,
  code: string,
  redirectUri: string | undefined,
  options: { activity?: boolean } = {},
) => {
  const { client, redirectUri: configured } = settings;
  return requestToken(
    client,
    {
      grant_type: "authorization_code",
      code,
      redirect_uri: redirectUri ?? (options.activity ? undefined : configured),
    },
    "authorization code",
  );
};

/** The Discord user behind a code (exchanged here) or an access token (checked to be one Discord issued to Booth). */
export async function discordUser(settings: DiscordSettings, grant: DiscordGrant): Promise<DiscordUser> {
  const { client, apiUrl } = settings;
  let accessToken: string;
  if (grant.code) accessToken = (await exchange(settings, grant.code, grant.redirectUri)).accessToken;
  else {
    accessToken = grant.accessToken ?? "";
    // A token another Discord app obtained must not sign anyone in here.
    const info = await providerJson("Discord", `${apiUrl}/oauth2/@me`, {
      headers: { authorization: `Bearer ${accessToken}` },
      tokenRefused: DISCORD_MESSAGES.tokenRefused,
    });
    const appId = (info.application as { id?: unknown } | undefined)?.id;
    if (appId !== client.clientId) throw new HttpError(400, DISCORD_MESSAGES.foreignToken);
  }
  const me = await providerJson("Discord", `${apiUrl}/users/@me`, {
    headers: { authorization: `Bearer ${accessToken}` },
    tokenRefused: DISCORD_MESSAGES.tokenRefused,
  });
  if (typeof me.id !== "string" || !me.id) throw new HttpError(502, "Discord answered without a user id.");
  return {
    id: me.id,
    username: typeof me.username === "string" ? me.username : me.id,
    globalName: typeof me.global_name === "string" ? me.global_name : null,
    email: typeof me.email === "string" && me.email ? me.email : null,
    verified: me.verified === true,
  };
}

/** The ids of the guilds a Discord user is in (Discord's `GET /users/@me/guilds`, the `guilds` scope). */
export async function discordGuildIds(settings: DiscordSettings, accessToken: string): Promise<string[]> {
  const guilds = await providerJson("Discord", `${settings.apiUrl}/users/@me/guilds`, {
    headers: { authorization: `Bearer ${accessToken}` },
    tokenRefused: DISCORD_MESSAGES.tokenRefused,
  });
  if (!Array.isArray(guilds)) throw new HttpError(502, "Discord answered without a list of guilds.");
  return guilds.map((g) => (g as { id?: unknown }).id).filter((id): id is string => typeof id === "string");
}

export async function linkedUserUuid(db: Db, discordId: string) {
  const [row] = await db
    .select({ userUuid: schema.providerAccounts.userUuid })
    .from(schema.providerAccounts)
    .where(and(eq(schema.providerAccounts.provider, "discord"), eq(schema.providerAccounts.providerUserId, discordId)))
    .limit(1);
  return row?.userUuid ?? null;
}

/**
 * Whether the caller may be offered explicit songs: always outside Discord mode (search asks for them with
 * `explicit=true`); in Discord mode only a signed-in user whose profile allows explicit audio (lib/discord-mode.ts).
 */
export async function explicitAudioAllowed(c: Context<AppEnv>): Promise<boolean> {
  if (!inDiscordMode(c)) return true;
  const auth = c.get("auth");
  if (auth?.type !== "user") return false;
  const [row] = await c.var.deps.db
    .select({ allowed: schema.profiles.allowExplicitAudio })
    .from(schema.profiles)
    .where(eq(schema.profiles.userUuid, auth.sub))
    .limit(1);
  return row?.allowed === true;
}

/** Whether a Booth account has a Discord account linked (it may wear `discordOnly` avatars). */
export async function hasDiscordLink(db: Db, userUuid: string) {
  const [row] = await db
    .select({ one: schema.providerAccounts.userUuid })
    .from(schema.providerAccounts)
    .where(and(eq(schema.providerAccounts.provider, "discord"), eq(schema.providerAccounts.userUuid, userUuid)))
    .limit(1);
  return !!row;
}

/** The Discord name as a Booth nickname nobody has yet (null: let the account pick one). */
async function nicknameFrom(db: Db, discord: DiscordUser) {
  const base = (discord.globalName ?? discord.username)
    .replace(/[^\p{L}\p{N}_.\- ]+/gu, "")
    .trim()
    .slice(0, 24)
    .trim();
  if (base.length < 2) return null;
  for (let attempt = 0; attempt < 10; attempt++) {
    const candidate = attempt === 0 ? base : `${base}${Math.floor(1000 + Math.random() * 9000)}`;
    if (!(await nicknameTaken(db, candidate))) return candidate;
  }
  return null;
}

const discordRow = (userUuid: string, discord: DiscordUser, now: Date) => ({
  userUuid,
  provider: "discord" as const,
  providerUserId: discord.id,
  displayName: discord.globalName ?? discord.username,
  details: { username: discord.username },
  createdAt: now,
  updatedAt: now,
});

/**
 * The Booth account of a Discord user, made now when there is none (with Discord's email when Discord vouches for
 * it, unless a Booth account has that email already). Answers the account's uuid and whether it is new.
 */
export async function discordAccount(db: Db, discord: DiscordUser, now: () => Date) {
  const linked = await linkedUserUuid(db, discord.id);
  if (linked) return { userUuid: linked, isNewUser: false };
  const email = discord.email && discord.verified ? discord.email : null;
  // Signing in by email would let whoever controls a Discord account take over a Booth account: link instead.
  if (email && (await findUserByEmail(db, email))) throw conflict(DISCORD_MESSAGES.emailTaken);
  const nickname = await nicknameFrom(db, discord);
  try {
    const userUuid = await db.transaction(async (tx) => {
      const at = now();
      const { user } = await createAccount(tx, {
        email,
        nickname,
        // Verified only when Discord vouches for the email.
        emailStatus: email ? "VERIFIED" : "PENDING_VERIFICATION",
        now: at,
      });
      await tx.insert(schema.providerAccounts).values(discordRow(user.uuid, discord, at));
      return user.uuid;
    });
    return { userUuid, isNewUser: true };
  } catch (err) {
    // The same Discord user signing in twice at once: the first created the account, the second uses it.
    if (!isUniqueViolation(err)) throw err;
    const userUuid = await linkedUserUuid(db, discord.id);
    if (!userUuid) throw conflict(DISCORD_MESSAGES.emailTaken);
    return { userUuid, isNewUser: false };
  }
}

/** Links a Discord user to a Booth account (a 409 when another account has it); answers the provider row. */
export async function linkDiscordAccount(db: Db, userUuid: string, discord: DiscordUser, now: Date) {
  const owner = await linkedUserUuid(db, discord.id);
  if (owner && owner !== userUuid) throw conflict(DISCORD_MESSAGES.linkedElsewhere);
  const row = discordRow(userUuid, discord, now);
  // Another account may link this Discord account in the meantime.
  await uniqueOr(
    () =>
      db
        .insert(schema.providerAccounts)
        .values(row)
        .onConflictDoUpdate({
          target: [schema.providerAccounts.userUuid, schema.providerAccounts.provider],
          set: {
            providerUserId: row.providerUserId,
            displayName: row.displayName,
            details: row.details,
            updatedAt: row.updatedAt,
          },
        }),
    () => conflict(DISCORD_MESSAGES.linkedElsewhere),
  );
  return row;
}
