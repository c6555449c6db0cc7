import { schema } from "@booth/db";
import { EmailType, values } from "@booth/db/schema";
import { createRoute, z } from "@hono/zod-openapi";
import { and, asc, eq, isNull, ne } from "drizzle-orm";
import { rateLimit, requireUser } from "../../lib/auth.ts";
import { isUniqueViolation } from "../../lib/db-errors.ts";
import { badRequest, HttpError, notFound } from "../../lib/errors.ts";
import { bearer, createRouter, errors, json, jsonBody, noContent, UuidParam } from "../../lib/openapi.ts";
import { ALREADY_REGISTERED, normalizeEmail } from "./accounts.ts";
import { consumeCode } from "./codes.ts";
import { Email } from "./schemas.ts";
import { sendVerificationEmail } from "./verification.ts";

export const VERIFY_FAILED = "Email verification failed, incorrect code.";
export const ALREADY_VERIFIED = "This email is verified.";
export const TOO_SOON = "The minimum time has not yet elapsed since the last e-mail was sent.";
export const EMAIL_NOT_FOUND = "Email not found.";
export const LOGIN_EMAIL_UNDELETABLE = "The sign-in email of an account cannot be deleted.";

const tags = ["Emails"];
export const emailAddressRoutes = createRouter();

const EmailRowSchema = z
  .object({
    id: z.uuid(),
    email: z.string(),
    type: z.enum(values(EmailType)),
    status: z.enum(["PENDING_VERIFICATION", "VERIFIED", "DELETED", "CREATED_BY_ADMIN"]),
    isLoginEmail: z.boolean(),
    verifiedAt: z.string().nullable(),
    lastSentAt: z.string().nullable(),
    createdAt: z.string(),
  })
  .openapi("EmailAddress");

type EmailRow = typeof schema.emails.$inferSelect;
const emailView = (row: EmailRow, loginEmail: string | null) => ({
  id: row.id,
  email: row.email,
  type: row.type,
  status: row.status,
  isLoginEmail: row.email === loginEmail,
  verifiedAt: row.verifiedAt?.toISOString() ?? null,
  lastSentAt: row.lastSentAt?.toISOString() ?? null,
  createdAt: row.createdAt.toISOString(),
});

const liveEmailOf = async (db: Parameters<typeof consumeCode>[0], userUuid: string, address: string) => {
  const [row] = await db
    .select()
    .from(schema.emails)
    .where(
      and(
        eq(schema.emails.userUuid, userUuid),
        eq(schema.emails.email, normalizeEmail(address)),
        ne(schema.emails.status, "DELETED"),
      ),
    )
    .limit(1);
  return row ?? null;
};

const liveEmailById = async (db: Parameters<typeof consumeCode>[0], userUuid: string, id: string) => {
  const [row] = await db
    .select()
    .from(schema.emails)
    .where(and(eq(schema.emails.id, id), eq(schema.emails.userUuid, userUuid), ne(schema.emails.status, "DELETED")))
    .limit(1);
  return row ?? null;
};

emailAddressRoutes.openapi(
  createRoute({
    method: "get",
    path: "/users/emails",
    tags,
    summary: "The caller's email addresses",
    security: bearer,
    responses: { 200: json(z.array(EmailRowSchema)), ...errors(401, 403) },
  }),
  async (c) => {
    const { user } = await requireUser(c);
    const rows = await c.var.deps.db
      .select()
      .from(schema.emails)
      .where(and(eq(schema.emails.userUuid, user.uuid), ne(schema.emails.status, "DELETED")))
      .orderBy(asc(schema.emails.createdAt));
    return c.json(
      rows.map((r) => emailView(r, user.email)),
      200,
    );
  },
);

emailAddressRoutes.openapi(
  createRoute({
    method: "post",
    path: "/users/emails",
    tags,
    summary: "Add an email address; a verification code is sent to it",
    security: bearer,
    request: jsonBody(z.object({ email: Email, type: z.enum(values(EmailType)).default("personal") })),
    responses: { 201: json(EmailRowSchema, "Created"), ...errors(400, 401, 403, 429) },
  }),
  async (c) => {
    const { user } = await requireUser(c);
    const body = c.req.valid("json");
    const { db, clock } = c.var.deps;
    await rateLimit(c, `emails:add:${user.uuid}`, 10, 3600);
    const email = normalizeEmail(body.email);
    const [taken] = await db
      .select({ id: schema.emails.id })
      .from(schema.emails)
      .where(and(eq(schema.emails.email, email), ne(schema.emails.status, "DELETED")))
      .limit(1);
    const [loginTaken] = await db
      .select({ uuid: schema.users.uuid })
      .from(schema.users)
      .where(eq(schema.users.email, email))
      .limit(1);
    if (taken || loginTaken) throw new HttpError(403, ALREADY_REGISTERED);
    let row: EmailRow | undefined;
    try {
      [row] = await db
        .insert(schema.emails)
        .values({
          userUuid: user.uuid,
          email,
          type: body.type,
          status: "PENDING_VERIFICATION",
          createdAt: clock.now(),
        })
        .returning();
    } catch (err) {
      if (isUniqueViolation(err)) throw new HttpError(403, ALREADY_REGISTERED);
      throw err;
    }
    if (!row) throw new Error("email insert returned nothing");
    await sendVerificationEmail(c, row);
    const [sent] = await db.select().from(schema.emails).where(eq(schema.emails.id, row.id));
    return c.json(emailView(sent ?? row, user.email), 201);
  },
);

