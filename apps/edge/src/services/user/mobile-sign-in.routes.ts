import { schema } from "@booth/db";
import { AuthChannel, values } from "@booth/db/schema";
import { createRoute, z } from "@hono/zod-openapi";
import { and, count, desc, eq, lt } from "drizzle-orm";
import { ADMINS, accountAttempt, activeBan, addressBucket, rateLimit, requireUser, STAFF } from "../../lib/auth.ts";
import { isUniqueViolation } from "../../lib/db-errors.ts";
import { badRequest, conflict, HttpError, notFound, unauthorized } from "../../lib/errors.ts";
import {
  bearer,
  createRouter,
  errors,
  json,
  jsonBody,
  noContent,
  PageQuery,
  pageSchema,
  UuidParam,
} from "../../lib/openapi.ts";
import { createAccount, issueToken, loadUser, userView } from "./accounts.ts";
import { consumeCode, issueCode, numericCode } from "./codes.ts";
import { checkPhone, FRAUD_CONSTANTS, PHONE_REFUSED, toE164 } from "./phone-checks.ts";
import { AuthResultSchema, MessageSchema } from "./schemas.ts";

export const CODE_INCORRECT = "The code is incorrect or has expired.";
export const CODE_SENT = "A code has been sent.";

export const mobileSignInRoutes = createRouter();

/**
 * Anyone may type a number, so a number's limits are split: per (number, address) at the published constants, and
 * from all addresses together at these, higher ones, so a stranger can neither flood the owner's codes out nor burn
 * them (wrong guesses are refused per address, not by burning the code).
 */
const CODES_PER_PHONE_PER_HOUR_FROM_ANYWHERE = 20;
const CODE_GUESSES_PER_PHONE_PER_HOUR = 30;

const Phone = z.string().trim().min(1).max(32).openapi({ example: "+447700900123" });
const PhoneParam = z.object({ phone: Phone.openapi({ param: { name: "phone", in: "path" } }) });
const PhoneCheckSchema = z
  .object({
    phone: z.string(),
    status: z.enum(["VALID", "INVALID", "VOIP", "VALIDATION_ERROR"]),
    country: z.string().nullable(),
    lineType: z.string().nullable(),
    whitelisted: z.boolean(),
  })
  .openapi("PhoneValidation");
const RecentSchema = z
  .object({
    id: z.uuid(),
    phone: z.string(),
    status: z.string(),
    country: z.string().nullable(),
    lineType: z.string().nullable(),
    userUuid: z.uuid().nullable(),
    createdAt: z.string(),
  })
  .openapi("RecentPhoneValidation");
const WhitelistSchema = z
  .object({
    id: z.uuid(),
    phone: z.string(),
    note: z.string().nullable(),
    createdBy: z.uuid().nullable(),
    createdAt: z.string(),
  })
  .openapi("WhitelistedPhone");
type WhitelistRow = typeof schema.phoneWhitelist.$inferSelect;
const whitelistView = (r: WhitelistRow) => ({ ...r, createdAt: r.createdAt.toISOString() });

/** A number in E.164 form, or a 400 naming the field. */
const e164 = (raw: string) => {
  const phone = toE164(raw);
  if (!phone) throw badRequest(["phone: is not a phone number"]);
  return phone;
};

// ---- phone validation

mobileSignInRoutes.openapi(
  createRoute({
    method: "get",
    path: "/phone-validation/validate/{phone}",
    tags: ["Phone"],
    summary: "Whether a number is a real mobile (VALID), not valid (INVALID), a VoIP line (VOIP) or unreadable",
    request: { params: PhoneParam },
    responses: { 200: json(PhoneCheckSchema), ...errors(400, 429) },
  }),
  async (c) => {
    await rateLimit(c, `phone-validate:ip:${addressBucket(c)}`, FRAUD_CONSTANTS.validationsPerAddressPerHour, 3600);
    const { db, clock } = c.var.deps;
    const caller = c.var.auth?.type === "user" ? c.var.auth.sub : null;
    return c.json(await checkPhone(db, c.req.valid("param").phone, clock.now(), caller), 200);
  },
);

mobileSignInRoutes.openapi(
  createRoute({
    method: "get",
    path: "/phone-validation/recents",
    tags: ["Phone"],
    summary: "Recent phone validations, newest first (staff)",
    security: bearer,
    request: {
      query: PageQuery,
    },
    responses: {
      200: json(pageSchema(RecentSchema, "RecentPhoneValidations")),
      ...errors(400, 401, 403),
    },
  }),
  async (c) => {
    await requireUser(c, { roles: STAFF });
    const { limit, offset } = c.req.valid("query");
    const { db } = c.var.deps;
    const [rows, [total]] = await Promise.all([
      db
        .select()
        .from(schema.phoneValidations)
        .orderBy(desc(schema.phoneValidations.createdAt), desc(schema.phoneValidations.id))
        .limit(limit)
        .offset(offset),
      db.select({ n: count() }).from(schema.phoneValidations),
    ]);
    return c.json(
      { data: rows.map((r) => ({ ...r, createdAt: r.createdAt.toISOString() })), total: total?.n ?? 0 },
      200,
    );
  },
);

