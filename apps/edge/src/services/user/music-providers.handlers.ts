import type { LinkedProvider } from "@booth/db/schema";
import type { z } from "@hono/zod-openapi";
import type { Context } from "hono";
import { addressBucket, rateLimit, requireToken, requireUser } from "../../lib/auth.ts";
import type { AppEnv } from "../../lib/context.ts";
import { badRequest, notFound } from "../../lib/errors.ts";
import type { AppRouteHandler } from "../../lib/openapi.ts";
import { trimSlash } from "../../ports/integrations.ts";
import { type OAuthClient, providerJson, requestToken } from "../../ports/oauth.ts";
import type * as routes from "./music-providers.routes.ts";
import { catalogueToken, exchangeCode, soundcloudClient, spotifyClient, youtubeClient } from "./music-providers.ts";
import {
  refreshStored,
  requireSelfOrService,
  requireServiceToken,
  saveTokens,
  tokenView,
  unlink,
} from "./provider-accounts.ts";

const integrations = (c: Context<AppEnv>) => c.var.deps.config.integrations;

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

export const spotifyExchangeCode: AppRouteHandler<typeof routes.spotifyExchangeCode> = async (c) => {
  const { user } = await requireUser(c);
  const client = spotifyClient(integrations(c));
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
};

/**
 * The caller's tokens at `provider`, refreshed with the refresh token they send (else the stored one), as answered:
 * `clientOf` makes the provider's client once the caller is known.
 */
async function refreshCallers(
  c: Context<AppEnv>,
  provider: LinkedProvider,
  clientOf: typeof spotifyClient,
  given: string | undefined,
) {
  const { user } = await requireUser(c);
  const client = clientOf(integrations(c));
  await limitCalls(c, user.uuid, provider);
  return tokenView(await refreshFor(c, user.uuid, provider, client, given));
}

export const spotifyRefreshToken: AppRouteHandler<typeof routes.spotifyRefreshToken> = async (c) =>
  c.json(await refreshCallers(c, "spotify", spotifyClient, c.req.valid("json")?.refreshToken), 200);

export const spotifyDisconnect: AppRouteHandler<typeof routes.spotifyDisconnect> = async (c) => {
  const { user } = await requireUser(c);
  if (!(await unlink(c.var.deps.db, user.uuid, "spotify"))) throw notFound("Spotify is not connected.");
  return c.body(null, 204);
};

export const spotifyAccessToken: AppRouteHandler<typeof routes.spotifyAccessToken> = async (c) => {
  requireServiceToken(c);
  const client = spotifyClient(integrations(c));
  const row = await refreshStored(c, {
    userUuid: c.req.valid("param").id,
    provider: "spotify",
    client,
    force: false,
  });
  return c.json(tokenView(row), 200);
};

export const youtubeExchangeCode: AppRouteHandler<typeof routes.youtubeExchangeCode> = async (c) => {
  const { user } = await requireUser(c);
  const client = youtubeClient(integrations(c));
  await limitCalls(c, user.uuid, "youtube");
  const tokens = await exchangeCode(client, c.req.valid("json"));
  const row = await saveTokens(c.var.deps.db, {
    userUuid: user.uuid,
    provider: "youtube",
    tokens,
    now: c.var.deps.clock.now(),
  });
  return c.json(tokenView(row), 200);
};

export const youtubeRefreshToken: AppRouteHandler<typeof routes.youtubeRefreshToken> = async (c) =>
  c.json(await refreshCallers(c, "youtube", youtubeClient, c.req.valid("json")?.refreshToken), 200);

async function soundcloudRefresh(c: Context<AppEnv>, mobile: boolean) {
  const { user } = await requireUser(c);
  const body = (c.req.valid("json" as never) ?? {}) as z.infer<typeof routes.SoundcloudBody>;
  if (body.code && body.refreshToken) throw badRequest(["refreshToken: give either code or refreshToken"]);
  if (body.code && !body.redirectUri) throw badRequest(["redirectUri: is required with code"]);
  const client = soundcloudClient(integrations(c), mobile);
  const provider: LinkedProvider = mobile ? "soundcloudMobile" : "soundcloud";
  await limitCalls(c, user.uuid, provider);
  if (!body.code) return refreshFor(c, user.uuid, provider, client, body.refreshToken);
  const tokens = await exchangeCode(client, { ...body, code: body.code });
  return saveTokens(c.var.deps.db, { userUuid: user.uuid, provider, tokens, now: c.var.deps.clock.now() });
}

export const soundcloudRefreshToken: AppRouteHandler<typeof routes.soundcloudRefreshToken> = async (c) =>
  c.json(tokenView(await soundcloudRefresh(c, false)), 200);

export const soundcloudMobileRefreshToken: AppRouteHandler<typeof routes.soundcloudMobileRefreshToken> = async (c) =>
  c.json(tokenView(await soundcloudRefresh(c, true)), 200);

async function publicToken(c: Context<AppEnv>, mobile: boolean) {
  requireToken(c);
  const client = soundcloudClient(integrations(c), mobile);
  await rateLimit(c, `soundcloud-public:${addressBucket(c)}`, 300, 3600);
  return catalogueToken(c.var.deps.cache, c.var.deps.clock.now(), client, mobile);
}

export const soundcloudPublicToken: AppRouteHandler<typeof routes.soundcloudPublicToken> = async (c) =>
  c.json(await publicToken(c, false), 200);

export const soundcloudMobilePublicToken: AppRouteHandler<typeof routes.soundcloudMobilePublicToken> = async (c) =>
  c.json(await publicToken(c, true), 200);

export const soundcloudAccessToken: AppRouteHandler<typeof routes.soundcloudAccessToken> = async (c) => {
  const { id } = c.req.valid("param");
  const { mobile } = c.req.valid("query");
  await requireSelfOrService(c, id);
  const client = soundcloudClient(integrations(c), mobile);
  const row = await refreshStored(c, {
    userUuid: id,
    provider: mobile ? "soundcloudMobile" : "soundcloud",
    client,
    force: false,
  });
  return c.json(tokenView(row), 200);
};
