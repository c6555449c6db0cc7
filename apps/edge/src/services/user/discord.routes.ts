import { type Db, schema } from "@booth/db";
import { createRoute, z } from "@hono/zod-openapi";
import { and, eq } from "drizzle-orm";
import type { Context } from "hono";
import { activeBan, addressBucket, rateLimit, requireUser } from "../../lib/auth.ts";
import type { AppEnv } from "../../lib/context.ts";
import { isUniqueViolation } from "../../lib/db-errors.ts";
import { conflict, forbidden, HttpError } from "../../lib/errors.ts";
import { bearer, createRouter, errors, json, jsonBody } from "../../lib/openapi.ts";
import { PROVIDER_URLS, requireSettings, trimSlash } from "../../ports/integrations.ts";
import { type OAuthClient, providerJson, requestToken } from "../../ports/oauth.ts";
import { createAccount, findUserByEmail, issueToken, loadUser, nicknameTaken, userView } from "./accounts.ts";
import { AuthResultSchema } from "./schemas.ts";

/**
 * Discord (the chat community, and the Discord activity): sign in with Discord, link Discord to an account, and the
 * activity's code exchange. Booth's client secret stays on the edge.
 */
export const discordRoutes = createRouter();
const tags = ["Discord"];

export const DISCORD_MESSAGES = {
  linkedElsewhere: "This Discord account is linked to another Booth account.",
  emailTaken:
    "A Booth account already uses this Discord account's email: sign in to it and link Discord from your settings.",
  foreignToken: "This Discord access token was not issued to Booth.",
  tokenRefused: "Discord refused the access token.",
  deactivated: "This account is deactivated.",
  banned: "This account is banned.",
} as const;

function discordSettings(c: Context<AppEnv>) {
  const i = c.var.deps.config.integrations ?? {};
  const s = requireSettings("Discord", {
    DISCORD_CLIENT_ID: i.discordClientId,
    DISCORD_CLIENT_SECRET: i.discordClientSecret,
  });
  const apiUrl = trimSlash(i.discordApiUrl || PROVIDER_URLS.discordApi);
  const client: OAuthClient = {
    provider: "Discord",
    tokenUrl: `${apiUrl}/oauth2/token`,
    clientId: s.DISCORD_CLIENT_ID,
    clientSecret: s.DISCORD_CLIENT_SECRET,
  };
  return { client, apiUrl, redirectUri: i.discordRedirectUri };
}

const Code = z.string().trim().min(1).max(2048);
const RedirectUri = z.url().max(2048);
const DiscordGrant = z
  .object({
    code: Code.optional().openapi({ description: "An authorization code from Discord's consent screen" }),
    redirectUri: RedirectUri.optional().openapi({
      description: "The redirect URI the code was issued for (default: DISCORD_REDIRECT_URI; none for the activity)",
    }),
    accessToken: z
      .string()
      .trim()
      .min(1)
      .max(4096)
      .optional()
      .openapi({ description: "Or a Discord access token Booth issued (the activity's authenticate step)" }),
  })
  .strict()
  .superRefine((v, ctx) => {
    if (!v.code === !v.accessToken)
      ctx.addIssue({ code: "custom", path: ["code"], message: "give either code or accessToken" });
  })
  .openapi("DiscordGrant");
type DiscordGrant = z.infer<typeof DiscordGrant>;

interface DiscordUser {
  id: string;
  username: string;
  globalName: string | null;
  email: string | null;
  verified: boolean;
}

const exchange = (c: Context<AppEnv>, code: string, redirectUri: string | undefined) => {
  const { client, redirectUri: configured } = discordSettings(c);
  return requestToken(
    client,
    { grant_type: "authorization_code", code, redirect_uri: redirectUri ?? configured },
    "authorization code",
  );
};

