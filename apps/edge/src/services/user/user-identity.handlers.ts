import type { Context } from "hono";
import { ADMINS, addressBucket, hasAnyRole, rateLimit, requireUser } from "../../lib/auth.ts";
import type { AppEnv } from "../../lib/context.ts";
import { badRequest, forbidden, found, USER_NOT_FOUND, unauthorized } from "../../lib/errors.ts";
import type { AppRouteHandler } from "../../lib/openapi.ts";
import { forgetAccount } from "./account-cache.ts";
import { findUser } from "./accounts.ts";
import { consumeCode, issueCode, numericCode } from "./codes.ts";
import * as identities from "./identities.ts";
import { identityView, refuseTakenPhone, verificationTarget } from "./identities.ts";
import { checkPhone, FRAUD_CONSTANTS, PHONE_REFUSED, toE164 } from "./phone-checks.ts";
import { CODE_INCORRECT, CODE_SENT } from "./phone-sign-in.ts";
import type * as routes from "./user-identity.routes.ts";

/** A user acting for themselves, or a service token / admin acting for anyone. */
async function identityCaller(c: Context<AppEnv>) {
  if (c.var.auth?.type === "service") return { uuid: null, privileged: true };
  const { user } = await requireUser(c);
  return { uuid: user.uuid, privileged: hasAnyRole(user.roles, ADMINS) };
}

export const requestVerification: AppRouteHandler<typeof routes.requestVerification> = async (c) => {
  const { user } = await requireUser(c);
  const { phone: raw, channel } = c.req.valid("json");
  const { db, clock, sms } = c.var.deps;
  await rateLimit(c, `idv:user:${user.uuid}`, FRAUD_CONSTANTS.codesPerPhonePerHour, 3600);
  await rateLimit(c, `idv:ip:${addressBucket(c)}`, FRAUD_CONSTANTS.codesPerAddressPerHour, 3600);
  const check = await checkPhone(db, raw, clock.now(), user.uuid);
  if (check.status !== "VALID") throw badRequest(PHONE_REFUSED);
  await refuseTakenPhone(db, check.phone, user.uuid);
  const code = numericCode();
  await issueCode(db, {
    purpose: "identityVerification",
    target: verificationTarget(user.uuid, check.phone),
    userUuid: user.uuid,
    code,
    channel,
    now: clock.now(),
    ttlSeconds: FRAUD_CONSTANTS.codeTtlSeconds,
  });
  await sms.send({
    to: check.phone,
    channel,
    text: `Your Booth verification code is ${code}. It expires in 10 minutes.`,
  });
  return c.json({ message: CODE_SENT }, 200);
};

export const verifyIdentity: AppRouteHandler<typeof routes.verifyIdentity> = async (c) => {
  const { user } = await requireUser(c);
  const body = c.req.valid("json");
  const phone = toE164(body.phone);
  if (!phone) throw badRequest(["phone: is not a phone number"]);
  const { db, clock } = c.var.deps;
  await rateLimit(c, `idv-check:user:${user.uuid}`, 20, 3600);
  const now = clock.now();
  const used = await consumeCode(db, {
    purpose: "identityVerification",
    target: verificationTarget(user.uuid, phone),
    code: body.code,
    now,
  });
  if (!used) throw unauthorized(CODE_INCORRECT);
  const verified = await identities.verifyPhoneIdentity(db, user.uuid, phone, now);
  await forgetAccount(c.var.deps.cache, user.uuid);
  return c.json(identityView(verified), 200);
};

export const createIdentity: AppRouteHandler<typeof routes.createIdentity> = async (c) => {
  const caller = await identityCaller(c);
  const body = c.req.valid("json");
  if (!caller.privileged && ((body.userUuid && body.userUuid !== caller.uuid) || body.verified)) throw forbidden();
  const userUuid = body.userUuid ?? caller.uuid;
  if (!userUuid) throw badRequest(["userUuid: is required with a service token"]);
  const value = toE164(body.value);
  if (!value) throw badRequest(["value: is not a phone number"]);
  const { db, clock } = c.var.deps;
  found(await findUser(db, userUuid), USER_NOT_FOUND);
  const row = await identities.createIdentity(db, {
    userUuid,
    channel: body.channel,
    value,
    verified: !!body.verified,
    now: clock.now(),
  });
  return c.json(identityView(row), 201);
};

export const listIdentities: AppRouteHandler<typeof routes.listIdentities> = async (c) => {
  const caller = await identityCaller(c);
  const q = c.req.valid("query");
  if (!caller.privileged && q.userUuid && q.userUuid !== caller.uuid) throw forbidden();
  const rows = await identities.findIdentities(c.var.deps.db, {
    ...q,
    owner: caller.privileged ? q.userUuid : caller.uuid,
  });
  return c.json(rows.map(identityView), 200);
};

export const deleteIdentity: AppRouteHandler<typeof routes.deleteIdentity> = async (c) => {
  const caller = await identityCaller(c);
  const { db } = c.var.deps;
  const row = found(await identities.findIdentity(db, c.req.valid("param").id), "Identity not found.");
  if (!caller.privileged && row.userUuid !== caller.uuid) throw forbidden();
  await identities.deleteIdentity(db, row.id);
  return c.body(null, 204);
};
