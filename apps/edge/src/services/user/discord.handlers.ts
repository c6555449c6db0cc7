import { addressBucket, rateLimit, requireUser } from "../../lib/auth.ts";
import { forbidden, HttpError } from "../../lib/errors.ts";
import type { AppRouteHandler } from "../../lib/openapi.ts";
import { forgetAccount } from "./account-cache.ts";
import { issueToken, loadUser, userView } from "./accounts.ts";
import type * as routes from "./discord.routes.ts";
import {
  DISCORD_MESSAGES,
  discordAccount,
  discordSettings,
  discordUser,
  exchange,
  linkDiscordAccount,
} from "./discord.ts";
import { activeBan } from "./sanctions.ts";
import { recordLogin } from "./sign-in.ts";

export const discordAuth: AppRouteHandler<typeof routes.discordAuth> = async (c) => {
  const grant = c.req.valid("json");
  const settings = discordSettings(c.var.deps.config.integrations);
  await rateLimit(c, `discord:ip:${addressBucket(c)}`, 30, 15 * 60);
  const { db, clock } = c.var.deps;
  const discord = await discordUser(settings, grant);
  const { userUuid, isNewUser } = await discordAccount(db, discord, () => clock.now());
  const loaded = await loadUser(db, userUuid);
  if (!loaded) throw new HttpError(409, DISCORD_MESSAGES.linkedElsewhere);
  if (loaded.user.deactivatedAt) throw forbidden(DISCORD_MESSAGES.deactivated);
  if (await activeBan(db, userUuid, clock.now())) throw forbidden(DISCORD_MESSAGES.banned);
  await recordLogin(db, userUuid, clock.now());
  await forgetAccount(c.var.deps.cache, userUuid);
  return c.json({ ...(await issueToken(c, loaded.user)), user: userView(loaded.user, loaded.profile), isNewUser }, 200);
};

export const exchangeCode: AppRouteHandler<typeof routes.exchangeCode> = async (c) => {
  const { code, redirectUri } = c.req.valid("json");
  const settings = discordSettings(c.var.deps.config.integrations);
  await rateLimit(c, `discord:ip:${addressBucket(c)}`, 30, 15 * 60);
  // The Activity's code (the SDK's authorize) was issued for no redirect URI.
  const tokens = await exchange(settings, code, redirectUri, { activity: true });
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
};

export const linkDiscord: AppRouteHandler<typeof routes.linkDiscord> = async (c) => {
  const grant = c.req.valid("json");
  const { user } = await requireUser(c);
  const settings = discordSettings(c.var.deps.config.integrations);
  await rateLimit(c, `discord:user:${user.uuid}`, 30, 15 * 60);
  const { db, clock } = c.var.deps;
  const discord = await discordUser(settings, grant);
  const row = await linkDiscordAccount(db, user.uuid, discord, clock.now());
  return c.json({ discordUserId: discord.id, username: discord.username, displayName: row.displayName }, 200);
};
