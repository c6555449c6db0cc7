import { schema } from "@booth/db";
import { createRoute, z } from "@hono/zod-openapi";
import { eq, sql } from "drizzle-orm";
import { ADMINS, accountAttempt, addressBucket, mayManage, rateLimit, requireUser } from "../../lib/auth.ts";
import { forbidden, HttpError, notFound } from "../../lib/errors.ts";
import { bearer, createRouter, errors, json, jsonBody, noContent } from "../../lib/openapi.ts";
import { hashPassword, verifyPassword } from "../../lib/password.ts";
import { findUserByEmail, issueToken, normalizeEmail } from "./accounts.ts";
import { consumeLinkToken, issueCode, linkToken } from "./codes.ts";
import { Email, MessageSchema, Password, TokenResultSchema } from "./schemas.ts";

export const CANNOT_RESET = "Can not reset password.";
export const RESET_SENT = "If this email is registered, a link to reset the password has been sent to it.";
export const WRONG_CURRENT_PASSWORD = "The current password is incorrect.";
const RESET_TTL = 3600;

const tags = ["Passwords"];
export const passwordRoutes = createRouter();

/** New password hash, and every token issued before revoked. */
const passwordChange = async (password: string) => ({
  passwordHash: await hashPassword(password),
  tokenVersion: sql`${schema.users.tokenVersion} + 1`,
});

passwordRoutes.openapi(
  createRoute({
    method: "post",
    path: "/users/forgot-password",
    tags,
    summary: "Email a password-reset link (the answer is the same whether the email is registered or not)",
    request: jsonBody(z.object({ email: Email })),
    responses: { 200: json(MessageSchema), ...errors(400, 429) },
  }),
  async (c) => {
    const address = normalizeEmail(c.req.valid("json").email);
    const { db, clock, mailer, config } = c.var.deps;
    await rateLimit(c, `forgot:ip:${addressBucket(c)}`, 20, 3600);
    // An email's owner can still ask from their own address when a stranger has asked for it many times.
    await accountAttempt(c, "forgot", address, { perAddress: [5, 3600], perAccount: [20, 3600] });
    const user = await findUserByEmail(db, address);
    if (user && !user.deactivatedAt) {
      const token = linkToken();
      await issueCode(db, {
        purpose: "passwordReset",
        target: user.uuid,
        userUuid: user.uuid,
        code: token,
        now: clock.now(),
        ttlSeconds: RESET_TTL,
      });
      await mailer.send({
        to: address,
        subject: "Reset your Booth password",
        text: `Choose a new password: ${config.webUrl}/reset-password?token=${token}\nThe link works once, for one hour. If you did not ask for it, ignore this email.`,
      });
    }
    return c.json({ message: RESET_SENT }, 200);
  },
);

passwordRoutes.openapi(
  createRoute({
    method: "post",
    path: "/users/reset-password",
    tags,
    summary: "Set a new password with the token from a reset link; every session ends",
    request: jsonBody(z.object({ token: z.string().min(1).max(256), password: Password })),
    responses: { ...noContent, ...errors(400, 403, 429) },
  }),
  async (c) => {
    const { token, password } = c.req.valid("json");
    const { db, clock } = c.var.deps;
    await rateLimit(c, `reset:ip:${addressBucket(c)}`, 30, 3600);
    const code = await consumeLinkToken(db, { purpose: "passwordReset", token, now: clock.now() });
    if (!code?.userUuid) throw new HttpError(403, CANNOT_RESET);
    await db
      .update(schema.users)
      .set({ ...(await passwordChange(password)), updatedAt: clock.now() })
      .where(eq(schema.users.uuid, code.userUuid));
    return c.body(null, 204);
  },
);

passwordRoutes.openapi(
  createRoute({
    method: "post",
    path: "/users/set-password",
    tags,
    summary: "Set or change the caller's password; other sessions end and a fresh token is answered",
    security: bearer,
    request: jsonBody(z.object({ password: Password, currentPassword: z.string().max(1024).optional() })),
    responses: { 200: json(TokenResultSchema), ...errors(400, 401, 403, 429) },
  }),
  async (c) => {
    const { user } = await requireUser(c);
    const { password, currentPassword } = c.req.valid("json");
    const { db, clock } = c.var.deps;
    await rateLimit(c, `set-password:${user.uuid}`, 10, 3600);
    if (user.passwordHash && !(await verifyPassword(currentPassword ?? "", user.passwordHash)))
      throw forbidden(WRONG_CURRENT_PASSWORD);
    const [updated] = await db
      .update(schema.users)
      .set({ ...(await passwordChange(password)), updatedAt: clock.now() })
      .where(eq(schema.users.uuid, user.uuid))
      .returning();
    return c.json(await issueToken(c, updated ?? user), 200);
  },
);

passwordRoutes.openapi(
  createRoute({
    method: "post",
    path: "/users/change-password-admin",
    tags: ["Admin"],
    summary: "An admin sets a user's password; the user's sessions end",
    security: bearer,
    request: jsonBody(z.object({ userUuid: z.uuid(), password: Password })),
    responses: { ...noContent, ...errors(400, 401, 403, 404) },
  }),
  async (c) => {
    const { user: admin } = await requireUser(c, { roles: ADMINS });
    const { userUuid, password } = c.req.valid("json");
    const { db, clock } = c.var.deps;
    const [target] = await db.select().from(schema.users).where(eq(schema.users.uuid, userUuid));
    if (!target) throw notFound("User not found.");
    if (!mayManage(admin, target)) throw forbidden();
    await db
      .update(schema.users)
      .set({ ...(await passwordChange(password)), updatedAt: clock.now() })
      .where(eq(schema.users.uuid, userUuid));
    return c.body(null, 204);
  },
);