emailAddressRoutes.openapi(
  createRoute({
    method: "delete",
    path: "/users/emails/{id}",
    tags,
    summary: "Remove one of the caller's email addresses",
    security: bearer,
    request: { params: UuidParam },
    responses: { ...noContent, ...errors(400, 401, 403, 404) },
  }),
  async (c) => {
    const { user } = await requireUser(c);
    const { id } = c.req.valid("param");
    const { db } = c.var.deps;
    const [row] = await db
      .select()
      .from(schema.emails)
      .where(and(eq(schema.emails.id, id), eq(schema.emails.userUuid, user.uuid), ne(schema.emails.status, "DELETED")));
    if (!row) throw notFound(EMAIL_NOT_FOUND);
    if (row.email === user.email) throw badRequest(LOGIN_EMAIL_UNDELETABLE);
    await db.update(schema.emails).set({ status: "DELETED" }).where(eq(schema.emails.id, id));
    return c.body(null, 204);
  },
);

const VerifyBody = z
  .object({
    email: Email.optional(),
    emailId: z.uuid().optional(),
    code: z
      .string()
      .trim()
      .regex(/^\d{6}$/, "must be the 6-digit code"),
  })
  .refine((b) => b.email || b.emailId, { message: "give the email or its emailId", path: ["email"] });

/** Checks a code for one of the caller's addresses and marks it verified (and the account, for the login email). */
async function verify(c: Parameters<typeof requireUser>[0], body: z.infer<typeof VerifyBody>) {
  const { user } = await requireUser(c);
  const { db, clock } = c.var.deps;
  await rateLimit(c, `emails:verify:${user.uuid}`, 20, 3600);
  const row = body.emailId
    ? await liveEmailById(db, user.uuid, body.emailId)
    : await liveEmailOf(db, user.uuid, body.email ?? "");
  if (!row) throw notFound(EMAIL_NOT_FOUND);
  if (row.status === "VERIFIED") throw new HttpError(403, ALREADY_VERIFIED);
  const now = clock.now();
  const used = await consumeCode(db, { purpose: "emailVerification", target: row.email, code: body.code, now });
  if (!used || used.userUuid !== user.uuid) throw new HttpError(403, VERIFY_FAILED);
  const [verified] = await db.transaction(async (tx) => {
    if (row.email === user.email)
      await tx.update(schema.users).set({ verifiedAt: now }).where(eq(schema.users.uuid, user.uuid));
    // Only while still live: an address deleted meanwhile stays deleted.
    return tx
      .update(schema.emails)
      .set({ status: "VERIFIED", verifiedAt: now })
      .where(and(eq(schema.emails.id, row.id), ne(schema.emails.status, "DELETED")))
      .returning();
  });
  if (!verified) throw notFound(EMAIL_NOT_FOUND);
  return emailView(verified, user.email);
}

// The deprecated confirm-email route is the same check under its old path.
for (const [path, deprecated] of [
  ["/users/emails/verify", false],
  ["/users/confirm-email", true],
] as const)
  emailAddressRoutes.openapi(
    createRoute({
      method: "post",
      path,
      tags,
      deprecated,
      summary: deprecated
        ? "Deprecated: same as POST /users/emails/verify"
        : "Verify an email address with the code sent to it",
      security: bearer,
      request: jsonBody(VerifyBody),
      responses: { 200: json(EmailRowSchema), ...errors(400, 401, 403, 404, 429) },
    }),
    async (c) => c.json(await verify(c, c.req.valid("json")), 200),
  );

emailAddressRoutes.openapi(
  createRoute({
    method: "post",
    path: "/users/emails/verification-email",
    tags,
    summary: "Send a new verification code to one of the caller's addresses",
    security: bearer,
    request: jsonBody(z.object({ email: Email })),
    responses: { ...noContent, ...errors(400, 401, 403, 404) },
  }),
  async (c) => {
    const { user } = await requireUser(c);
    const { db, clock, config } = c.var.deps;
    const row = await liveEmailOf(db, user.uuid, c.req.valid("json").email);
    if (!row) throw notFound(EMAIL_NOT_FOUND);
    if (row.status === "VERIFIED") throw new HttpError(403, ALREADY_VERIFIED);
    const now = clock.now();
    if (row.lastSentAt && now.getTime() - row.lastSentAt.getTime() < config.emailResendSeconds * 1000)
      throw new HttpError(403, TOO_SOON);
    // Claim the send with a conditional update, so two concurrent re-sends send one email.
    const [claimed] = await db
      .update(schema.emails)
      .set({ lastSentAt: now })
      .where(
        and(
          eq(schema.emails.id, row.id),
          row.lastSentAt ? eq(schema.emails.lastSentAt, row.lastSentAt) : isNull(schema.emails.lastSentAt),
        ),
      )
      .returning();
    if (!claimed) throw new HttpError(403, TOO_SOON);
    await sendVerificationEmail(c, row);
    return c.body(null, 204);
  },
);
