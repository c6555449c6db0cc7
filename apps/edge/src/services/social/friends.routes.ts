import { schema, type Tx } from "@booth/db";
import { createRoute, z } from "@hono/zod-openapi";
import { and, count, desc, eq, or } from "drizzle-orm";
import { hasAnyRole, requireUser, STAFF } from "../../lib/auth.ts";
import { isUniqueViolation } from "../../lib/db-errors.ts";
import { conflict, forbidden, notFound } from "../../lib/errors.ts";
import { bearer, createRouter, errors, json, jsonBody, noContent, UuidParam } from "../../lib/openapi.ts";
import { PublicProfileSchema } from "../user/schemas.ts";
import { blockedBetween, profilesOf, socialTarget } from "./relations.ts";

export const CANNOT_INVITE = "You cannot invite this user.";
export const ALREADY_FRIENDS = "You are already friends.";
export const INVITATION_PENDING = "An invitation between you is already pending.";
export const INVITATION_HANDLED = "This invitation has already been handled.";
export const NOT_FRIENDS = "You are not friends.";

export const friendsRoutes = createRouter();

const InvitationSchema = z
  .object({
    id: z.uuid(),
    fromUuid: z.uuid(),
    toUuid: z.uuid(),
    status: z.enum(["pending", "accepted", "rejected"]),
    handledAt: z.string().nullable(),
    createdAt: z.string(),
  })
  .openapi("FriendInvitation");
type Invitation = typeof schema.friendInvitations.$inferSelect;
const invitationView = (i: Invitation) => ({
  ...i,
  handledAt: i.handledAt?.toISOString() ?? null,
  createdAt: i.createdAt.toISOString(),
});
const FriendSchema = z.object({ userUuid: z.uuid(), friendUuid: z.uuid(), since: z.string() }).openapi("Friendship");

const friendsOf = (db: Tx | Parameters<typeof profilesOf>[0], a: string, b: string) =>
  db
    .select()
    .from(schema.friends)
    .where(and(eq(schema.friends.userUuid, a), eq(schema.friends.friendUuid, b)))
    .limit(1);

// ---- invitations

friendsRoutes.openapi(
  createRoute({
    method: "post",
    path: "/friend-invitations",
    tags: ["Friends"],
    summary: "Invite a user to be friends",
    security: bearer,
    request: jsonBody(z.object({ userUuid: z.uuid() })),
    responses: { 201: json(InvitationSchema, "Created"), ...errors(400, 401, 403, 404, 409) },
  }),
  async (c) => {
    const { user } = await requireUser(c);
    const { userUuid } = c.req.valid("json");
    const { db, clock } = c.var.deps;
    await socialTarget(db, user.uuid, userUuid, {
      self: "You cannot invite yourself.",
      missing: "User not found.",
      blocked: CANNOT_INVITE,
    });
    if ((await friendsOf(db, user.uuid, userUuid)).length) throw conflict(ALREADY_FRIENDS);
    try {
      const [row] = await db
        .insert(schema.friendInvitations)
        .values({ fromUuid: user.uuid, toUuid: userUuid, createdAt: clock.now() })
        .returning();
      if (!row) throw new Error("invitation insert returned nothing");
      return c.json(invitationView(row), 201);
    } catch (err) {
      if (isUniqueViolation(err)) throw conflict(INVITATION_PENDING);
      throw err;
    }
  },
);

const listInvitations = (db: Parameters<typeof profilesOf>[0], where: ReturnType<typeof eq> | ReturnType<typeof or>) =>
  db
    .select()
    .from(schema.friendInvitations)
    .where(and(where, eq(schema.friendInvitations.status, "pending")))
    .orderBy(desc(schema.friendInvitations.createdAt));

