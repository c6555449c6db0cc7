import { schema } from "@booth/db";
import { createRoute, z } from "@hono/zod-openapi";
import { and, desc, eq, or } from "drizzle-orm";
import { requireUser } from "../../lib/auth.ts";
import { isUniqueViolation } from "../../lib/db-errors.ts";
import { conflict, notFound } from "../../lib/errors.ts";
import { bearer, createRouter, errors, json, jsonBody, noContent, UuidParam } from "../../lib/openapi.ts";
import { PublicProfileSchema } from "../user/schemas.ts";
import { removeFriendship } from "./friends.routes.ts";
import { profilesOf, socialTarget } from "./relations.ts";

export const ALREADY_BLOCKED = "You have already blocked this user.";
export const NOT_BLOCKED = "You have not blocked this user.";

const tags = ["Blocked users"];
export const blockedUsersRoutes = createRouter();

const BlockSchema = z
  .object({ id: z.uuid(), blockedUuid: z.uuid(), createdAt: z.string(), profile: PublicProfileSchema.nullable() })
  .openapi("BlockedUser");

blockedUsersRoutes.openapi(
  createRoute({
    method: "post",
    path: "/blocked-users",
    tags,
    summary: "Block a user: it ends any friendship, invitation and follow between you, and stops new ones",
    security: bearer,
    request: jsonBody(z.object({ userUuid: z.uuid() })),
    responses: { 201: json(BlockSchema, "Created"), ...errors(400, 401, 403, 404, 409) },
  }),
  async (c) => {
    const { user } = await requireUser(c);
    const { userUuid } = c.req.valid("json");
    const { db, clock } = c.var.deps;
    await socialTarget(db, user.uuid, userUuid, {
      self: "You cannot block yourself.",
      missing: "User not found.",
      blocked: null,
    });
    try {
      const row = await db.transaction(async (tx) => {
        const [block] = await tx
          .insert(schema.blockedUsers)
          .values({ blockerUuid: user.uuid, blockedUuid: userUuid, createdAt: clock.now() })
          .returning();
        await removeFriendship(tx, user.uuid, userUuid);
        await tx
          .delete(schema.friendInvitations)
          .where(
            or(
              and(eq(schema.friendInvitations.fromUuid, user.uuid), eq(schema.friendInvitations.toUuid, userUuid)),
              and(eq(schema.friendInvitations.fromUuid, userUuid), eq(schema.friendInvitations.toUuid, user.uuid)),
            ),
          );
        await tx
          .delete(schema.djFans)
          .where(
            or(
              and(eq(schema.djFans.fanUuid, user.uuid), eq(schema.djFans.djUuid, userUuid)),
              and(eq(schema.djFans.fanUuid, userUuid), eq(schema.djFans.djUuid, user.uuid)),
            ),
          );
        return block;
      });
      if (!row) throw new Error("block insert returned nothing");
      const [profile] = await profilesOf(db, [userUuid]);
      return c.json(
        { id: row.id, blockedUuid: row.blockedUuid, createdAt: row.createdAt.toISOString(), profile: profile ?? null },
        201,
      );
    } catch (err) {
      if (isUniqueViolation(err)) throw conflict(ALREADY_BLOCKED);
      throw err;
    }
  },
);

blockedUsersRoutes.openapi(
  createRoute({
    method: "get",
    path: "/blocked-users",
    tags,
    summary: "The users the caller has blocked",
    security: bearer,
    responses: { 200: json(z.array(BlockSchema)), ...errors(401, 403) },
  }),
  async (c) => {
    const { user } = await requireUser(c);
    const { db } = c.var.deps;
    const rows = await db
      .select()
      .from(schema.blockedUsers)
      .where(eq(schema.blockedUsers.blockerUuid, user.uuid))
      .orderBy(desc(schema.blockedUsers.createdAt));
    const profiles = new Map(
      (
        await profilesOf(
          db,
          rows.map((r) => r.blockedUuid),
        )
      ).map((p) => [p.uuid, p]),
    );
    return c.json(
      rows.map((r) => ({
        id: r.id,
        blockedUuid: r.blockedUuid,
        createdAt: r.createdAt.toISOString(),
        profile: profiles.get(r.blockedUuid) ?? null,
      })),
      200,
    );
  },
);

blockedUsersRoutes.openapi(
  createRoute({
    method: "get",
    path: "/blocked-users/{id}",
    tags,
    summary: "Whether the caller has blocked user {id}",
    security: bearer,
    request: { params: UuidParam },
    responses: { 200: json(BlockSchema), ...errors(400, 401, 403, 404) },
  }),
  async (c) => {
    const { user } = await requireUser(c);
    const id = c.req.valid("param").id;
    const { db } = c.var.deps;
    const [row] = await db
      .select()
      .from(schema.blockedUsers)
      .where(and(eq(schema.blockedUsers.blockerUuid, user.uuid), eq(schema.blockedUsers.blockedUuid, id)));
    if (!row) throw notFound(NOT_BLOCKED);
    const [profile] = await profilesOf(db, [id]);
    return c.json(
      { id: row.id, blockedUuid: row.blockedUuid, createdAt: row.createdAt.toISOString(), profile: profile ?? null },
      200,
    );
  },
);

blockedUsersRoutes.openapi(
  createRoute({
    method: "delete",
    path: "/blocked-users/{id}",
    tags,
    summary: "Unblock user {id}",
    security: bearer,
    request: { params: UuidParam },
    responses: { ...noContent, ...errors(400, 401, 403, 404) },
  }),
  async (c) => {
    const { user } = await requireUser(c);
    const deleted = await c.var.deps.db
      .delete(schema.blockedUsers)
      .where(
        and(
          eq(schema.blockedUsers.blockerUuid, user.uuid),
          eq(schema.blockedUsers.blockedUuid, c.req.valid("param").id),
        ),
      )
      .returning();
    if (deleted.length === 0) throw notFound(NOT_BLOCKED);
    return c.body(null, 204);
  },
);
