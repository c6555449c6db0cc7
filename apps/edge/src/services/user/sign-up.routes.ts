import { schema } from "@booth/db";
import { createRoute, z } from "@hono/zod-openapi";
import { and, count, eq } from "drizzle-orm";
import { ADMINS, addressBucket, rateLimit, requireUser } from "../../lib/auth.ts";
import { isUniqueViolation } from "../../lib/db-errors.ts";
import { badRequest, forbidden, HttpError, notFound } from "../../lib/errors.ts";
import { bearer, createRouter, errors, json, jsonBody } from "../../lib/openapi.ts";
import { hashPassword } from "../../lib/password.ts";
import { ALREADY_REGISTERED, createAccount, issueToken, userView } from "./accounts.ts";
import { AuthResultSchema, Email, Nickname, Password, RoleSchema, TokenResultSchema, UserSchema } from "./schemas.ts";
import { sendVerificationEmail } from "./verification.ts";

export const MISSING_EMAIL_OR_PASSWORD = "Email or password is missing in request.";
export const MISSING_VOUCHER_FIELDS = "Email, password, or voucher code is missing in request.";
export const INVALID_VOUCHER = "This voucher code is not valid.";
export const MAX_BOTS_PER_OWNER = 10;

const tags = ["Sign-up"];
export const signUpRoutes = createRouter();

// The catalogue has its own message for missing fields, so presence is checked in the handler, format by zod.
const SignUpBody = z.object({ email: Email.optional(), password: Password.optional(), nickname: Nickname.optional() });

/** Runs a sign-up transaction; a concurrent sign-up with the same email ends as the catalogue's 403. */
async function signUpTransaction<T>(run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (err) {
    if (isUniqueViolation(err)) throw new HttpError(403, ALREADY_REGISTERED);
    throw err;
  }
}

signUpRoutes.openapi(
  createRoute({
    method: "post",
    path: "/users/sign-up",
    tags,
    summary: "Create an account; a verification code is emailed",
    request: jsonBody(SignUpBody),
    responses: { 201: json(AuthResultSchema, "Created"), ...errors(400, 403, 409, 429) },
  }),
  async (c) => {
    const body = c.req.valid("json");
    if (!body.email || !body.password) throw badRequest(MISSING_EMAIL_OR_PASSWORD);
    await rateLimit(c, `signup:ip:${addressBucket(c)}`, 20, 60 * 60);
    const { db, clock } = c.var.deps;
    const passwordHash = await hashPassword(body.password);
    const { user, profile } = await signUpTransaction(() =>
      db.transaction((tx) =>
        createAccount(tx, { email: body.email, passwordHash, nickname: body.nickname ?? null, now: clock.now() }),
      ),
    );
    const [emailRow] = await db.select().from(schema.emails).where(eq(schema.emails.userUuid, user.uuid)).limit(1);
    if (emailRow) await sendVerificationEmail(c, emailRow);
    return c.json({ ...(await issueToken(c, user)), user: userView(user, profile) }, 201);
  },
);

signUpRoutes.openapi(
  createRoute({
    method: "post",
    path: "/users/voucher-sign-up",
    tags,
    summary: "Create an account with a voucher; the voucher is redeemed in the same transaction",
    request: jsonBody(SignUpBody.extend({ voucherCode: z.string().trim().min(1).max(64).optional() })),
    responses: { 201: json(AuthResultSchema, "Created"), ...errors(400, 403, 409, 429) },
  }),
  async (c) => {
    const body = c.req.valid("json");
    if (!body.email || !body.password || !body.voucherCode) throw badRequest(MISSING_VOUCHER_FIELDS);
    await rateLimit(c, `signup:ip:${addressBucket(c)}`, 20, 60 * 60);
    const { db, clock } = c.var.deps;
    const passwordHash = await hashPassword(body.password);
    const code = body.voucherCode.toUpperCase();
    const { user, profile } = await signUpTransaction(() =>
      db.transaction(async (tx) => {
        const now = clock.now();
        const created = await createAccount(tx, {
          email: body.email,
          passwordHash,
          nickname: body.nickname ?? null,
          now,
        });
        // Conditional update: of two sign-ups racing for one voucher, exactly one sees it PENDING.
        const [voucher] = await tx
          .update(schema.vouchers)
          .set({ status: "REDEEMED", redeemedBy: created.user.uuid, redeemedAt: now })
          .where(and(eq(schema.vouchers.code, code), eq(schema.vouchers.status, "PENDING")))
          .returning();
        if (!voucher) throw new HttpError(403, INVALID_VOUCHER);
        return created;
      }),
    );
    const [emailRow] = await db.select().from(schema.emails).where(eq(schema.emails.userUuid, user.uuid)).limit(1);
    if (emailRow) await sendVerificationEmail(c, emailRow);
    return c.json({ ...(await issueToken(c, user)), user: userView(user, profile) }, 201);
  },
);