mobileSignInRoutes.openapi(
  createRoute({
    method: "delete",
    path: "/phone-validation/recents",
    tags: ["Phone"],
    summary: "Forget recent phone validations, all or those older than a time (admins)",
    security: bearer,
    request: { query: z.object({ olderThan: z.iso.datetime({ offset: true }).optional() }) },
    responses: { 200: json(z.object({ deleted: z.number().int() }).openapi("Deleted")), ...errors(400, 401, 403) },
  }),
  async (c) => {
    await requireUser(c, { roles: ADMINS });
    const { olderThan } = c.req.valid("query");
    const deleted = await c.var.deps.db
      .delete(schema.phoneValidations)
      .where(olderThan ? lt(schema.phoneValidations.createdAt, new Date(olderThan)) : undefined)
      .returning({ id: schema.phoneValidations.id });
    return c.json({ deleted: deleted.length }, 200);
  },
);

mobileSignInRoutes.openapi(
  createRoute({
    method: "get",
    path: "/phone-validation/fraudConstants",
    tags: ["Phone"],
    summary: "The rules phone sign-in applies: refused line types, code lifetime and limits",
    responses: {
      200: json(
        z
          .object({
            refusedLineTypes: z.array(z.string()),
            notMobileLineTypes: z.array(z.string()),
            codeTtlSeconds: z.number(),
            maxCodeAttempts: z.number(),
            codesPerPhonePerHour: z.number(),
            codesPerAddressPerHour: z.number(),
            validationsPerAddressPerHour: z.number(),
          })
          .openapi("FraudConstants"),
      ),
    },
  }),
  (c) =>
    c.json(
      {
        ...FRAUD_CONSTANTS,
        refusedLineTypes: [...FRAUD_CONSTANTS.refusedLineTypes],
        notMobileLineTypes: [...FRAUD_CONSTANTS.notMobileLineTypes],
      },
      200,
    ),
);

// ---- sign-in by phone

mobileSignInRoutes.openapi(
  createRoute({
    method: "post",
    path: "/mobile-auth/send-code",
    tags: ["Phone sign-in"],
    summary: "Send a sign-in code by SMS or WhatsApp to a real mobile number",
    request: jsonBody(z.object({ phone: Phone, channel: z.enum(values(AuthChannel)).default("sms") })),
    responses: {
      200: json(MessageSchema.extend({ expiresAt: z.string() }).openapi("CodeSent")),
      ...errors(400, 429, 502),
    },
  }),
  async (c) => {
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
  },
);

mobileSignInRoutes.openapi(
  createRoute({
    method: "post",
    path: "/mobile-auth/verify-code",
    tags: ["Phone sign-in"],
    summary: "Sign in with the code: the account holding this verified number, or a new account for it",
    request: jsonBody(
      z.object({
        phone: Phone,
        code: z
          .string()
          .trim()
          .regex(/^\d{6}$/, "must be the 6-digit code"),
      }),
    ),
    responses: { 200: json(AuthResultSchema), 201: json(AuthResultSchema, "Created"), ...errors(400, 401, 403, 429) },
  }),
  async (c) => {
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
    const [identity] = await db
      .select()
      .from(schema.userIdentities)
      .where(
        and(
          eq(schema.userIdentities.channel, "sms"),
          eq(schema.userIdentities.value, phone),
          eq(schema.userIdentities.verified, true),
        ),
      )
      .limit(1);
    if (identity) {
      const loaded = await loadUser(db, identity.userUuid);
      if (!loaded) throw unauthorized(CODE_INCORRECT);
      if (loaded.user.deactivatedAt) throw new HttpError(403, "This account is deactivated.");
      if (await activeBan(db, loaded.user.uuid, now)) throw new HttpError(403, "This account is banned.");
      await db.update(schema.users).set({ lastLoginAt: now }).where(eq(schema.users.uuid, loaded.user.uuid));
      return c.json({ ...(await issueToken(c, loaded.user)), user: userView(loaded.user, loaded.profile) }, 200);
    }
    const created = await db.transaction(async (tx) => {
      const account = await createAccount(tx, { now });
      await tx.insert(schema.userIdentities).values({
        userUuid: account.user.uuid,
        channel: "sms",
        value: phone,
        verified: true,
        verifiedAt: now,
        createdAt: now,
      });
      return account;
    });
    return c.json({ ...(await issueToken(c, created.user)), user: userView(created.user, created.profile) }, 201);
  },
);

// ---- whitelist (numbers that pass whatever their line type: test and staff numbers)

