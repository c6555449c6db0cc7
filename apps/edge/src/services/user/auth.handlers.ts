import { accountAttempt, addressBucket, rateLimit, requireUser } from "../../lib/auth.ts";
import { errorMessage } from "../../lib/error-codes.ts";
import { HttpError, unauthorized } from "../../lib/errors.ts";
import type { AppRouteHandler } from "../../lib/openapi.ts";
import { verifyPassword } from "../../lib/password.ts";
import { signToken, TOKEN_ALG, TOKEN_TTL, TokenPurpose } from "../../lib/tokens.ts";
import { forgetAccount } from "./account-cache.ts";
import {
  findProfile,
  findUserByEmail,
  issueToken,
  loadUser,
  normalizeEmail,
  sessionToken,
  userView,
} from "./accounts.ts";
import type * as routes from "./auth.routes.ts";
import { consumeLinkToken, mailLink } from "./codes.ts";
import { activeBan } from "./sanctions.ts";
import {
  INCORRECT_LOGIN,
  LOGIN_LIMITS,
  MAGIC_LINK_INVALID,
  MAGIC_LINK_LIMITS,
  MAGIC_LINK_SENT,
  MAGIC_LINK_TTL,
  recordLogin,
  verifyLoginEmail,
} from "./sign-in.ts";

export const login: AppRouteHandler<typeof routes.login> = async (c) => {
  const { email, password } = c.req.valid("json");
  const { db, clock } = c.var.deps;
  const address = normalizeEmail(email);
  await rateLimit(c, `login:ip:${addressBucket(c)}`, ...LOGIN_LIMITS.perAddressOverall);
  const attempt = await accountAttempt(c, "login", address, LOGIN_LIMITS);
  const user = await findUserByEmail(db, address);
  // Always verify a hash, so a missing account costs the same time as a wrong password.
  const ok = await verifyPassword(password, user?.passwordHash);
  if (!user || !ok) throw unauthorized(INCORRECT_LOGIN);
  await attempt.succeeded();
  if (user.deactivatedAt) throw new HttpError(403, errorMessage("ACCOUNT_DEACTIVATED"));
  if (await activeBan(db, user.uuid, clock.now())) throw new HttpError(403, errorMessage("ACCOUNT_BANNED"));
  const updated = await recordLogin(db, user.uuid, clock.now());
  await forgetAccount(c.var.deps.cache, user.uuid);
  const loaded = await loadUser(db, user.uuid);
  return c.json({ ...(await issueToken(c, updated ?? user)), user: userView(updated ?? user, loaded?.profile) }, 200);
};

export const session: AppRouteHandler<typeof routes.session> = async (c) => {
  // The account from requireUser (the shared cache, lib/account-cache.ts), its profile from the database.
  const { user, claims } = await requireUser(c, { types: ["user", "bot"] });
  const [token, profile] = await Promise.all([
    sessionToken(c, user, claims.type),
    findProfile(c.var.deps.db, user.uuid),
  ]);
  return c.json({ ...token, user: userView(user, profile) }, 200);
};

export const liveToken: AppRouteHandler<typeof routes.liveToken> = async (c) => {
  const { user, claims } = await requireUser(c, { types: ["user", "bot"] });
  await rateLimit(c, `live-token:${user.uuid}`, 120, 3600);
  return c.json(await issueToken(c, user, claims.type, TokenPurpose.live), 200);
};

export const publicKey: AppRouteHandler<typeof routes.publicKey> = (c) => {
  const { keys } = c.var.deps;
  return c.json({ alg: TOKEN_ALG, kid: keys.kid, publicKey: keys.publicPem, jwk: { ...keys.publicJwk } }, 200);
};

export const guestToken: AppRouteHandler<typeof routes.guestToken> = async (c) => {
  await rateLimit(c, `guest:ip:${addressBucket(c)}`, 60, 60 * 60);
  const { keys, clock } = c.var.deps;
  const now = Math.floor(clock.now().getTime() / 1000);
  const guestUuid = crypto.randomUUID();
  const accessToken = await signToken(keys, { sub: guestUuid, type: "guest", roles: [], badges: [], ver: 0 }, now);
  return c.json(
    {
      accessToken,
      tokenType: "Bearer" as const,
      expiresAt: new Date((now + TOKEN_TTL.guest) * 1000).toISOString(),
      guestUuid,
    },
    200,
  );
};

export const magicLink: AppRouteHandler<typeof routes.magicLink> = async (c) => {
  const { email } = c.req.valid("query");
  const { config } = c.var.deps;
  const address = normalizeEmail(email);
  await rateLimit(c, `magic:ip:${addressBucket(c)}`, 20, 60 * 60);
  await accountAttempt(c, "magic", address, MAGIC_LINK_LIMITS);
  await mailLink(c.var.deps, address, { purpose: "magicLink", ttlSeconds: MAGIC_LINK_TTL }, (token) => ({
    subject: "Your Booth sign-in link",
    text: `Sign in to Booth: ${config.webUrl}/magic-link?token=${token}\nThe link works once, for 15 minutes.`,
  }));
  return c.json({ message: MAGIC_LINK_SENT }, 200);
};

export const validateMagicLink: AppRouteHandler<typeof routes.validateMagicLink> = async (c) => {
  const { token } = c.req.valid("json");
  const { db, clock } = c.var.deps;
  await rateLimit(c, `magic-check:ip:${addressBucket(c)}`, 30, 15 * 60);
  const code = await consumeLinkToken(db, { purpose: "magicLink", token, now: clock.now() });
  const loaded = code?.userUuid ? await loadUser(db, code.userUuid) : null;
  if (!loaded || loaded.user.deactivatedAt) throw unauthorized(MAGIC_LINK_INVALID);
  if (await activeBan(db, loaded.user.uuid, clock.now())) throw new HttpError(403, errorMessage("ACCOUNT_BANNED"));
  // Following the link proves the address: verify it if it was pending.
  const now = clock.now();
  if (!loaded.user.verifiedAt) {
    await verifyLoginEmail(db, loaded.user, now);
    loaded.user.verifiedAt = now;
  }
  await recordLogin(db, loaded.user.uuid, now);
  await forgetAccount(c.var.deps.cache, loaded.user.uuid);
  return c.json({ ...(await issueToken(c, loaded.user)), user: userView(loaded.user, loaded.profile) }, 200);
};
