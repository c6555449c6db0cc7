import type { LinkedProvider } from "@booth/db/schema";
import { createRoute, z } from "@hono/zod-openapi";
import type { Context } from "hono";
import { addressBucket, rateLimit, requireToken, requireUser } from "../../lib/auth.ts";
import type { AppEnv } from "../../lib/context.ts";
import { badRequest, notFound } from "../../lib/errors.ts";
import { bearer, createRouter, errors, json, jsonBody, noContent, UuidParam } from "../../lib/openapi.ts";
import {
  PROVIDER_URLS,
  requireSettings,
  soundcloudOAuthClient,
  spotifyOAuthClient,
  trimSlash,
} from "../../ports/integrations.ts";
import { type OAuthClient, providerJson, requestToken } from "../../ports/oauth.ts";
import {
  ProviderTokenSchema,
  refreshStored,
  requireSelfOrService,
  requireServiceToken,
  saveTokens,
  tokenView,
  unlink,
} from "./provider-accounts.ts";

/**
 * Spotify, YouTube (Google OAuth) and SoundCloud: the user authorises Booth at the provider, the client sends the
 * code here, the edge exchanges it with Booth's client secret and keeps the refresh token; access tokens are handed
 * out (refreshed when needed) to the user and to services, never the refresh token.
 */
export const musicProviderRoutes = createRouter();

const integrations = (c: Context<AppEnv>) => c.var.deps.config.integrations ?? {};

const spotifyClient = (c: Context<AppEnv>) => spotifyOAuthClient(integrations(c));

function youtubeClient(c: Context<AppEnv>): OAuthClient {
  const i = integrations(c);
  const s = requireSettings("YouTube", {
    YOUTUBE_CLIENT_ID: i.youtubeClientId,
    YOUTUBE_CLIENT_SECRET: i.youtubeClientSecret,
  });
  return {
    provider: "YouTube",
    tokenUrl: `${trimSlash(i.youtubeOAuthUrl || PROVIDER_URLS.youtubeOAuth)}/token`,
    clientId: s.YOUTUBE_CLIENT_ID,
    clientSecret: s.YOUTUBE_CLIENT_SECRET,
  };
}

const soundcloudClient = (c: Context<AppEnv>, mobile: boolean) => soundcloudOAuthClient(integrations(c), mobile);

const Code = z.string().trim().min(1).max(2048);
const RedirectUri = z.url().max(2048).openapi({ example: "https://booth.example/callback/spotify" });
// RFC 7636: 43 to 128 characters of [A-Z a-z 0-9 - . _ ~].
const CodeVerifier = z
  .string()
  .regex(/^[A-Za-z0-9\-._~]{43,128}$/, "must be a PKCE code verifier (43 to 128 characters)");
const RefreshToken = z.string().trim().min(1).max(4096);

const ExchangeBody = z
  .object({ code: Code, redirectUri: RedirectUri, codeVerifier: CodeVerifier.optional() })
  .openapi("ProviderCodeExchange");
const RefreshBody = z
  .object({
    refreshToken: RefreshToken.optional().openapi({
      description: "A refresh token the client holds; without it, the one Booth stored for the caller is used.",
    }),
  })
  .strict()
  .openapi("ProviderRefresh");
/** The body may be left out: a refresh with what Booth stored. */
const optionalJsonBody = <T extends z.ZodType>(schema: T) => ({
  body: { content: { "application/json": { schema } }, required: false },
});

const exchangeCode = (client: OAuthClient, body: { code: string; redirectUri?: string; codeVerifier?: string }) =>
  requestToken(
    client,
    {
      grant_type: "authorization_code",
      code: body.code,
      redirect_uri: body.redirectUri,
      code_verifier: body.codeVerifier,
    },
    "authorization code",
  );

/** A refresh with the token the client brought (stored for the caller), or with the stored one. */
async function refreshFor(
  c: Context<AppEnv>,
  userUuid: string,
  provider: LinkedProvider,
  client: OAuthClient,
  given: string | undefined,
) {
  if (!given) return refreshStored(c, { userUuid, provider, client, force: true });
  const tokens = await requestToken(client, { grant_type: "refresh_token", refresh_token: given }, "refresh token");
  return saveTokens(c.var.deps.db, {
    userUuid,
    provider,
    tokens: { ...tokens, refreshToken: tokens.refreshToken ?? given },
    now: c.var.deps.clock.now(),
  });
}

/** Links and refreshes are limited per user: each is a call to the provider. */
const limitCalls = (c: Context<AppEnv>, userUuid: string, provider: string) =>
  rateLimit(c, `provider:${provider}:${userUuid}`, 60, 3600);

// Spotify ----------------------------------------------------------------------------------------------------------

const spotifyTags = ["Spotify"];

