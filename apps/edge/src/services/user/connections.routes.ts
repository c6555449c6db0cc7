import { z } from "@hono/zod-openapi";
import { callersOwn } from "../../lib/contract-families.ts";
import { contracts, jsonBody, noContentOr, ok } from "../../lib/openapi.ts";

/**
 * A person's connected accounts in one place: which providers are linked (and which Booth has configured), where a
 * client sends the person to consent (the provider's authorize URL with Booth's client id), and disconnecting any of
 * them. The code the provider sends back is exchanged by the provider's own route (spotify/exchange-code, ...).
 */

const { authed, route } = contracts(["Connected accounts"]);

export const CONNECTION_PROVIDERS = ["spotify", "youtube", "soundcloud", "apple", "discord"] as const;
export const OAUTH_PROVIDERS = ["spotify", "youtube", "soundcloud", "discord"] as const;

const Connection = z
  .object({
    provider: z.enum(CONNECTION_PROVIDERS),
    connected: z.boolean(),
    displayName: z.string().nullable(),
    connectedAt: z.string().nullable(),
    notConfigured: z
      .string()
      .nullable()
      .openapi({ description: "Why Booth cannot connect this provider (the setting it lacks), or null" }),
  })
  .openapi("Connection");

export const listConnections = callersOwn(
  authed,
  "/connections",
  "The caller's connected accounts: Spotify, YouTube, SoundCloud, Apple Music and Discord",
  z.array(Connection).openapi("Connections"),
);

const OAuthProviderParam = z.object({
  provider: z.enum(OAUTH_PROVIDERS).openapi({ param: { name: "provider", in: "path" } }),
});

const ConnectionProviderParam = z.object({
  provider: z.enum(CONNECTION_PROVIDERS).openapi({ param: { name: "provider", in: "path" } }),
});

export const authorizeUrl = route("post", "/connections/{provider}/authorize-url", {
  summary:
    "The provider's consent page for Booth's app: the client sends the person there with its own state and redirect",
  request: {
    params: OAuthProviderParam,
    ...jsonBody(
      z
        .object({
          redirectUri: z.url().max(2048).openapi({ description: "Where the provider sends the code back" }),
          state: z
            .string()
            .regex(/^[A-Za-z0-9\-._~]{16,256}$/, "must be 16 to 256 URL-safe characters")
            .openapi({ description: "The client's anti-forgery value, returned by the provider unchanged" }),
          codeChallenge: z
            .string()
            .regex(/^[A-Za-z0-9\-_]{43}$/, "must be a PKCE S256 code challenge")
            .optional(),
        })
        .strict()
        .openapi("AuthorizeUrlRequest"),
    ),
  },
  responses: ok(z.object({ url: z.string() }).openapi("AuthorizeUrl"), 400, 503),
});

export const disconnect = authed("delete", "/connections/{provider}", {
  summary: "Disconnect a provider: forget the caller's tokens there (Discord: no longer signs in to this account)",
  request: { params: ConnectionProviderParam },
  responses: noContentOr(400, 401, 403, 404, 409),
});
