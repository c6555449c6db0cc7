import { createRoute, z } from "@hono/zod-openapi";
import type { Context } from "hono";
import { rateLimit, requireUser } from "../../lib/auth.ts";
import type { AppEnv } from "../../lib/context.ts";
import { bearer, createRouter, errors, json, jsonBody, UuidParam } from "../../lib/openapi.ts";
import { requireSettings, trimSlash } from "../../ports/integrations.ts";
import { providerJson } from "../../ports/oauth.ts";
import { findLinked, requireSelfOrService, saveTokens } from "./provider-accounts.ts";

/**
 * Apple Music: MusicKit on the client signs the user in with Booth's developer token and gets a music user token;
 * the edge checks it with Apple (which also tells the user's storefront) and keeps it for the user and services.
 */
export const appleMusicRoutes = createRouter();
const tags = ["Apple Music"];

const AppleTokenSchema = z
  .object({
    developerToken: z.string(),
    musicUserToken: z.string().nullable(),
    storefront: z.string().nullable(),
  })
  .openapi("AppleMusicTokens");

function developerToken(c: Context<AppEnv>) {
  return requireSettings("Apple Music", {
    APPLE_MUSIC_DEVELOPER_TOKEN: c.var.deps.config.providers.appleMusicDeveloperToken,
  }).APPLE_MUSIC_DEVELOPER_TOKEN;
}

appleMusicRoutes.openapi(
  createRoute({
    method: "post",
    path: "/apple/user-token",
    tags,
    summary: "Connect Apple Music: store the caller's music user token once Apple accepts it",
    security: bearer,
    request: jsonBody(z.object({ musicUserToken: z.string().trim().min(1).max(4096) }).openapi("AppleUserTokenInput")),
    responses: { 200: json(AppleTokenSchema), ...errors(400, 401, 403, 429, 502, 503) },
  }),
  async (c) => {
    const { user } = await requireUser(c);
    const devToken = developerToken(c);
    await rateLimit(c, `provider:apple:${user.uuid}`, 60, 3600);
    const { musicUserToken } = c.req.valid("json");
    const answer = await providerJson(
      "Apple Music",
      `${trimSlash(c.var.deps.config.providers.appleMusicApiUrl)}/v1/me/storefront`,
      {
        headers: { authorization: `Bearer ${devToken}`, "music-user-token": musicUserToken },
        tokenRefused: "Apple Music refused the music user token.",
      },
    );
    const storefront = (answer.data as { id?: unknown }[] | undefined)?.[0]?.id;
    const row = await saveTokens(c.var.deps.db, {
      userUuid: user.uuid,
      provider: "apple",
      // Apple has no refresh: the client asks MusicKit for a new user token when this one stops working.
      tokens: { accessToken: musicUserToken, refreshToken: null, expiresIn: null, scope: null },
      now: c.var.deps.clock.now(),
      details: { storefront: typeof storefront === "string" ? storefront : null },
    });
    return c.json(
      {
        developerToken: devToken,
        musicUserToken: row.accessToken,
        storefront: typeof row.details.storefront === "string" ? row.details.storefront : null,
      },
      200,
    );
  },
);

appleMusicRoutes.openapi(
  createRoute({
    method: "get",
    path: "/apple/user-token/{id}",
    tags,
    summary:
      "The developer token, and the user's music user token and storefront (null until connected); the user or services",
    security: bearer,
    request: { params: UuidParam },
    responses: { 200: json(AppleTokenSchema), ...errors(400, 401, 403, 503) },
  }),
  async (c) => {
    const { id } = c.req.valid("param");
    await requireSelfOrService(c, id);
    const devToken = developerToken(c);
    const row = await findLinked(c.var.deps.db, id, "apple");
    const storefront = row?.details.storefront;
    return c.json(
      {
        developerToken: devToken,
        musicUserToken: row?.accessToken ?? null,
        storefront: typeof storefront === "string" ? storefront : null,
      },
      200,
    );
  },
);