/** The Discord user behind a code (exchanged here) or an access token (checked to be one Discord issued to Booth). */
async function discordUser(c: Context<AppEnv>, grant: DiscordGrant): Promise<DiscordUser> {
  const { client, apiUrl } = discordSettings(c);
  let accessToken: string;
  if (grant.code) accessToken = (await exchange(c, grant.code, grant.redirectUri)).accessToken;
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

async function linkedUserUuid(db: Db, discordId: string) {
  const [row] = await db
    .select({ userUuid: schema.providerAccounts.userUuid })
    .from(schema.providerAccounts)
    .where(and(eq(schema.providerAccounts.provider, "discord"), eq(schema.providerAccounts.providerUserId, discordId)))
    .limit(1);
  return row?.userUuid ?? null;
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

const SignInResult = AuthResultSchema.extend({ isNewUser: z.boolean() }).openapi("DiscordSignIn");

discordRoutes.openapi(
  createRoute({
    method: "post",
    path: "/auth/discord-auth",
    tags,
    summary: "Sign in with Discord: the linked account, or a new one (with Discord's verified email)",
    request: jsonBody(DiscordGrant),
    responses: { 200: json(SignInResult), ...errors(400, 403, 409, 429, 502, 503) },
  }),
  async (c) => {
    const grant = c.req.valid("json");
    discordSettings(c);
    await rateLimit(c, `discord:ip:${addressBucket(c)}`, 30, 15 * 60);
    const { db, clock } = c.var.deps;
    const discord = await discordUser(c, grant);
    let isNewUser = false;
    let userUuid = await linkedUserUuid(db, discord.id);
    if (!userUuid) {
      const email = discord.email && discord.verified ? discord.email : null;
      // Signing in by email would let whoever controls a Discord account take over a Booth account: link instead.
      if (email && (await findUserByEmail(db, email))) throw conflict(DISCORD_MESSAGES.emailTaken);
      const nickname = await nicknameFrom(db, discord);
      try {
        userUuid = await db.transaction(async (tx) => {
          const now = clock.now();
          const { user } = await createAccount(tx, {
            email,
            nickname,
            // Verified only when Discord vouches for the email.
            emailStatus: email ? "VERIFIED" : "PENDING_VERIFICATION",
            now,
          });
          await tx.insert(schema.providerAccounts).values(discordRow(user.uuid, discord, now));
          return user.uuid;
        });
        isNewUser = true;
      } catch (err) {
        // The same Discord user signing in twice at once: the first created the account, the second uses it.
        if (!isUniqueViolation(err)) throw err;
        userUuid = await linkedUserUuid(db, discord.id);
        if (!userUuid) throw conflict(DISCORD_MESSAGES.emailTaken);
      }
    }
    const loaded = await loadUser(db, userUuid);
    if (!loaded) throw new HttpError(409, DISCORD_MESSAGES.linkedElsewhere);
    if (loaded.user.deactivatedAt) throw forbidden(DISCORD_MESSAGES.deactivated);
    if (await activeBan(db, userUuid, clock.now())) throw forbidden(DISCORD_MESSAGES.banned);
    const now = clock.now();
    await db.update(schema.users).set({ lastLoginAt: now }).where(eq(schema.users.uuid, userUuid));
    return c.json(
      { ...(await issueToken(c, loaded.user)), user: userView(loaded.user, loaded.profile), isNewUser },
      200,
    );
  },
);

discordRoutes.openapi(
  createRoute({
    method: "post",
    path: "/auth/exchange-code",
    tags,
    summary:
      "The Discord activity's code exchange: Discord's access token for the code (to authenticate the Discord SDK)",
    request: jsonBody(z.object({ code: Code, redirectUri: RedirectUri.optional() }).strict()),
    responses: {
      200: json(
        z
          .object({
            accessToken: z.string(),
            tokenType: z.string(),
            expiresAt: z.string().nullable(),
            scope: z.string().nullable(),
          })
          .openapi("DiscordAccessToken"),
      ),
      ...errors(400, 429, 502, 503),
    },
  }),
  async (c) => {
    const { code, redirectUri } = c.req.valid("json");
    discordSettings(c);
    await rateLimit(c, `discord:ip:${addressBucket(c)}`, 30, 15 * 60);
    const tokens = await exchange(c, code, redirectUri);
    const now = c.var.deps.clock.now().getTime();
    return c.json(
      {
        accessToken: tokens.accessToken,
        tokenType: tokens.tokenType,
        expiresAt: tokens.expiresIn ? new Date(now + tokens.expiresIn * 1000).toISOString() : null,
        scope: tokens.scope,
      },
      200,
    );
  },
);

discordRoutes.openapi(
  createRoute({
    method: "post",
    path: "/auth/link-discord",
    tags,
    summary: "Link a Discord account to the caller (replacing a Discord account linked before)",
    security: bearer,
    request: jsonBody(DiscordGrant),
    responses: {
      200: json(
        z
          .object({ discordUserId: z.string(), username: z.string(), displayName: z.string().nullable() })
          .openapi("DiscordLink"),
      ),
      ...errors(400, 401, 403, 409, 429, 502, 503),
    },
  }),
  async (c) => {
    const grant = c.req.valid("json");
    const { user } = await requireUser(c);
    discordSettings(c);
    await rateLimit(c, `discord:user:${user.uuid}`, 30, 15 * 60);
    const { db, clock } = c.var.deps;
    const discord = await discordUser(c, grant);
    const owner = await linkedUserUuid(db, discord.id);
    if (owner && owner !== user.uuid) throw conflict(DISCORD_MESSAGES.linkedElsewhere);
    const row = discordRow(user.uuid, discord, clock.now());
    try {
      await db
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
        });
    } catch (err) {
      // Another account linked this Discord account in the meantime.
      if (isUniqueViolation(err)) throw conflict(DISCORD_MESSAGES.linkedElsewhere);
      throw err;
    }
    return c.json({ discordUserId: discord.id, username: discord.username, displayName: row.displayName }, 200);
  },
);
