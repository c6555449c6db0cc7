import { schema } from "@booth/db";
import { createRoute, z } from "@hono/zod-openapi";
import { and, asc, eq, sql } from "drizzle-orm";
import { ADMINS, MODERATORS, requireUser } from "../../lib/auth.ts";
import { isUniqueViolation } from "../../lib/db-errors.ts";
import { HttpError, notFound } from "../../lib/errors.ts";
import { bearer, createRouter, errors, json, jsonBody, noContent, PageQuery, UuidParam } from "../../lib/openapi.ts";
import { kickFromLiveRooms, LIVE_KICK_REASONS } from "../room/presence.ts";
import { moderate } from "./user-moderation.routes.ts";

export const ALREADY_REQUESTED = "A deactivation request is already pending for this account.";
export const NO_PENDING_REQUEST = "This user has no pending deactivation request.";
export const NOT_DEACTIVATED = "This account is not deactivated.";
export const ALREADY_DEACTIVATED = "This account is already deactivated.";

const tags = ["Deactivation"];
export const accountDeactivationRoutes = createRouter();

const RequestSchema = z
  .object({
    id: z.uuid(),
    userUuid: z.uuid(),
    email: z.string().nullable(),
    nickname: z.string().nullable(),
    reason: z.string().nullable(),
    status: z.enum(["PENDING", "CANCELLED", "DEACTIVATED"]),
    createdAt: z.string(),
  })
  .openapi("DeactivationRequest");

accountDeactivationRoutes.openapi(
  createRoute({
    method: "post",
    path: "/users/request-deactivate",
    tags,
    summary: "Ask for the caller's account to be deactivated",
    security: bearer,
    request: jsonBody(z.object({ reason: z.string().trim().max(1000).optional() })),
    responses: { 201: json(RequestSchema, "Created"), ...errors(400, 401, 403, 409) },
  }),
  async (c) => {
    const { user } = await requireUser(c);
    const { db, clock } = c.var.deps;
    try {
      const [row] = await db
        .insert(schema.deactivationRequests)
        .values({
          userUuid: user.uuid,
          reason: c.req.valid("json").reason ?? null,
          status: "PENDING",
          createdAt: clock.now(),
        })
        .returning();
      if (!row) throw new Error("request insert returned nothing");
      const [profile] = await db
        .select({ nickname: schema.profiles.nickname })
        .from(schema.profiles)
        .where(eq(schema.profiles.userUuid, user.uuid));
      return c.json(
        { ...row, email: user.email, nickname: profile?.nickname ?? null, createdAt: row.createdAt.toISOString() },
        201,
      );
    } catch (err) {
      if (isUniqueViolation(err)) throw new HttpError(409, ALREADY_REQUESTED);
      throw err;
    }
  },
);

accountDeactivationRoutes.openapi(
  createRoute({
    method: "get",
    path: "/users/list-deactivate",
    tags,
    summary: "Pending deactivation requests, oldest first (moderators)",
    security: bearer,
    request: {
      query: PageQuery,
    },
    responses: { 200: json(z.array(RequestSchema)), ...errors(400, 401, 403) },
  }),
  async (c) => {
    await requireUser(c, { roles: MODERATORS });
    const { limit, offset } = c.req.valid("query");
    const rows = await c.var.deps.db
      .select({
        request: schema.deactivationRequests,
        email: schema.users.email,
        nickname: schema.profiles.nickname,
      })
      .from(schema.deactivationRequests)
      .innerJoin(schema.users, eq(schema.users.uuid, schema.deactivationRequests.userUuid))
      .leftJoin(schema.profiles, eq(schema.profiles.userUuid, schema.users.uuid))
      .where(eq(schema.deactivationRequests.status, "PENDING"))
      .orderBy(asc(schema.deactivationRequests.createdAt), asc(schema.deactivationRequests.id))
      .limit(limit)
      .offset(offset);
    return c.json(
      rows.map((r) => ({
        ...r.request,
        email: r.email,
        nickname: r.nickname,
        createdAt: r.request.createdAt.toISOString(),
      })),
      200,
    );
  },
);

accountDeactivationRoutes.openapi(
  createRoute({
    method: "post",
    path: "/users/cancel-requested-deactivate",
    tags,
    summary: "Cancel a user's pending deactivation request (moderators)",
    security: bearer,
    request: jsonBody(z.object({ userUuid: z.uuid() })),
    responses: { ...noContent, ...errors(400, 401, 403, 404) },
  }),
  async (c) => {
    const caller = await requireUser(c, { roles: MODERATORS });
    const now = c.var.deps.clock.now();
    // Like every moderation step: only on someone the caller outranks.
    const [cancelled] = await moderate(c, caller, c.req.valid("json").userUuid, (tx, target) =>
      tx
        .update(schema.deactivationRequests)
        .set({ status: "CANCELLED", resolvedBy: caller.user.uuid, resolvedAt: now })
        .where(
          and(eq(schema.deactivationRequests.userUuid, target.uuid), eq(schema.deactivationRequests.status, "PENDING")),
        )
        .returning(),
    );
    if (!cancelled) throw notFound(NO_PENDING_REQUEST);
    return c.body(null, 204);
  },
);

accountDeactivationRoutes.openapi(
  createRoute({
    method: "delete",
    path: "/users/deactivate/{id}",
    tags,
    summary:
      "Deactivate an account (admins): it cannot log in, its profile is hidden and the live rooms it is in close its sockets",
    security: bearer,
    request: { params: UuidParam },
    responses: { ...noContent, ...errors(400, 401, 403, 404, 409) },
  }),
  async (c) => {
    const caller = await requireUser(c, { roles: ADMINS });
    const now = c.var.deps.clock.now();
    const userUuid = await moderate(c, caller, c.req.valid("param").id, async (tx, target) => {
      if (target.deactivatedAt) throw new HttpError(409, ALREADY_DEACTIVATED);
      await tx
        .update(schema.users)
        .set({ deactivatedAt: now, tokenVersion: sql`${schema.users.tokenVersion} + 1`, updatedAt: now })
        .where(eq(schema.users.uuid, target.uuid));
      await tx
        .update(schema.deactivationRequests)
        .set({ status: "DEACTIVATED", resolvedBy: caller.user.uuid, resolvedAt: now })
        .where(
          and(eq(schema.deactivationRequests.userUuid, target.uuid), eq(schema.deactivationRequests.status, "PENDING")),
        );
      return target.uuid;
    });
    await kickFromLiveRooms(c.var.deps, userUuid, LIVE_KICK_REASONS.deactivation);
    return c.body(null, 204);
  },
);

accountDeactivationRoutes.openapi(
  createRoute({
    method: "post",
    path: "/users/reactivate/{id}",
    tags,
    summary: "Reactivate a deactivated account (admins)",
    security: bearer,
    request: { params: UuidParam },
    responses: { ...noContent, ...errors(400, 401, 403, 404, 409) },
  }),
  async (c) => {
    const caller = await requireUser(c, { roles: ADMINS });
    const now = c.var.deps.clock.now();
    await moderate(c, caller, c.req.valid("param").id, async (tx, target) => {
      if (!target.deactivatedAt) throw new HttpError(409, NOT_DEACTIVATED);
      await tx
        .update(schema.users)
        .set({ deactivatedAt: null, updatedAt: now })
        .where(eq(schema.users.uuid, target.uuid));
    });
    return c.body(null, 204);
  },
);
