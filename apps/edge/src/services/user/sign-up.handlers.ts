import type { Context } from "hono";
import { ADMINS, addressBucket, rateLimit, requireUser, type User } from "../../lib/auth.ts";
import type { AppEnv } from "../../lib/context.ts";
import { badRequest, forbidden } from "../../lib/errors.ts";
import type { AppRouteHandler } from "../../lib/openapi.ts";
import { hashPassword } from "../../lib/password.ts";
import { forgetAccount } from "./account-cache.ts";
import { issueToken, userView } from "./accounts.ts";
import type { Profile } from "./public-profiles.ts";
import type * as routes from "./sign-up.routes.ts";
import {
  createBot,
  firstEmailOf,
  MISSING_EMAIL_OR_PASSWORD,
  MISSING_VOUCHER_FIELDS,
  rotateBotTokens,
  signUpAccount,
  signUpWithVoucher,
} from "./sign-up.ts";
import { sendVerificationEmail } from "./verification.ts";

/**
 * What a sign-up from a client makes the account of: refused with `missing` without an email or password, limited per
 * address, the password hashed.
 */
async function newAccount(
  c: Context<AppEnv>,
  body: { email?: string | undefined; password?: string | undefined; nickname?: string | undefined },
  missing: string,
) {
  if (!body.email || !body.password) throw badRequest(missing);
  await rateLimit(c, `signup:ip:${addressBucket(c)}`, 20, 60 * 60);
  const passwordHash = await hashPassword(body.password);
  return { email: body.email, passwordHash, nickname: body.nickname ?? null, now: c.var.deps.clock.now() };
}

/** A new account's answer, its first email sent the code that verifies it: a token and the user. */
async function welcome(c: Context<AppEnv>, { user, profile }: { user: User; profile: Profile | null }) {
  const emailRow = await firstEmailOf(c.var.deps.db, user.uuid);
  if (emailRow) await sendVerificationEmail(c, emailRow);
  return { ...(await issueToken(c, user)), user: userView(user, profile) };
}

export const signUp: AppRouteHandler<typeof routes.signUp> = async (c) => {
  const input = await newAccount(c, c.req.valid("json"), MISSING_EMAIL_OR_PASSWORD);
  return c.json(await welcome(c, await signUpAccount(c.var.deps.db, input)), 201);
};

export const voucherSignUp: AppRouteHandler<typeof routes.voucherSignUp> = async (c) => {
  const body = c.req.valid("json");
  if (!body.voucherCode) throw badRequest(MISSING_VOUCHER_FIELDS);
  const input = await newAccount(c, body, MISSING_VOUCHER_FIELDS);
  return c.json(await welcome(c, await signUpWithVoucher(c.var.deps.db, input, body.voucherCode)), 201);
};

export const adminSignUp: AppRouteHandler<typeof routes.adminSignUp> = async (c) => {
  const { user: admin } = await requireUser(c, { roles: ADMINS });
  const body = c.req.valid("json");
  if (!body.email || !body.password) throw badRequest(MISSING_EMAIL_OR_PASSWORD);
  const roles = body.roles?.length ? [...new Set(body.roles)] : ["user" as const];
  // Only a superUser hands out superUser.
  if (roles.includes("superUser") && !admin.roles.includes("superUser")) throw forbidden();
  const { db, clock } = c.var.deps;
  const passwordHash = await hashPassword(body.password);
  const { user, profile } = await signUpAccount(db, {
    email: body.email,
    passwordHash,
    nickname: body.nickname ?? null,
    roles,
    emailStatus: "CREATED_BY_ADMIN",
    now: clock.now(),
  });
  return c.json(userView(user, profile), 201);
};

export const botSignUp: AppRouteHandler<typeof routes.botSignUp> = async (c) => {
  const { user: owner } = await requireUser(c);
  const { db, clock } = c.var.deps;
  const { user, profile } = await createBot(db, owner, c.req.valid("json").nickname, clock.now());
  return c.json({ ...(await issueToken(c, user, "bot")), user: userView(user, profile) }, 201);
};

export const botToken: AppRouteHandler<typeof routes.botToken> = async (c) => {
  const { user: caller } = await requireUser(c, { types: ["user"] });
  const bot = await rotateBotTokens(c.var.deps.db, caller, c.req.valid("query").botUuid);
  await forgetAccount(c.var.deps.cache, bot.uuid);
  return c.json(await issueToken(c, bot, "bot"), 200);
};