friendsRoutes.openapi(
  createRoute({
    method: "get",
    path: "/friend-invitations/user-invitations/{id}",
    tags: ["Friends"],
    summary: "Pending invitations to and from user {id} (the user themselves, or staff)",
    security: bearer,
    request: { params: UuidParam },
    responses: { 200: json(z.array(InvitationSchema)), ...errors(400, 401, 403) },
  }),
  async (c) => {
    const { user } = await requireUser(c);
    const { id } = c.req.valid("param");
    if (id !== user.uuid && !hasAnyRole(user.roles, STAFF)) throw forbidden();
    const rows = await listInvitations(
      c.var.deps.db,
      or(eq(schema.friendInvitations.fromUuid, id), eq(schema.friendInvitations.toUuid, id)),
    );
    return c.json(rows.map(invitationView), 200);
  },
);

for (const [path, side, summary] of [
  ["/friend-invitations/user-invitations-for", "toUuid", "Pending invitations the caller has received"],
  ["/friend-invitations/user-invitations-from", "fromUuid", "Pending invitations the caller has sent"],
] as const)
  friendsRoutes.openapi(
    createRoute({
      method: "get",
      path,
      tags: ["Friends"],
      summary,
      security: bearer,
      responses: { 200: json(z.array(InvitationSchema)), ...errors(401, 403) },
    }),
    async (c) => {
      const { user } = await requireUser(c);
      const rows = await listInvitations(c.var.deps.db, eq(schema.friendInvitations[side], user.uuid));
      return c.json(rows.map(invitationView), 200);
    },
  );

friendsRoutes.openapi(
  createRoute({
    method: "delete",
    path: "/friend-invitations/{id}",
    tags: ["Friends"],
    summary: "Withdraw (sender) or dismiss (recipient) an invitation",
    security: bearer,
    request: { params: UuidParam },
    responses: { ...noContent, ...errors(400, 401, 403, 404) },
  }),
  async (c) => {
    const { user } = await requireUser(c);
    const deleted = await c.var.deps.db
      .delete(schema.friendInvitations)
      .where(
        and(
          eq(schema.friendInvitations.id, c.req.valid("param").id),
          or(eq(schema.friendInvitations.fromUuid, user.uuid), eq(schema.friendInvitations.toUuid, user.uuid)),
        ),
      )
      .returning();
    if (deleted.length === 0) throw notFound("Invitation not found.");
    return c.body(null, 204);
  },
);

friendsRoutes.openapi(
  createRoute({
    method: "post",
    path: "/friend-invitations/handle-friend",
    tags: ["Friends"],
    summary: "Accept or reject an invitation (its recipient); accepting makes you friends",
    security: bearer,
    request: jsonBody(z.object({ invitationId: z.uuid(), status: z.enum(["accepted", "rejected"]) })),
    responses: { 200: json(InvitationSchema), ...errors(400, 401, 403, 404, 409) },
  }),
  async (c) => {
    const { user } = await requireUser(c);
    const { invitationId, status } = c.req.valid("json");
    const { db, clock } = c.var.deps;
    const now = clock.now();
    const handled = await db.transaction(async (tx) => {
      const [invitation] = await tx
        .select()
        .from(schema.friendInvitations)
        .where(eq(schema.friendInvitations.id, invitationId));
      if (!invitation || invitation.toUuid !== user.uuid) throw notFound("Invitation not found.");
      // Conditional on still pending: accepting twice, or accept racing reject, changes it once.
      const [row] = await tx
        .update(schema.friendInvitations)
        .set({ status, handledAt: now })
        .where(and(eq(schema.friendInvitations.id, invitationId), eq(schema.friendInvitations.status, "pending")))
        .returning();
      if (!row) throw conflict(INVITATION_HANDLED);
      if (status === "accepted") {
        if (await blockedBetween(tx, row.fromUuid, row.toUuid)) throw forbidden(CANNOT_INVITE);
        await tx
          .insert(schema.friends)
          .values([
            { userUuid: row.fromUuid, friendUuid: row.toUuid, createdAt: now },
            { userUuid: row.toUuid, friendUuid: row.fromUuid, createdAt: now },
          ])
          .onConflictDoNothing();
      }
      return row;
    });
    return c.json(invitationView(handled), 200);
  },
);

// ---- friends

