import { rateLimit, requireUser } from "../../lib/auth.ts";
import { badRequest, found, HttpError } from "../../lib/errors.ts";
import type { AppRouteHandler } from "../../lib/openapi.ts";
import { forgetAccount } from "./account-cache.ts";
import { consumeCode } from "./codes.ts";
import type * as routes from "./email-addresses.routes.ts";
import * as emails from "./emails.ts";
import {
  ALREADY_VERIFIED,
  EMAIL_NOT_FOUND,
  emailView,
  LOGIN_EMAIL_UNDELETABLE,
  liveEmailById,
  liveEmailOf,
  TOO_SOON,
  VERIFY_FAILED,
} from "./emails.ts";
import { sendVerificationEmail } from "./verification.ts";

export const listEmails: AppRouteHandler<typeof routes.listEmails> = async (c) => {
  const { user } = await requireUser(c);
  const rows = await emails.liveEmailsOf(c.var.deps.db, user.uuid);
  return c.json(
    rows.map((r) => emailView(r, user.email)),
    200,
  );
};

export const addEmail: AppRouteHandler<typeof routes.addEmail> = async (c) => {
  const { user } = await requireUser(c);
  const body = c.req.valid("json");
  const { db, clock } = c.var.deps;
  await rateLimit(c, `emails:add:${user.uuid}`, 10, 3600);
  const row = await emails.addEmail(db, { userUuid: user.uuid, email: body.email, type: body.type, now: clock.now() });
  await sendVerificationEmail(c, row);
  const sent = await emails.emailById(db, row.id);
  return c.json(emailView(sent ?? row, user.email), 201);
};

export const deleteEmail: AppRouteHandler<typeof routes.deleteEmail> = async (c) => {
  const { user } = await requireUser(c);
  const { id } = c.req.valid("param");
  const { db } = c.var.deps;
  const row = found(await liveEmailById(db, user.uuid, id), EMAIL_NOT_FOUND);
  if (row.email === user.email) throw badRequest(LOGIN_EMAIL_UNDELETABLE);
  await emails.deleteEmail(db, id);
  return c.body(null, 204);
};

/** Checks a code for one of the caller's addresses and marks it verified (and the account, for the login email). */
export const verifyEmail: AppRouteHandler<typeof routes.verifyEmail> = async (c) => {
  const body = c.req.valid("json");
  const { user } = await requireUser(c);
  const { db, clock } = c.var.deps;
  await rateLimit(c, `emails:verify:${user.uuid}`, 20, 3600);
  const row = found(
    body.emailId
      ? await liveEmailById(db, user.uuid, body.emailId)
      : await liveEmailOf(db, user.uuid, body.email ?? ""),
    EMAIL_NOT_FOUND,
  );
  if (row.status === "VERIFIED") throw new HttpError(403, ALREADY_VERIFIED);
  const now = clock.now();
  const used = await consumeCode(db, { purpose: "emailVerification", target: row.email, code: body.code, now });
  if (!used || used.userUuid !== user.uuid) throw new HttpError(403, VERIFY_FAILED);
  const verified = await emails.markVerified(db, user, row, now);
  await forgetAccount(c.var.deps.cache, user.uuid);
  return c.json(emailView(verified, user.email), 200);
};

/** The deprecated confirm-email route is the same check under its old path. */
export const confirmEmail: AppRouteHandler<typeof routes.confirmEmail> = verifyEmail;

export const sendVerificationCode: AppRouteHandler<typeof routes.sendVerificationCode> = async (c) => {
  const { user } = await requireUser(c);
  const { db, clock, config } = c.var.deps;
  const row = found(await liveEmailOf(db, user.uuid, c.req.valid("json").email), EMAIL_NOT_FOUND);
  if (row.status === "VERIFIED") throw new HttpError(403, ALREADY_VERIFIED);
  const now = clock.now();
  if (row.lastSentAt && now.getTime() - row.lastSentAt.getTime() < config.emailResendSeconds * 1000)
    throw new HttpError(403, TOO_SOON);
  if (!(await emails.claimResend(db, row, now))) throw new HttpError(403, TOO_SOON);
  await sendVerificationEmail(c, row);
  return c.body(null, 204);
};