musicProviderRoutes.openapi(
  createRoute({
    method: "post",
    path: "/spotify/exchange-code",
    tags: spotifyTags,
    summary: "Connect Spotify: exchange an authorization code (PKCE verifier optional); answers an access token",
    security: bearer,
    request: jsonBody(ExchangeBody),
    responses: { 200: json(ProviderTokenSchema), ...errors(400, 401, 403, 429, 502, 503) },
  }),
  async (c) => {
    const { user } = await requireUser(c);
    const client = spotifyClient(c);
    await limitCalls(c, user.uuid, "spotify");
    const tokens = await exchangeCode(client, c.req.valid("json"));
    const me = await providerJson("Spotify", `${trimSlash(c.var.deps.config.providers.spotifyApiUrl)}/v1/me`, {
      headers: { authorization: `Bearer ${tokens.accessToken}` },
    });
    const row = await saveTokens(c.var.deps.db, {
      userUuid: user.uuid,
      provider: "spotify",
      tokens,
      now: c.var.deps.clock.now(),
      providerUserId: typeof me.id === "string" ? me.id : null,
      displayName: typeof me.display_name === "string" ? me.display_name : null,
    });
    return c.json(tokenView(row), 200);
  },
);

musicProviderRoutes.openapi(
  createRoute({
    method: "post",
    path: "/spotify/refresh-token",
    tags: spotifyTags,
    summary: "A fresh Spotify access token for the caller (from the stored refresh token, or one given)",
    security: bearer,
    request: optionalJsonBody(RefreshBody),
    responses: { 200: json(ProviderTokenSchema), ...errors(400, 401, 403, 404, 409, 429, 502, 503) },
  }),
  async (c) => {
    const { user } = await requireUser(c);
    const client = spotifyClient(c);
    await limitCalls(c, user.uuid, "spotify");
    const row = await refreshFor(c, user.uuid, "spotify", client, c.req.valid("json")?.refreshToken);
    return c.json(tokenView(row), 200);
  },
);

musicProviderRoutes.openapi(
  createRoute({
    method: "delete",
    path: "/spotify/refresh-token",
    tags: spotifyTags,
    summary: "Disconnect Spotify: forget the caller's Spotify tokens",
    security: bearer,
    responses: { ...noContent, ...errors(401, 403, 404) },
  }),
  async (c) => {
    const { user } = await requireUser(c);
    if (!(await unlink(c.var.deps.db, user.uuid, "spotify"))) throw notFound("Spotify is not connected.");
    return c.body(null, 204);
  },
);

musicProviderRoutes.openapi(
  createRoute({
    method: "get",
    path: "/spotify/access-token/{id}/service",
    tags: spotifyTags,
    summary: "A user's Spotify access token, refreshed when needed (service tokens only)",
    security: bearer,
    request: { params: UuidParam },
    responses: { 200: json(ProviderTokenSchema), ...errors(400, 401, 403, 404, 409, 502, 503) },
  }),
  async (c) => {
    requireServiceToken(c);
    const client = spotifyClient(c);
    const row = await refreshStored(c, {
      userUuid: c.req.valid("param").id,
      provider: "spotify",
      client,
      force: false,
    });
    return c.json(tokenView(row), 200);
  },
);

// YouTube (Google OAuth) -------------------------------------------------------------------------------------------

const youtubeTags = ["YouTube"];

musicProviderRoutes.openapi(
  createRoute({
    method: "post",
    path: "/youtube/exchange-code",
    tags: youtubeTags,
    summary: "Connect YouTube: exchange a Google authorization code; answers an access token",
    security: bearer,
    request: jsonBody(ExchangeBody),
    responses: { 200: json(ProviderTokenSchema), ...errors(400, 401, 403, 429, 502, 503) },
  }),
  async (c) => {
    const { user } = await requireUser(c);
    const client = youtubeClient(c);
    await limitCalls(c, user.uuid, "youtube");
    const tokens = await exchangeCode(client, c.req.valid("json"));
    const row = await saveTokens(c.var.deps.db, {
      userUuid: user.uuid,
      provider: "youtube",
      tokens,
      now: c.var.deps.clock.now(),
    });
    return c.json(tokenView(row), 200);
  },
);

musicProviderRoutes.openapi(
  createRoute({
    method: "post",
    path: "/youtube/refresh-token",
    tags: youtubeTags,
    summary: "A fresh YouTube access token for the caller (from the stored refresh token, or one given)",
    security: bearer,
    request: optionalJsonBody(RefreshBody),
    responses: { 200: json(ProviderTokenSchema), ...errors(400, 401, 403, 404, 409, 429, 502, 503) },
  }),
  async (c) => {
    const { user } = await requireUser(c);
    const client = youtubeClient(c);
    await limitCalls(c, user.uuid, "youtube");
    const row = await refreshFor(c, user.uuid, "youtube", client, c.req.valid("json")?.refreshToken);
    return c.json(tokenView(row), 200);
  },
);

// SoundCloud -------------------------------------------------------------------------------------------------------

const soundcloudTags = ["SoundCloud"];

