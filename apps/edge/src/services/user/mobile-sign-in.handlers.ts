import { ADMINS, accountAttempt, addressBucket, rateLimit, requireUser, STAFF } from "../../lib/auth.ts";
import { errorMessage } from "../../lib/error-codes.ts";
import { badRequest, found, HttpError, unauthorized } from "../../lib/errors.ts";
import type { AppRouteHandler } from "../../lib/openapi.ts";
import { forgetAccount } from "./account-cache.ts";
import { issueToken, loadUser, userView } from "./accounts.ts";
import { consumeCode, issueCode, numericCode } from "./codes.ts";
import type * as routes from "./mobile-sign-in.routes.ts";
import { checkPhone, FRAUD_CONSTANTS, PHONE_REFUSED } from "./phone-checks.ts";
import {
  addToWhitelist,
  CODE_GUESSES_PER_PHONE_PER_HOUR,
  CODE_INCORRECT,
  CODE_SENT,
  CODES_PER_PHONE_PER_HOUR_FROM_ANYWHERE,
  clearValidations,
  createPhoneAccount,
  e164,
  NOT_WHITELISTED,
  recentValidations as recentValidationPage,
  removeFromWhitelist,
  verifiedPhoneIdentity,
  whitelistEntry,
  whitelistPage,
  whitelistView,
} from "./phone-sign-in.ts";
import { activeBan } from "./sanctions.ts";
import { recordLogin } from "./sign-in.ts";

export const validatePhone: AppRouteHandler<typeof routes.validatePhone> = async (c) => {
  await rateLimit(c, `phone-validate:ip:${addressBucket(c)}`, FRAUD_CONSTANTS.validationsPerAddressPerHour, 3600);
  const { db, clock } = c.var.deps;
  const caller = c.var.auth?.type === "user" ? c.var.auth.sub : null;
  return c.json(await checkPhone(db, c.req.valid("param").phone, clock.now(), caller), 200);
};

export const recentValidations: AppRouteHandler<typeof routes.recentValidations> = async (c) => {
  await requireUser(c, { roles: STAFF });
  return c.json(await recentValidationPage(c.var.deps.db, c.req.valid("query")), 200);
};

export const clearRecentValidations: AppRouteHandler<typeof routes.clearRecentValidations> = async (c) => {
  await requireUser(c, { roles: ADMINS });
  const { olderThan } = c.req.valid("query");
  const deleted = await clearValidations(c.var.deps.db, olderThan ? new Date(olderThan) : undefined);
  return c.json({ deleted }, 200);
};

export const fraudConstants: AppRouteHandler<typeof routes.fraudConstants> = (c) =>
  c.json(
    {
      ...FRAUD_CONSTANTS,
      refusedLineTypes: [...FRAUD_CONSTANTS.refusedLineTypes],
      notMobileLineTypes: [...FRAUD_CONSTANTS.notMobileLineTypes],
    },
    200,
  );

export const sendCode: AppRouteHandler<typeof routes.sendCode> = async (c) => {
  const { phone: raw, channel } = c.req.valid("json");
  const { db, clock, sms } = c.var.deps;
  await rateLimit(c, `sms:ip:${addressBucket(c)}`, FRAUD_CONSTANTS.codesPerAddressPerHour, 3600);
  const check = await checkPhone(db, raw, clock.now());
  if (check.status !== "VALID") throw badRequest(PHONE_REFUSED);
  await accountAttempt(c, "sms", check.phone, {
    perAddress: [FRAUD_CONSTANTS.codesPerPhonePerHour, 3600],
    perAccount: [CODES_PER_PHONE_PER_HOUR_FROM_ANYWHERE, 3600],
  });
  const code = numericCode();
  const now = clock.now();
  await issueCode(db, {
    purpose: "mobileAuth",
    target: check.phone,
    code,
    channel,
    now,
    ttlSeconds: FRAUD_CONSTANTS.codeTtlSeconds,
  });
  await sms.send({ to: check.phone, channel, text: `Your Booth code is ${code}. It expires in 10 minutes.` });
  return c.json(
    { message: CODE_SENT, expiresAt: new Date(now.getTime() + FRAUD_CONSTANTS.codeTtlSeconds * 1000).toISOString() },
    200,
  );
};

