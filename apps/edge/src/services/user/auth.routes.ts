import { schema } from "@booth/db";
import { createRoute, z } from "@hono/zod-openapi";
import { and, eq } from "drizzle-orm";
import { accountAttempt, activeBan, addressBucket, rateLimit, requireUser } from "../../lib/auth.ts";
import { HttpError, unauthorized } from "../../lib/errors.ts";
import { bearer, createRouter, errors, json, jsonBody } from "../../lib/openapi.ts";
import { verifyPassword } from "../../lib/password.ts";
import { signToken, TOKEN_ALG, TOKEN_TTL, TokenPurpose } from "../../lib/tokens.ts";
import { findUserByEmail, issueToken, loadUser, normalizeEmail, userView } from "./accounts.ts";
import { consumeLinkToken, issueCode, linkToken } from "./codes.ts";
import { AuthResultSchema, Email, MessageSchema, TokenResultSchema } from "./schemas.ts";

export const INCORRECT_LOGIN = "Incorrect email or password.";
export const MAGIC_LINK_SENT = "If this email is registered, a sign-in link has been sent to it.";
export const MAGIC_LINK_INVALID = "This sign-in link is invalid or has expired.";
const MAGIC_LINK_TTL = 15 * 60;

/**
 * Password guesses: any address tries 50 logins per 15 minutes; one address guesses one account's password 10 times
 * per 15 minutes; all addresses together 100 times an hour, so a stranger cannot lock the owner out from elsewhere.
 */
export const LOGIN_LIMITS = {
  perAddressOverall: [50, 15 * 60],
  perAddress: [10, 15 * 60],
  perAccount: [100, 60 * 60],
} as const;
/** Sign-in links: 5 an hour asked from one address for one email, 20 an hour for that email from anywhere. */
const MAGIC_LINK_LIMITS = { perAddress: [5, 60 * 60], perAccount: [20, 60 * 60] } as const;

const tags = ["Auth"];
export const authRoutes = createRouter();

authRoutes.openapi(
  createRoute({
    method: "post",
    path: "/auth/login",
    tags,
    summary: "Log in with email and password",
    request: jsonBody(z.object({ email: Email, password: z.string().min(1).max(1024) })),
    responses: { 200: json(AuthResultSchema), ...errors(400, 401, 403, 429) },
  }),
  async (c) => {
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
    if (user.deactivatedAt) throw new HttpError(403, "This account is deactivated.");
    if (await activeBan(db, user.uuid, clock.now())) throw new HttpError(403, "This account is banned.");
    const [updated] = await db
      .update(schema.users)
      .set({ lastLoginAt: clock.now() })
      .where(eq(schema.users.uuid, user.uuid))
      .returning();
    const loaded = await loadUser(db, user.uuid);
    return c.json({ ...(await issueToken(c, updated ?? user)), user: userView(updated ?? user, loaded?.profile) }, 200);
  },
);

authRoutes.openapi(
  createRoute({
    method: "get",
    path: "/auth/session",
    tags,
    summary: "The signed-in user, with a fresh token (sessions slide while used; a live token is refused)",
    security: bearer,
    responses: { 200: json(AuthResultSchema), ...errors(401, 403) },
  }),
  async (c) => {
    const { user, claims } = await requireUser(c, { types: ["user", "bot"] });
    const loaded = await loadUser(c.var.deps.db, user.uuid);
    return c.json({ ...(await issueToken(c, user, claims.type)), user: userView(user, loaded?.profile) }, 200);
  },
);

authRoutes.openapi(
  createRoute({
    method: "post",
    path: "/auth/live-token",
    tags,
    summary:
      "A short-lived live token (15 minutes) for what a browser itself calls: the live room's socket, HLS playlists, listening events. It opens nothing else and cannot be renewed with itself",
    security: bearer,
    responses: { 200: json(TokenResultSchema), ...errors(401, 403, 429) },
  }),
  async (c) => {
    const { user, claims } = await requireUser(c, { types: ["user", "bot"] });
    await rateLimit(c, `live-token:${user.uuid}`, 120, 3600);
    return c.json(await issueToken(c, user, claims.type, TokenPurpose.live), 200);
  },
);