const SoundcloudBody = z
  .object({
    code: Code.optional(),
    redirectUri: RedirectUri.optional(),
    codeVerifier: CodeVerifier.optional(),
    refreshToken: RefreshToken.optional(),
  })
  .strict()
  .openapi("SoundcloudTokenRequest", {
    description:
      "With `code` (and `redirectUri`): connect SoundCloud. With `refreshToken`: refresh that one. With neither: refresh the stored one.",
  });

async function soundcloudRefresh(c: Context<AppEnv>, mobile: boolean) {
  const { user } = await requireUser(c);
  const body = (c.req.valid("json" as never) ?? {}) as z.infer<typeof SoundcloudBody>;
  if (body.code && body.refreshToken) throw badRequest(["refreshToken: give either code or refreshToken"]);
  if (body.code && !body.redirectUri) throw badRequest(["redirectUri: is required with code"]);
  const client = soundcloudClient(c, mobile);
  const provider: LinkedProvider = mobile ? "soundcloudMobile" : "soundcloud";
  await limitCalls(c, user.uuid, provider);
  if (!body.code) return refreshFor(c, user.uuid, provider, client, body.refreshToken);
  const tokens = await exchangeCode(client, { ...body, code: body.code });
  return saveTokens(c.var.deps.db, { userUuid: user.uuid, provider, tokens, now: c.var.deps.clock.now() });
}

for (const mobile of [false, true])
  musicProviderRoutes.openapi(
    createRoute({
      method: "post",
      path: mobile ? "/soundcloud/mobile/refresh-token" : "/soundcloud/refresh-token",
      tags: soundcloudTags,
      summary: `Connect SoundCloud or refresh the caller's SoundCloud access token (${mobile ? "mobile" : "web"} app)`,
      security: bearer,
      request: optionalJsonBody(SoundcloudBody),
      responses: { 200: json(ProviderTokenSchema), ...errors(400, 401, 403, 404, 409, 429, 502, 503) },
    }),
    async (c) => c.json(tokenView(await soundcloudRefresh(c, mobile)), 200),
  );

const PublicToken = z
  .object({ accessToken: z.string(), tokenType: z.string(), expiresAt: z.string().nullable() })
  .openapi("SoundcloudPublicToken");

/** Booth's own (client credentials) token, for SoundCloud's public catalogue; kept in the cache until it expires. */
async function publicToken(c: Context<AppEnv>, mobile: boolean) {
  requireToken(c);
  const client = soundcloudClient(c, mobile);
  await rateLimit(c, `soundcloud-public:${addressBucket(c)}`, 300, 3600);
  const { cache, clock } = c.var.deps;
  const key = `soundcloud:public:${mobile ? "mobile" : "web"}:${client.clientId}`;
  const cached = await cache.get(key);
  if (cached) return JSON.parse(cached) as z.infer<typeof PublicToken>;
  const tokens = await requestToken(client, { grant_type: "client_credentials" }, "client credentials");
  const lifetime = tokens.expiresIn ?? 3600;
  const value = {
    accessToken: tokens.accessToken,
    tokenType: "Bearer",
    expiresAt: new Date(clock.now().getTime() + lifetime * 1000).toISOString(),
  };
  // Handed out until a minute before it expires, so nobody receives a token about to die.
  if (lifetime > 120) await cache.set(key, JSON.stringify(value), lifetime - 60);
  return value;
}

for (const mobile of [false, true])
  musicProviderRoutes.openapi(
    createRoute({
      method: "get",
      path: mobile ? "/soundcloud/mobile/public-token" : "/soundcloud/public-token",
      tags: soundcloudTags,
      summary: `A token for SoundCloud's public catalogue (${mobile ? "mobile" : "web"} app); any token, guests too`,
      security: bearer,
      responses: { 200: json(PublicToken), ...errors(401, 429, 502, 503) },
    }),
    async (c) => c.json(await publicToken(c, mobile), 200),
  );

musicProviderRoutes.openapi(
  createRoute({
    method: "get",
    path: "/soundcloud/access-token/{id}",
    tags: soundcloudTags,
    summary: "A user's SoundCloud access token, refreshed when needed (the user, or services)",
    security: bearer,
    request: {
      params: UuidParam,
      query: z.object({
        mobile: z
          .enum(["true", "false"])
          .optional()
          .transform((v) => v === "true"),
      }),
    },
    responses: { 200: json(ProviderTokenSchema), ...errors(400, 401, 403, 404, 409, 502, 503) },
  }),
  async (c) => {
    const { id } = c.req.valid("param");
    const { mobile } = c.req.valid("query");
    await requireSelfOrService(c, id);
    const client = soundcloudClient(c, mobile);
    const row = await refreshStored(c, {
      userUuid: id,
      provider: mobile ? "soundcloudMobile" : "soundcloud",
      client,
      force: false,
    });
    return c.json(tokenView(row), 200);
  },
);
