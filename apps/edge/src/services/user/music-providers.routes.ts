import { z } from "@hono/zod-openapi";
import { contracts, jsonBody, noContentOr, ok, UuidParam } from "../../lib/openapi.ts";

/**
 * Spotify, YouTube (Google OAuth) and SoundCloud: the user authorises Booth at the provider, the client sends the
 * code here, the edge exchanges it with Booth's client secret and keeps the refresh token; access tokens are handed
 * out (refreshed when needed) to the user and to services, never the refresh token.
 */

export const ProviderTokenSchema = z
  .object({
    provider: z.string(),
    accessToken: z.string(),
    tokenType: z.string(),
    expiresAt: z.string().nullable(),
    scope: z.string().nullable(),
    providerUserId: z.string().nullable(),
  })
  .openapi("ProviderAccessToken");

const Code = z.string().trim().min(1).max(2048);

// RFC 7636: 43 to 128 characters of [A-Z a-z 0-9 - . _ ~].
const CodeVerifier = z
  .string()
  .regex(/^[A-Za-z0-9\-._~]{43,128}$/, "must be a PKCE code verifier (43 to 128 characters)");

const RedirectUri = z.url().max(2048).openapi({ example: "https://booth.example/callback/spotify" });

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

// Spotify ----------------------------------------------------------------------------------------------------------

const { authed } = contracts(["Spotify"]);

export const spotifyExchangeCode = authed("post", "/spotify/exchange-code", {
  summary: "Connect Spotify: exchange an authorization code (PKCE verifier optional); answers an access token",
  request: jsonBody(ExchangeBody),
  responses: ok(ProviderTokenSchema, 400, 401, 403, 429, 502, 503),
});

export const spotifyRefreshToken = authed("post", "/spotify/refresh-token", {
  summary: "A fresh Spotify access token for the caller (from the stored refresh token, or one given)",
  request: optionalJsonBody(RefreshBody),
  responses: ok(ProviderTokenSchema, 400, 401, 403, 404, 409, 429, 502, 503),
});

export const spotifyDisconnect = authed("delete", "/spotify/refresh-token", {
  summary: "Disconnect Spotify: forget the caller's Spotify tokens",
  responses: noContentOr(401, 403, 404),
});

export const spotifyAccessToken = authed("get", "/spotify/access-token/{id}/service", {
  summary: "A user's Spotify access token, refreshed when needed (service tokens only)",
  request: { params: UuidParam },
  responses: ok(ProviderTokenSchema, 400, 401, 403, 404, 409, 502, 503),
});

// YouTube (Google OAuth) -------------------------------------------------------------------------------------------

const youtubeTags = ["YouTube"];

export const youtubeExchangeCode = authed("post", "/youtube/exchange-code", {
  summary: "Connect YouTube: exchange a Google authorization code; answers an access token",
  tags: youtubeTags,
  request: jsonBody(ExchangeBody),
  responses: ok(ProviderTokenSchema, 400, 401, 403, 429, 502, 503),
});

export const youtubeRefreshToken = authed("post", "/youtube/refresh-token", {
  summary: "A fresh YouTube access token for the caller (from the stored refresh token, or one given)",
  tags: youtubeTags,
  request: optionalJsonBody(RefreshBody),
  responses: ok(ProviderTokenSchema, 400, 401, 403, 404, 409, 429, 502, 503),
});

// SoundCloud -------------------------------------------------------------------------------------------------------

const soundcloudTags = ["SoundCloud"];

export const SoundcloudBody = z
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

const soundcloudRefreshRoute = (mobile: boolean) =>
  authed("post", mobile ? "/soundcloud/mobile/refresh-token" : "/soundcloud/refresh-token", {
    summary: `Connect SoundCloud or refresh the caller's SoundCloud access token (${mobile ? "mobile" : "web"} app)`,
    tags: soundcloudTags,
    request: optionalJsonBody(SoundcloudBody),
    responses: ok(ProviderTokenSchema, 400, 401, 403, 404, 409, 429, 502, 503),
  });

export const soundcloudRefreshToken = soundcloudRefreshRoute(false);

export const soundcloudMobileRefreshToken = soundcloudRefreshRoute(true);

const PublicToken = z
  .object({ accessToken: z.string(), tokenType: z.string(), expiresAt: z.string().nullable() })
  .openapi("SoundcloudPublicToken");

const soundcloudPublicTokenRoute = (mobile: boolean) =>
  authed("get", mobile ? "/soundcloud/mobile/public-token" : "/soundcloud/public-token", {
    summary: `A token for SoundCloud's public catalogue (${mobile ? "mobile" : "web"} app); any token, guests too`,
    tags: soundcloudTags,
    responses: ok(PublicToken, 401, 429, 502, 503),
  });

export const soundcloudPublicToken = soundcloudPublicTokenRoute(false);

export const soundcloudMobilePublicToken = soundcloudPublicTokenRoute(true);

export const soundcloudAccessToken = authed("get", "/soundcloud/access-token/{id}", {
  summary: "A user's SoundCloud access token, refreshed when needed (the user, or services)",
  tags: soundcloudTags,
  request: {
    params: UuidParam,
    query: z.object({
      mobile: z
        .enum(["true", "false"])
        .optional()
        .transform((v) => v === "true"),
    }),
  },
  responses: ok(ProviderTokenSchema, 400, 401, 403, 404, 409, 502, 503),
});