const SkipTake = z.object({
  skip: z.coerce.number().int().min(0).default(0),
  take: z.coerce.number().int().min(1).max(500).default(100),
});

friendsRoutes.openapi(
  createRoute({
    method: "get",
    path: "/friends/{id}",
    tags: ["Friends"],
    summary: "Friends of user {id}, as profiles, newest friendship first",
    security: bearer,
    request: { params: UuidParam, query: SkipTake },
    responses: {
      200: json(z.object({ data: z.array(PublicProfileSchema), total: z.number().int() }).openapi("FriendPage")),
      ...errors(400, 401, 403),
    },
  }),
  async (c) => {
    await requireUser(c, { types: ["user", "bot"] });
    const { id } = c.req.valid("param");
    const { skip, take } = c.req.valid("query");
    const { db } = c.var.deps;
    const [rows, [total]] = await Promise.all([
      db
        .select({ uuid: schema.friends.friendUuid })
        .from(schema.friends)
        .where(eq(schema.friends.userUuid, id))
        .orderBy(desc(schema.friends.createdAt), desc(schema.friends.id))
        .limit(take)
        .offset(skip),
      db.select({ n: count() }).from(schema.friends).where(eq(schema.friends.userUuid, id)),
    ]);
    return c.json(
      {
        data: await profilesOf(
          db,
          rows.map((r) => r.uuid),
        ),
        total: total?.n ?? 0,
      },
      200,
    );
  },
);

friendsRoutes.openapi(
  createRoute({
    method: "get",
    path: "/friends/list/{id}",
    tags: ["Friends"],
    summary: "The uuids of user {id}'s friends (e.g. to mark friends in a room)",
    security: bearer,
    request: { params: UuidParam },
    responses: { 200: json(z.array(z.uuid())), ...errors(400, 401, 403) },
  }),
  async (c) => {
    if (c.var.auth?.type !== "service") await requireUser(c, { types: ["user", "bot"] });
    const rows = await c.var.deps.db
      .select({ uuid: schema.friends.friendUuid })
      .from(schema.friends)
      .where(eq(schema.friends.userUuid, c.req.valid("param").id));
    return c.json(
      rows.map((r) => r.uuid),
      200,
    );
  },
);

friendsRoutes.openapi(
  createRoute({
    method: "get",
    path: "/friends/single-friend/{id}",
    tags: ["Friends"],
    summary: "The caller's friendship with user {id}",
    security: bearer,
    request: { params: UuidParam },
    responses: { 200: json(FriendSchema), ...errors(400, 401, 403, 404) },
  }),
  async (c) => {
    const { user } = await requireUser(c);
    const [row] = await friendsOf(c.var.deps.db, user.uuid, c.req.valid("param").id);
    if (!row) throw notFound(NOT_FRIENDS);
    return c.json({ userUuid: row.userUuid, friendUuid: row.friendUuid, since: row.createdAt.toISOString() }, 200);
  },
);

friendsRoutes.openapi(
  createRoute({
    method: "delete",
    path: "/friends/{id}",
    tags: ["Friends"],
    summary: "Stop being friends with user {id}",
    security: bearer,
    request: { params: UuidParam },
    responses: { ...noContent, ...errors(400, 401, 403, 404) },
  }),
  async (c) => {
    const { user } = await requireUser(c);
    const id = c.req.valid("param").id;
    const deleted = await removeFriendship(c.var.deps.db, user.uuid, id);
    if (deleted === 0) throw notFound(NOT_FRIENDS);
    return c.body(null, 204);
  },
);

/** Ends a friendship, both directions; returns the rows removed. */
export async function removeFriendship(db: Tx | Parameters<typeof profilesOf>[0], a: string, b: string) {
  const deleted = await db
    .delete(schema.friends)
    .where(
      or(
        and(eq(schema.friends.userUuid, a), eq(schema.friends.friendUuid, b)),
        and(eq(schema.friends.userUuid, b), eq(schema.friends.friendUuid, a)),
      ),
    )
    .returning({ id: schema.friends.id });
  return deleted.length;
}
