import { ADMINS, accountAttempt, addressBucket, mayManage, rateLimit, requireUser } from "../../lib/auth.ts";
import { forbidden, found, HttpError, USER_NOT_FOUND } from "../../lib/errors.ts";
import type { AppRouteHandler } from "../../lib/openapi.ts";
import { verifyPassword } from "../../lib/password.ts";
import { forgetAccount } from "./account-cache.ts";
import { findUser, issueToken, normalizeEmail } from "./accounts.ts";
import { consumeLinkToken, mailLink } from "./codes.ts";
import type * as routes from "./password.routes.ts";
import { CANNOT_RESET, changePassword, RESET_SENT, RESET_TTL, WRONG_CURRENT_PASSWORD } from "./passwords.ts";

export const forgotPassword: AppRouteHandler<typeof routes.forgotPassword> = async (c) => {
  const address = normalizeEmail(c.req.valid("json").email);
  const { config } = c.var.deps;
  await rateLimit(c, `forgot:ip:${addressBucket(c)}`, 20, 3600);
  // An email's owner can still ask from their own address when a stranger has asked for it many times.
  await accountAttempt(c, "forgot", address, { perAddress: [5, 3600], perAccount: [20, 3600] });
  await mailLink(c.var.deps, address, { purpose: "passwordReset", ttlSeconds: RESET_TTL }, (token) => ({
    subject: "Reset your Booth password",
    text: `Choose a new password: ${config.webUrl}/reset-password?token=${token}\nThe link works once, for one hour. If you did not ask for it, ignore this email.`,
  }));
  return c.json({ message: RESET_SENT }, 200);
};

export const resetPassword: AppRouteHandler<typeof routes.resetPassword> = async (c) => {
  const { token, password } = c.req.valid("json");
  const { db, clock } = c.var.deps;
  await rateLimit(c, `reset:ip:${addressBucket(c)}`, 30, 3600);
  const code = await consumeLinkToken(db, { purpose: "passwordReset", token, now: clock.now() });
  if (!code?.userUuid) throw new HttpError(403, CANNOT_RESET);
  await changePassword(db, code.userUuid, password, clock.now());
  await forgetAccount(c.var.deps.cache, code.userUuid);
  return c.body(null, 204);
};

export const setPassword: AppRouteHandler<typeof routes.setPassword> = async (c) => {
  const { user } = await requireUser(c);
  const { password, currentPassword } = c.req.valid("json");
  const { db, clock } = c.var.deps;
  await rateLimit(c, `set-password:${user.uuid}`, 10, 3600);
  // The hash is read here, never kept with the cached account (lib/account-cache.ts).
  const stored = (await findUser(db, user.uuid))?.passwordHash;
  if (stored && !(await verifyPassword(currentPassword ?? "", stored))) throw forbidden(WRONG_CURRENT_PASSWORD);
  const updated = await changePassword(db, user.uuid, password, clock.now());
  await forgetAccount(c.var.deps.cache, user.uuid);
  return c.json(await issueToken(c, updated ?? user), 200);
};

export const changePasswordAdmin: AppRouteHandler<typeof routes.changePasswordAdmin> = async (c) => {
  const { user: admin } = await requireUser(c, { roles: ADMINS });
  const { userUuid, password } = c.req.valid("json");
  const { db, clock } = c.var.deps;
  const target = found(await findUser(db, userUuid), USER_NOT_FOUND);
  if (!mayManage(admin, target)) throw forbidden();
  await changePassword(db, userUuid, password, clock.now());
  await forgetAccount(c.var.deps.cache, userUuid);
  return c.body(null, 204);
};
