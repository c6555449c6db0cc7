import { z } from "@hono/zod-openapi";
import { contracts, jsonBody, ok } from "../../lib/openapi.ts";
import { AuthResultSchema } from "./schemas.ts";

/**
 * Discord (the chat community, and the Discord activity): sign in with Discord, link Discord to an account, and the
 * activity's code exchange. Booth's client secret stays on the edge.
 */

const { authed, route } = contracts(["Discord"]);

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

const SignInResult = AuthResultSchema.extend({ isNewUser: z.boolean() }).openapi("DiscordSignIn");

export const discordAuth = route("post", "/auth/discord-auth", {
  summary: "Sign in with Discord: the linked account, or a new one (with Discord's verified email)",
  request: jsonBody(DiscordGrant),
  responses: ok(SignInResult, 400, 403, 409, 429, 502, 503),
});

export const exchangeCode = route("post", "/auth/exchange-code", {
  summary:
    "The Discord activity's code exchange: Discord's access token for the code (to authenticate the Discord SDK)",
  request: jsonBody(z.object({ code: Code, redirectUri: RedirectUri.optional() }).strict()),
  responses: ok(
    z
      .object({
        accessToken: z.string(),
        tokenType: z.string(),
        expiresAt: z.string().nullable(),
        scope: z.string().nullable(),
      })
      .openapi("DiscordAccessToken"),
    400,
    429,
    502,
    503,
  ),
});

export const linkDiscord = authed("post", "/auth/link-discord", {
  summary: "Link a Discord account to the caller (replacing a Discord account linked before)",
  request: jsonBody(DiscordGrant),
  responses: ok(
    z
      .object({ discordUserId: z.string(), username: z.string(), displayName: z.string().nullable() })
      .openapi("DiscordLink"),
    400,
    401,
    403,
    409,
    429,
    502,
    503,
  ),
});
