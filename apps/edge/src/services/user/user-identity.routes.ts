import { schema } from "@booth/db";
import { AuthChannel, IdentityChannel, values } from "@booth/db/schema";
import { createRoute, z } from "@hono/zod-openapi";
import { and, desc, eq, ne, type SQL, sql } from "drizzle-orm";
import type { Context } from "hono";
import { ADMINS, addressBucket, hasAnyRole, rateLimit, requireUser } from "../../lib/auth.ts";
import type { AppEnv } from "../../lib/context.ts";
import { isUniqueViolation } from "../../lib/db-errors.ts";
import { badRequest, conflict, forbidden, notFound, unauthorized } from "../../lib/errors.ts";
import { bearer, createRouter, errors, json, jsonBody, noContent, UuidParam } from "../../lib/openapi.ts";
import { consumeCode, issueCode, numericCode } from "./codes.ts";
import { CODE_INCORRECT, CODE_SENT } from "./mobile-sign-in.routes.ts";
import { checkPhone, FRAUD_CONSTANTS, PHONE_REFUSED, toE164 } from "./phone-checks.ts";
import { MessageSchema } from "./schemas.ts";

export const PHONE_TAKEN = "This phone number is already verified by another account.";

export const userIdentityRoutes = createRouter();
const tags = ["Identities"];

const IdentitySchema = z
  .object({
    id: z.uuid(),
    userUuid: z.uuid(),
    channel: z.enum(values(IdentityChannel)),
    value: z.string(),
    verified: z.boolean(),
    verifiedAt: z.string().nullable(),
    createdAt: z.string(),
  })
  .openapi("UserIdentity");
type Identity = typeof schema.userIdentities.$inferSelect;
const identityView = (r: Identity) => ({
  ...r,
  verifiedAt: r.verifiedAt?.toISOString() ?? null,
  createdAt: r.createdAt.toISOString(),
});

/** A user acting for themselves, or a service token / admin acting for anyone. */
async function identityCaller(c: Context<AppEnv>) {
  if (c.var.auth?.type === "service") return { uuid: null, privileged: true };
  const { user } = await requireUser(c);
  return { uuid: user.uuid, privileged: hasAnyRole(user.roles, ADMINS) };
}

const Phone = z.string().trim().min(1).max(32);
const verificationTarget = (userUuid: string, phone: string) => `${userUuid}:${phone}`;

userIdentityRoutes.openapi(
  createRoute({
    method: "post",
    path: "/api/v1/identity-verifications/request",
    tags,
    summary: "Send the caller a code proving they hold a mobile number",
    security: bearer,
    request: jsonBody(z.object({ phone: Phone, channel: z.enum(values(AuthChannel)).default("sms") })),
    responses: { 200: json(MessageSchema), ...errors(400, 401, 403, 409, 429, 502) },
  }),
  async (c) => {
    const { user } = await requireUser(c);
    const { phone: raw, channel } = c.req.valid("json");
    const { db, clock, sms } = c.var.deps;
    await rateLimit(c, `idv:user:${user.uuid}`, FRAUD_CONSTANTS.codesPerPhonePerHour, 3600);
    await rateLimit(c, `idv:ip:${addressBucket(c)}`, FRAUD_CONSTANTS.codesPerAddressPerHour, 3600);
    const check = await checkPhone(db, raw, clock.now(), user.uuid);
    if (check.status !== "VALID") throw badRequest(PHONE_REFUSED);
    const [taken] = await db
      .select({ id: schema.userIdentities.id })
      .from(schema.userIdentities)
      .where(
        and(
          eq(schema.userIdentities.value, check.phone),
          eq(schema.userIdentities.verified, true),
          ne(schema.userIdentities.userUuid, user.uuid),
        ),
      )
      .limit(1);
    if (taken) throw conflict(PHONE_TAKEN);
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
  },
);

userIdentityRoutes.openapi(
  createRoute({
    method: "post",
    path: "/api/v1/identity-verifications/verify",
    tags,
    summary: "Check the code: the number becomes the caller's verified identity and they get IDENTITY_VERIFIED",
    security: bearer,
    request: jsonBody(
      z.object({
        phone: Phone,
        code: z
          .string()
          .trim()
          .regex(/^\d{6}$/, "must be the 6-digit code"),
      }),
    ),
    responses: { 200: json(IdentitySchema), ...errors(400, 401, 403, 409, 429) },
  }),
  async (c) => {
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
    const identity = await db.transaction(async (tx) => {
      const [taken] = await tx
        .select({ id: schema.userIdentities.id })
        .from(schema.userIdentities)
        .where(
          and(
            eq(schema.userIdentities.value, phone),
            eq(schema.userIdentities.verified, true),
            ne(schema.userIdentities.userUuid, user.uuid),
          ),
        )
        .limit(1);
      if (taken) throw conflict(PHONE_TAKEN);
      const [row] = await tx
        .insert(schema.userIdentities)
        .values({ userUuid: user.uuid, channel: "sms", value: phone, verified: true, verifiedAt: now, createdAt: now })
        .onConflictDoUpdate({
          target: [schema.userIdentities.userUuid, schema.userIdentities.channel, schema.userIdentities.value],
          set: { verified: true, verifiedAt: now },
        })
        .returning();
      await tx
        .update(schema.users)
        .set({
          badges: sql`array_append(array_remove(${schema.users.badges}, 'IDENTITY_VERIFIED'), 'IDENTITY_VERIFIED')`,
          updatedAt: now,
        })
        .where(eq(schema.users.uuid, user.uuid));
      return row;
    });
    if (!identity) throw new Error("identity upsert returned nothing");
    return c.json(identityView(identity), 200);
  },
);

