import type { Context } from "hono";
import { rateLimit, requireUser } from "../../lib/auth.ts";
import type { AppEnv } from "../../lib/context.ts";
import { errorMessage } from "../../lib/error-codes.ts";
import type { AppRouteHandler } from "../../lib/openapi.ts";
import { requireSettings, trimSlash } from "../../ports/integrations.ts";
import { providerJson } from "../../ports/oauth.ts";
import type * as routes from "./apple-music.routes.ts";
import { findLinked, requireSelfOrService, saveTokens } from "./provider-accounts.ts";

function developerToken(c: Context<AppEnv>) {
  return requireSettings("Apple Music", {
    APPLE_MUSIC_DEVELOPER_TOKEN: c.var.deps.config.providers.appleMusicDeveloperToken,
  }).APPLE_MUSIC_DEVELOPER_TOKEN;
}

export const saveUserToken: AppRouteHandler<typeof routes.saveUserToken> = async (c) => {
  const { user } = await requireUser(c);
  const devToken = developerToken(c);
  await rateLimit(c, `provider:apple:${user.uuid}`, 60, 3600);
  const { musicUserToken } = c.req.valid("json");
  const answer = await providerJson(
    "Apple Music",
    `${trimSlash(c.var.deps.config.providers.appleMusicApiUrl)}/v1/me/storefront`,
    {
      headers: { authorization: `Bearer ${devToken}`, "music-user-token": musicUserToken },
      tokenRefused: errorMessage("APPLE_MUSIC_TOKEN_REFUSED"),
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
};

export const getUserToken: AppRouteHandler<typeof routes.getUserToken> = async (c) => {
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
};