authRoutes.openapi(
  createRoute({
    method: "get",
    path: "/auth/pub-key",
    tags,
    summary: "The public key that verifies every token this edge signs",
    responses: {
      200: json(
        z
          .object({
            alg: z.string(),
            kid: z.string(),
            publicKey: z.string(),
            jwk: z.record(z.string(), z.unknown()),
          })
          .openapi("PublicKey"),
      ),
    },
  }),
  (c) => {
    const { keys } = c.var.deps;
    return c.json({ alg: TOKEN_ALG, kid: keys.kid, publicKey: keys.publicPem, jwk: { ...keys.publicJwk } }, 200);
  },
);

authRoutes.openapi(
  createRoute({
    method: "get",
    path: "/auth/guest",
    tags,
    summary: "A guest token: browse rooms and preview without an account",
    responses: { 200: json(TokenResultSchema.extend({ guestUuid: z.uuid() }).openapi("GuestToken")), ...errors(429) },
  }),
  async (c) => {
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
  },
);

authRoutes.openapi(
  createRoute({
    method: "get",
    path: "/auth/magic-link",
    tags,
    summary: "Email a one-time sign-in link (the answer is the same whether the email is registered or not)",
    request: { query: z.object({ email: Email }) },
    responses: { 200: json(MessageSchema), ...errors(400, 429) },
  }),
  async (c) => {
    const { email } = c.req.valid("query");
    const { db, clock, mailer, config } = c.var.deps;
    const address = normalizeEmail(email);
    await rateLimit(c, `magic:ip:${addressBucket(c)}`, 20, 60 * 60);
    await accountAttempt(c, "magic", address, MAGIC_LINK_LIMITS);
    const user = await findUserByEmail(db, address);
    if (user && !user.deactivatedAt) {
      const token = linkToken();
      await issueCode(db, {
        purpose: "magicLink",
        target: user.uuid,
        userUuid: user.uuid,
        code: token,
        now: clock.now(),
        ttlSeconds: MAGIC_LINK_TTL,
      });
      await mailer.send({
        to: address,
        subject: "Your Booth sign-in link",
        text: `Sign in to Booth: ${config.webUrl}/magic-link?token=${token}\nThe link works once, for 15 minutes.`,
      });
    }
    return c.json({ message: MAGIC_LINK_SENT }, 200);
  },
);

authRoutes.openapi(
  createRoute({
    method: "post",
    path: "/auth/validate-magic-link",
    tags,
    summary: "Exchange a sign-in link's token for a session",
    request: jsonBody(z.object({ token: z.string().min(1).max(256) })),
    responses: { 200: json(AuthResultSchema), ...errors(400, 401, 403, 429) },
  }),
  async (c) => {
    const { token } = c.req.valid("json");
    const { db, clock } = c.var.deps;
    await rateLimit(c, `magic-check:ip:${addressBucket(c)}`, 30, 15 * 60);
    const code = await consumeLinkToken(db, { purpose: "magicLink", token, now: clock.now() });
    const loaded = code?.userUuid ? await loadUser(db, code.userUuid) : null;
    if (!loaded || loaded.user.deactivatedAt) throw unauthorized(MAGIC_LINK_INVALID);
    if (await activeBan(db, loaded.user.uuid, clock.now())) throw new HttpError(403, "This account is banned.");
    // Following the link proves the address: verify it if it was pending.
    const now = clock.now();
    if (!loaded.user.verifiedAt) {
      await db.update(schema.users).set({ verifiedAt: now }).where(eq(schema.users.uuid, loaded.user.uuid));
      await db
        .update(schema.emails)
        .set({ status: "VERIFIED", verifiedAt: now })
        .where(
          and(
            eq(schema.emails.userUuid, loaded.user.uuid),
            eq(schema.emails.email, loaded.user.email ?? ""),
            eq(schema.emails.status, "PENDING_VERIFICATION"),
          ),
        );
      loaded.user.verifiedAt = now;
    }
    await db.update(schema.users).set({ lastLoginAt: now }).where(eq(schema.users.uuid, loaded.user.uuid));
    return c.json({ ...(await issueToken(c, loaded.user)), user: userView(loaded.user, loaded.profile) }, 200);
  },
);