signUpRoutes.openapi(
  createRoute({
    method: "post",
    path: "/users/admin/sign-up",
    tags: ["Admin"],
    summary: "An admin creates an account (email marked CREATED_BY_ADMIN)",
    security: bearer,
    request: jsonBody(SignUpBody.extend({ roles: z.array(RoleSchema).max(8).optional() })),
    responses: { 201: json(UserSchema, "Created"), ...errors(400, 401, 403, 409) },
  }),
  async (c) => {
    const { user: admin } = await requireUser(c, { roles: ADMINS });
    const body = c.req.valid("json");
    if (!body.email || !body.password) throw badRequest(MISSING_EMAIL_OR_PASSWORD);
    const roles = body.roles?.length ? [...new Set(body.roles)] : ["user" as const];
    // Only a superUser hands out superUser.
    if (roles.includes("superUser") && !admin.roles.includes("superUser")) throw forbidden();
    const { db, clock } = c.var.deps;
    const passwordHash = await hashPassword(body.password);
    const { user, profile } = await signUpTransaction(() =>
      db.transaction((tx) =>
        createAccount(tx, {
          email: body.email,
          passwordHash,
          nickname: body.nickname ?? null,
          roles,
          emailStatus: "CREATED_BY_ADMIN",
          now: clock.now(),
        }),
      ),
    );
    return c.json(userView(user, profile), 201);
  },
);

signUpRoutes.openapi(
  createRoute({
    method: "post",
    path: "/users/sign-up-bot",
    tags: ["Bots"],
    summary: "Create a bot owned by the caller; answers the bot's token",
    security: bearer,
    request: jsonBody(z.object({ nickname: Nickname })),
    responses: { 201: json(AuthResultSchema, "Created"), ...errors(400, 401, 403, 409) },
  }),
  async (c) => {
    const { user: owner } = await requireUser(c);
    const { nickname } = c.req.valid("json");
    const { db, clock } = c.var.deps;
    const { user, profile } = await db.transaction(async (tx) => {
      const [owned] = await tx
        .select({ n: count() })
        .from(schema.users)
        .where(eq(schema.users.botOwnerUuid, owner.uuid));
      if ((owned?.n ?? 0) >= MAX_BOTS_PER_OWNER) throw forbidden(`A user may own at most ${MAX_BOTS_PER_OWNER} bots.`);
      // A verified owner vouches for their bot: it may chat in public rooms as they may.
      return createAccount(tx, {
        nickname,
        roles: ["bot"],
        botOwnerUuid: owner.uuid,
        now: clock.now(),
        ...(owner.verifiedAt ? { emailStatus: "VERIFIED" as const } : {}),
      });
    });
    return c.json({ ...(await issueToken(c, user, "bot")), user: userView(user, profile) }, 201);
  },
);

signUpRoutes.openapi(
  createRoute({
    method: "get",
    path: "/users/bot-token",
    tags: ["Bots"],
    summary: "A new token for one of the caller's bots; every older token of that bot stops working",
    security: bearer,
    request: { query: z.object({ botUuid: z.uuid() }) },
    responses: { 200: json(TokenResultSchema), ...errors(400, 401, 403, 404) },
  }),
  async (c) => {
    const { user: caller } = await requireUser(c, { types: ["user"] });
    const { botUuid } = c.req.valid("query");
    const { db } = c.var.deps;
    const [bot] = await db.select().from(schema.users).where(eq(schema.users.uuid, botUuid)).limit(1);
    if (!bot?.roles.includes("bot")) throw notFound("Bot not found.");
    if (bot.botOwnerUuid !== caller.uuid && !caller.roles.some((r) => ADMINS.includes(r))) throw forbidden();
    const [rotated] = await db
      .update(schema.users)
      .set({ tokenVersion: bot.tokenVersion + 1 })
      .where(eq(schema.users.uuid, bot.uuid))
      .returning();
    return c.json(await issueToken(c, rotated ?? bot, "bot"), 200);
  },
);