export const verifyCode: AppRouteHandler<typeof routes.verifyCode> = async (c) => {
  const body = c.req.valid("json");
  const phone = e164(body.phone);
  const { db, clock } = c.var.deps;
  await rateLimit(c, `sms-check:ip:${addressBucket(c)}`, 30, 3600);
  const attempt = await accountAttempt(c, "sms-check", phone, {
    perAddress: [FRAUD_CONSTANTS.maxCodeAttempts, FRAUD_CONSTANTS.codeTtlSeconds],
    perAccount: [CODE_GUESSES_PER_PHONE_PER_HOUR, 3600],
  });
  const now = clock.now();
  if (!(await consumeCode(db, { purpose: "mobileAuth", target: phone, code: body.code, now, maxAttempts: null })))
    throw unauthorized(CODE_INCORRECT);
  await attempt.succeeded();
  const identity = await verifiedPhoneIdentity(db, phone);
  if (identity) {
    const loaded = await loadUser(db, identity.userUuid);
    if (!loaded) throw unauthorized(CODE_INCORRECT);
    if (loaded.user.deactivatedAt) throw new HttpError(403, errorMessage("ACCOUNT_DEACTIVATED"));
    if (await activeBan(db, loaded.user.uuid, now)) throw new HttpError(403, errorMessage("ACCOUNT_BANNED"));
    await recordLogin(db, loaded.user.uuid, now);
    await forgetAccount(c.var.deps.cache, loaded.user.uuid);
    return c.json({ ...(await issueToken(c, loaded.user)), user: userView(loaded.user, loaded.profile) }, 200);
  }
  const created = await createPhoneAccount(db, phone, now);
  return c.json({ ...(await issueToken(c, created.user)), user: userView(created.user, created.profile) }, 201);
};

// ---- whitelist (numbers that pass whatever their line type: test and staff numbers)

async function whitelist(c: Parameters<typeof requireUser>[0], raw: string, note: string | undefined) {
  const { user } = await requireUser(c, { roles: ADMINS });
  const phone = e164(raw);
  return whitelistView(
    await addToWhitelist(c.var.deps.db, { phone, note, createdBy: user.uuid, now: c.var.deps.clock.now() }),
  );
}

export const whitelistPhone: AppRouteHandler<typeof routes.whitelistPhone> = async (c) => {
  const body = c.req.valid("json");
  return c.json(await whitelist(c, body.phone, body.note), 201);
};

export const unwhitelistPhone: AppRouteHandler<typeof routes.unwhitelistPhone> = async (c) => {
  await requireUser(c, { roles: ADMINS });
  const phone = e164(c.req.valid("param").phone);
  await removeFromWhitelist(c.var.deps.db, { phone });
  return c.body(null, 204);
};

export const listPhoneNumbers: AppRouteHandler<typeof routes.listPhoneNumbers> = async (c) => {
  await requireUser(c, { roles: STAFF });
  return c.json(await whitelistPage(c.var.deps.db, c.req.valid("query")), 200);
};

export const addPhoneNumber: AppRouteHandler<typeof routes.addPhoneNumber> = async (c) => {
  const body = c.req.valid("json");
  return c.json(await whitelist(c, body.phone, body.note), 201);
};

export const getPhoneNumber: AppRouteHandler<typeof routes.getPhoneNumber> = async (c) => {
  await requireUser(c, { roles: STAFF });
  const row = found(await whitelistEntry(c.var.deps.db, c.req.valid("param").id), NOT_WHITELISTED);
  return c.json(whitelistView(row), 200);
};

export const deletePhoneNumber: AppRouteHandler<typeof routes.deletePhoneNumber> = async (c) => {
  await requireUser(c, { roles: ADMINS });
  await removeFromWhitelist(c.var.deps.db, { id: c.req.valid("param").id });
  return c.body(null, 204);
};