userIdentityRoutes.openapi(
  createRoute({
    method: "post",
    path: "/api/v1/user-identities",
    tags,
    summary: "Add an identity: users for themselves (unverified); services and admins for anyone, verified or not",
    security: bearer,
    request: jsonBody(
      z.object({
        channel: z.enum(values(IdentityChannel)).default("sms"),
        value: Phone,
        userUuid: z.uuid().optional(),
        verified: z.boolean().optional(),
      }),
    ),
    responses: { 201: json(IdentitySchema, "Created"), ...errors(400, 401, 403, 404, 409) },
  }),
  async (c) => {
    const caller = await identityCaller(c);
    const body = c.req.valid("json");
    if (!caller.privileged && ((body.userUuid && body.userUuid !== caller.uuid) || body.verified)) throw forbidden();
    const userUuid = body.userUuid ?? caller.uuid;
    if (!userUuid) throw badRequest(["userUuid: is required with a service token"]);
    const value = toE164(body.value);
    if (!value) throw badRequest(["value: is not a phone number"]);
    const { db, clock } = c.var.deps;
    const [owner] = await db
      .select({ uuid: schema.users.uuid })
      .from(schema.users)
      .where(eq(schema.users.uuid, userUuid));
    if (!owner) throw notFound("User not found.");
    const now = clock.now();
    try {
      const [row] = await db
        .insert(schema.userIdentities)
        .values({
          userUuid,
          channel: body.channel,
          value,
          verified: !!body.verified,
          verifiedAt: body.verified ? now : null,
          createdAt: now,
        })
        .returning();
      if (!row) throw new Error("identity insert returned nothing");
      return c.json(identityView(row), 201);
    } catch (err) {
      if (isUniqueViolation(err)) throw conflict("This identity already exists.");
      throw err;
    }
  },
);

userIdentityRoutes.openapi(
  createRoute({
    method: "get",
    path: "/api/v1/user-identities",
    tags,
    summary: "Find identities (a user sees their own; services and admins anyone's)",
    security: bearer,
    request: {
      query: z.object({
        id: z.uuid().optional(),
        value: z.string().trim().max(32).optional(),
        userUuid: z.uuid().optional(),
        channel: z.enum(values(IdentityChannel)).optional(),
        verified: z.enum(["true", "false"]).optional(),
        limit: z.coerce.number().int().min(1).max(500).default(50),
      }),
    },
    responses: { 200: json(z.array(IdentitySchema)), ...errors(400, 401, 403) },
  }),
  async (c) => {
    const caller = await identityCaller(c);
    const q = c.req.valid("query");
    if (!caller.privileged && q.userUuid && q.userUuid !== caller.uuid) throw forbidden();
    const conditions: SQL[] = [];
    const owner = caller.privileged ? q.userUuid : caller.uuid;
    if (owner) conditions.push(eq(schema.userIdentities.userUuid, owner));
    if (q.id) conditions.push(eq(schema.userIdentities.id, q.id));
    if (q.value) conditions.push(eq(schema.userIdentities.value, toE164(q.value) ?? q.value));
    if (q.channel) conditions.push(eq(schema.userIdentities.channel, q.channel));
    if (q.verified) conditions.push(eq(schema.userIdentities.verified, q.verified === "true"));
    const rows = await c.var.deps.db
      .select()
      .from(schema.userIdentities)
      .where(and(...conditions))
      .orderBy(desc(schema.userIdentities.createdAt))
      .limit(q.limit);
    return c.json(rows.map(identityView), 200);
  },
);

userIdentityRoutes.openapi(
  createRoute({
    method: "delete",
    path: "/api/v1/user-identities/{id}",
    tags,
    summary: "Remove an identity (its owner, a service or an admin)",
    security: bearer,
    request: { params: UuidParam },
    responses: { ...noContent, ...errors(400, 401, 403, 404) },
  }),
  async (c) => {
    const caller = await identityCaller(c);
    const { db } = c.var.deps;
    const [row] = await db
      .select()
      .from(schema.userIdentities)
      .where(eq(schema.userIdentities.id, c.req.valid("param").id));
    if (!row) throw notFound("Identity not found.");
    if (!caller.privileged && row.userUuid !== caller.uuid) throw forbidden();
    await db.delete(schema.userIdentities).where(eq(schema.userIdentities.id, row.id));
    return c.body(null, 204);
  },
);