async function addToWhitelist(c: Parameters<typeof requireUser>[0], raw: string, note: string | undefined) {
  const { user } = await requireUser(c, { roles: ADMINS });
  const phone = e164(raw);
  try {
    const [row] = await c.var.deps.db
      .insert(schema.phoneWhitelist)
      .values({ phone, note: note ?? null, createdBy: user.uuid, createdAt: c.var.deps.clock.now() })
      .returning();
    if (!row) throw new Error("whitelist insert returned nothing");
    return whitelistView(row);
  } catch (err) {
    if (isUniqueViolation(err)) throw conflict("This phone number is already whitelisted.");
    throw err;
  }
}
const WhitelistBody = z.object({ phone: Phone, note: z.string().trim().max(500).optional() });

mobileSignInRoutes.openapi(
  createRoute({
    method: "post",
    path: "/mobile-auth/whitelist",
    tags: ["Phone sign-in"],
    summary: "Whitelist a number (admins)",
    security: bearer,
    request: jsonBody(WhitelistBody),
    responses: { 201: json(WhitelistSchema, "Created"), ...errors(400, 401, 403, 409) },
  }),
  async (c) => {
    const body = c.req.valid("json");
    return c.json(await addToWhitelist(c, body.phone, body.note), 201);
  },
);

mobileSignInRoutes.openapi(
  createRoute({
    method: "delete",
    path: "/mobile-auth/whitelist/{phone}",
    tags: ["Phone sign-in"],
    summary: "Remove a number from the whitelist (admins)",
    security: bearer,
    request: { params: PhoneParam },
    responses: { ...noContent, ...errors(400, 401, 403, 404) },
  }),
  async (c) => {
    await requireUser(c, { roles: ADMINS });
    const phone = e164(c.req.valid("param").phone);
    const deleted = await c.var.deps.db
      .delete(schema.phoneWhitelist)
      .where(eq(schema.phoneWhitelist.phone, phone))
      .returning();
    if (deleted.length === 0) throw notFound("This phone number is not whitelisted.");
    return c.body(null, 204);
  },
);

mobileSignInRoutes.openapi(
  createRoute({
    method: "get",
    path: "/admin/phoneNumbers",
    tags: ["Admin"],
    summary: "Whitelisted numbers, newest first (staff)",
    security: bearer,
    request: {
      query: PageQuery,
    },
    responses: {
      200: json(pageSchema(WhitelistSchema, "WhitelistPage")),
      ...errors(400, 401, 403),
    },
  }),
  async (c) => {
    await requireUser(c, { roles: STAFF });
    const { limit, offset } = c.req.valid("query");
    const { db } = c.var.deps;
    const [rows, [total]] = await Promise.all([
      db
        .select()
        .from(schema.phoneWhitelist)
        .orderBy(desc(schema.phoneWhitelist.createdAt), desc(schema.phoneWhitelist.id))
        .limit(limit)
        .offset(offset),
      db.select({ n: count() }).from(schema.phoneWhitelist),
    ]);
    return c.json({ data: rows.map(whitelistView), total: total?.n ?? 0 }, 200);
  },
);

mobileSignInRoutes.openapi(
  createRoute({
    method: "post",
    path: "/admin/phoneNumbers",
    tags: ["Admin"],
    summary: "Whitelist a number (admins)",
    security: bearer,
    request: jsonBody(WhitelistBody),
    responses: { 201: json(WhitelistSchema, "Created"), ...errors(400, 401, 403, 409) },
  }),
  async (c) => {
    const body = c.req.valid("json");
    return c.json(await addToWhitelist(c, body.phone, body.note), 201);
  },
);

mobileSignInRoutes.openapi(
  createRoute({
    method: "get",
    path: "/admin/phoneNumbers/{id}",
    tags: ["Admin"],
    summary: "One whitelisted number (staff)",
    security: bearer,
    request: { params: UuidParam },
    responses: { 200: json(WhitelistSchema), ...errors(400, 401, 403, 404) },
  }),
  async (c) => {
    await requireUser(c, { roles: STAFF });
    const [row] = await c.var.deps.db
      .select()
      .from(schema.phoneWhitelist)
      .where(eq(schema.phoneWhitelist.id, c.req.valid("param").id));
    if (!row) throw notFound("This phone number is not whitelisted.");
    return c.json(whitelistView(row), 200);
  },
);

mobileSignInRoutes.openapi(
  createRoute({
    method: "delete",
    path: "/admin/phoneNumbers/{id}",
    tags: ["Admin"],
    summary: "Remove a whitelisted number (admins)",
    security: bearer,
    request: { params: UuidParam },
    responses: { ...noContent, ...errors(400, 401, 403, 404) },
  }),
  async (c) => {
    await requireUser(c, { roles: ADMINS });
    const deleted = await c.var.deps.db
      .delete(schema.phoneWhitelist)
      .where(eq(schema.phoneWhitelist.id, c.req.valid("param").id))
      .returning();
    if (deleted.length === 0) throw notFound("This phone number is not whitelisted.");
    return c.body(null, 204);
  },
);
