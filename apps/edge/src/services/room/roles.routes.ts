import { type Db, schema } from "@booth/db";
import { RoomRole, values } from "@booth/db/schema";
import { createRoute, z } from "@hono/zod-openapi";
import { and, eq, gt, inArray, isNotNull, isNull, or } from "drizzle-orm";
import type { Context } from "hono";
import { ADMINS, activeBan, hasAnyRole, requireUser } from "../../lib/auth.ts";
import type { AppEnv } from "../../lib/context.ts";
import { badRequest, forbidden, notFound, unauthorized } from "../../lib/errors.ts";
import { bearer, createRouter, errors, json, jsonBody, noContent } from "../../lib/openapi.ts";
import { logModeration } from "../user/user-moderation.routes.ts";
import { loadRoom, ROOM_RANK, type Room, rankFrom, roleInForce, roomRolesOf } from "./access.ts";
import { RoomRoleSchema, rolesInForce, settingsView, withoutSanctions } from "./rooms.ts";

export const roomRolesRoutes = createRouter();
const tags = ["Room roles"];

/** How long a kick keeps someone out of the room. */
export const KICK_SECONDS = 5 * 60;

/** The rank needed to give or take each room role. */
export const GRANT_RANK: Record<RoomRole, number> = {
  owner: Number.POSITIVE_INFINITY,
  coOwner: ROOM_RANK.owner,
  moderator: ROOM_RANK.coOwner,
  banned: ROOM_RANK.moderator,
  kicked: ROOM_RANK.moderator,
  chatDisabled: ROOM_RANK.moderator,
  djDisabled: ROOM_RANK.moderator,
  dj: ROOM_RANK.moderator,
};
const SANCTIONS: readonly RoomRole[] = ["banned", "kicked", "chatDisabled", "djDisabled"];

export const ROLE_MESSAGES = {
  notAllowed: "You are not allowed to change this user's roles in this room.",
  self: "You cannot change your own roles this way.",
  owner: "Use change-owner to give the room to someone else.",
  notFound: "This user does not have that role in this room.",
  pastExpiration: "expirationTime must be in the future.",
} as const;

const RoomParam = z.object({ room: z.uuid().openapi({ param: { name: "room", in: "path" } }) });
const RoleView = RoomRoleSchema.extend({ id: z.uuid(), roomUuid: z.uuid(), createdAt: z.string() }).openapi(
  "RoomUserRoleRecord",
);
type RoleRow = typeof schema.roomUserRoles.$inferSelect;
const roleView = (r: RoleRow) => ({
  id: r.id,
  roomUuid: r.roomUuid,
  userUuid: r.userUuid,
  role: r.role,
  expirationTime: r.expirationTime?.toISOString() ?? null,
  createdAt: r.createdAt.toISOString(),
});

async function callerRank(c: Context<AppEnv>, room: Room) {
  const { user } = await requireUser(c, { types: ["user", "bot"] });
  const now = c.var.deps.clock.now();
  return {
    user,
    rank: rankFrom(room, user.uuid, user.roles, await roomRolesOf(c.var.deps.db, room.uuid, user.uuid, now)),
  };
}

async function targetRank(db: Db, room: Room, userUuid: string, now: Date) {
  const [target] = await db.select().from(schema.users).where(eq(schema.users.uuid, userUuid));
  if (!target) throw notFound("User not found.");
  return {
    target,
    rank: rankFrom(room, target.uuid, target.roles, await roomRolesOf(db, room.uuid, target.uuid, now)),
  };
}

// Fixed paths first: /roomUserRoles/{room} would answer for them.
roomRolesRoutes.openapi(
  createRoute({
    method: "post",
    path: "/roomUserRoles/kick-user-from-room",
    tags,
    summary: `Kick a user out of a room: their connections close and they may come back after ${KICK_SECONDS / 60} minutes (moderators and up, above the user)`,
    security: bearer,
    request: jsonBody(
      z.object({ roomUuid: z.uuid(), userUuid: z.uuid(), reason: z.string().trim().max(500).optional() }).strict(),
    ),
    responses: { 201: json(RoleView, "Created"), ...errors(400, 401, 403, 404) },
  }),
  async (c) => {
    const { db, clock, liveRooms } = c.var.deps;
    const body = c.req.valid("json");
    const room = await loadRoom(db, { uuid: body.roomUuid });
    const { user } = await authorizeRoleChange(c, room, body.userUuid, "kicked");
    const now = clock.now();
    const row = await grantRole(db, room, {
      userUuid: body.userUuid,
      role: "kicked",
      expiration: new Date(now.getTime() + KICK_SECONDS * 1000),
      by: user.uuid,
      reason: body.reason ?? null,
      now,
    });
    await db
      .delete(schema.roomPresence)
      .where(and(eq(schema.roomPresence.roomUuid, room.uuid), eq(schema.roomPresence.userUuid, body.userUuid)));
    await liveRooms.notify(room.uuid, { type: "kickUser", userUuid: body.userUuid });
    return c.json(roleView(row), 201);
  },
);

roomRolesRoutes.openapi(
  createRoute({
    method: "post",
    path: "/roomUserRoles/no-dancefloor-users",
    tags,
    summary:
      "Of the given users, those who must not show on a room's dance floor: banned or kicked there, banned or gone from the platform (signed in; services)",
    security: bearer,
    request: jsonBody(z.object({ roomUuid: z.uuid(), userUuids: z.array(z.uuid()).max(1000) }).strict()),
    responses: {
      200: json(z.object({ userUuids: z.array(z.uuid()) }).openapi("NoDancefloorUsers")),
      ...errors(400, 401, 404),
    },
  }),
  async (c) => {
    if (c.var.auth?.type !== "service") await requireUser(c, { types: ["user", "bot"] });
    if (!c.var.auth) throw unauthorized();
    const { db, clock } = c.var.deps;
    const body = c.req.valid("json");
    const room = await loadRoom(db, { uuid: body.roomUuid });
    const ids = [...new Set(body.userUuids)];
    if (!ids.length) return c.json({ userUuids: [] }, 200);
    const now = clock.now();
    const sanctioned = await db
      .select({ uuid: schema.roomUserRoles.userUuid })
      .from(schema.roomUserRoles)
      .where(
        and(
          eq(schema.roomUserRoles.roomUuid, room.uuid),
          inArray(schema.roomUserRoles.userUuid, ids),
          inArray(schema.roomUserRoles.role, ["banned", "kicked"]),
          roleInForce(now),
        ),
      );
    const gone = await db
      .select({ uuid: schema.users.uuid })
      .from(schema.users)
      .where(and(inArray(schema.users.uuid, ids), isNotNull(schema.users.deactivatedAt)));
    const banned = await db
      .select({ uuid: schema.sanctions.userUuid })
      .from(schema.sanctions)
      .where(
        and(
          inArray(schema.sanctions.userUuid, ids),
          isNull(schema.sanctions.liftedAt),
          or(
            eq(schema.sanctions.type, "ban"),
            and(eq(schema.sanctions.type, "temporaryBan"), gt(schema.sanctions.expiresAt, now)),
          ),
        ),
      );
    const out = new Set([...sanctioned, ...gone, ...banned].map((r) => r.uuid));
    return c.json({ userUuids: ids.filter((id) => out.has(id)) }, 200);
  },
);

roomRolesRoutes.openapi(
  createRoute({
    method: "get",
    path: "/roomUserRoles/{room}",
    tags,
    summary:
      "The roles in force in a room: owners, co-owners, moderators and DJs to anyone; sanctions to its moderators",
    request: { params: RoomParam },
    responses: { 200: json(z.array(RoomRoleSchema).openapi("RoomRoles")), ...errors(400, 404) },
  }),
  async (c) => {
    const { db, clock } = c.var.deps;
    const room = await loadRoom(db, { uuid: c.req.valid("param").room });
    const roles = (await settingsView(db, room, clock.now())).roomRoles;
    let seesAll = c.var.auth?.type === "service";
    if (!seesAll && c.var.auth && c.var.auth.type !== "guest") {
      const { rank } = await callerRank(c, room);
      seesAll = rank >= ROOM_RANK.moderator;
    }
    return c.json(seesAll ? roles : withoutSanctions({ roomRoles: roles }).roomRoles, 200);
  },
);

roomRolesRoutes.openapi(
  createRoute({
    method: "get",
    path: "/roomUserRoles/{room}/{user}",
    tags,
    summary: "One user's roles in a room (the user, the room's moderators, services)",
    security: bearer,
    request: { params: RoomParam.extend({ user: z.uuid().openapi({ param: { name: "user", in: "path" } }) }) },
    responses: { 200: json(z.array(RoomRoleSchema)), ...errors(400, 401, 403, 404) },
  }),
  async (c) => {
    const { db, clock } = c.var.deps;
    const { room: roomUuid, user: userUuid } = c.req.valid("param");
    const room = await loadRoom(db, { uuid: roomUuid });
    if (c.var.auth?.type !== "service") {
      const { user, rank } = await callerRank(c, room);
      if (user.uuid !== userUuid && rank < ROOM_RANK.moderator) throw forbidden(ROLE_MESSAGES.notAllowed);
    }
    const roles = (await rolesInForce(db, room.uuid, clock.now())).filter((r) => r.userUuid === userUuid);
    if (room.ownerUuid === userUuid && !roles.some((r) => r.role === "owner"))
      roles.unshift({ userUuid, role: "owner", expirationTime: null });
    return c.json(roles, 200);
  },
);

const NewRole = z
  .object({
    userUuid: z.uuid(),
    role: z.enum(values(RoomRole)),
    expirationTime: z.iso.datetime({ offset: true }).nullable().optional(),
    reason: z.string().trim().max(500).optional(),
  })
  .strict();

/** The caller may change `role` for `userUuid` only above the role's grant rank and strictly above the target. */
async function authorizeRoleChange(c: Context<AppEnv>, room: Room, userUuid: string, role: RoomRole) {
  const { user, rank } = await callerRank(c, room);
  if (role === "owner") throw badRequest(ROLE_MESSAGES.owner);
  if (user.uuid === userUuid) throw forbidden(ROLE_MESSAGES.self);
  const target = await targetRank(c.var.deps.db, room, userUuid, c.var.deps.clock.now());
  if (rank < GRANT_RANK[role] || rank <= target.rank) throw forbidden(ROLE_MESSAGES.notAllowed);
  return { user, target: target.target };
}

roomRolesRoutes.openapi(
  createRoute({
    method: "post",
    path: "/roomUserRoles/{room}",
    tags,
    summary:
      "Give a user a room role, optionally until expirationTime: moderators ban, kick, mute (chatDisabled), bar from the booth (djDisabled) or invite to DJ; co-owners name moderators; owners co-owners",
    security: bearer,
    request: { params: RoomParam, ...jsonBody(NewRole) },
    responses: { 201: json(RoleView, "Created"), ...errors(400, 401, 403, 404) },
  }),
  async (c) => {
    const { db, clock, liveRooms } = c.var.deps;
    const room = await loadRoom(db, { uuid: c.req.valid("param").room });
    const body = c.req.valid("json");
    const { user } = await authorizeRoleChange(c, room, body.userUuid, body.role);
    const now = clock.now();
    const expiration = body.expirationTime ? new Date(body.expirationTime) : null;
    if (expiration && expiration <= now) throw badRequest(ROLE_MESSAGES.pastExpiration);
    const row = await grantRole(db, room, {
      userUuid: body.userUuid,
      role: body.role,
      expiration,
      by: user.uuid,
      reason: body.reason ?? null,
      now,
    });
    if (body.role === "banned" || body.role === "kicked")
      await liveRooms.notify(room.uuid, { type: "kickUser", userUuid: body.userUuid });
    await liveRooms.notify(room.uuid, { type: "updateRoles" });
    return c.json(roleView(row), 201);
  },
);

const MODERATION_ACTION = { banned: "banUser", kicked: "kickUser" } as const;

async function grantRole(
  db: Db,
  room: Room,
  g: { userUuid: string; role: RoomRole; expiration: Date | null; by: string; reason: string | null; now: Date },
) {
  return db.transaction(async (tx) => {
    const [row] = await tx
      .insert(schema.roomUserRoles)
      .values({
        roomUuid: room.uuid,
        userUuid: g.userUuid,
        role: g.role,
        expirationTime: g.expiration,
        grantedBy: g.by,
        createdAt: g.now,
      })
      .onConflictDoUpdate({
        target: [schema.roomUserRoles.roomUuid, schema.roomUserRoles.userUuid, schema.roomUserRoles.role],
        set: { expirationTime: g.expiration, grantedBy: g.by, createdAt: g.now },
      })
      .returning();
    if (!row) throw new Error("role upsert returned nothing");
    await logModeration(tx, {
      actionType:
        g.role in MODERATION_ACTION ? MODERATION_ACTION[g.role as keyof typeof MODERATION_ACTION] : "grantRole",
      moderatorUuid: g.by,
      targetUuid: g.userUuid,
      roomUuid: room.uuid,
      role: g.role,
      reason: g.reason,
      expiresAt: g.expiration,
      now: g.now,
    });
    return row;
  });
}

roomRolesRoutes.openapi(
  createRoute({
    method: "delete",
    path: "/roomUserRoles/{room}",
    tags,
    summary:
      "Take a room role away (the same ranks as giving it); anyone may step down from moderator, co-owner or DJ themselves",
    security: bearer,
    request: {
      params: RoomParam,
      ...jsonBody(z.object({ userUuid: z.uuid(), role: z.enum(values(RoomRole)) }).strict()),
    },
    responses: { ...noContent, ...errors(400, 401, 403, 404) },
  }),
  async (c) => {
    const { db, clock, liveRooms } = c.var.deps;
    const room = await loadRoom(db, { uuid: c.req.valid("param").room });
    const body = c.req.valid("json");
    const stepsDown = c.var.auth?.sub === body.userUuid && !SANCTIONS.includes(body.role) && body.role !== "owner";
    const { user } = stepsDown
      ? await callerRank(c, room)
      : await authorizeRoleChange(c, room, body.userUuid, body.role);
    const now = clock.now();
    const removed = await db.transaction(async (tx) => {
      const rows = await tx
        .delete(schema.roomUserRoles)
        .where(
          and(
            eq(schema.roomUserRoles.roomUuid, room.uuid),
            eq(schema.roomUserRoles.userUuid, body.userUuid),
            eq(schema.roomUserRoles.role, body.role),
          ),
        )
        .returning();
      if (rows.length)
        await logModeration(tx, {
          actionType: "removeRole",
          moderatorUuid: user.uuid,
          targetUuid: body.userUuid,
          roomUuid: room.uuid,
          role: body.role,
          now,
        });
      return rows.length;
    });
    if (!removed) throw notFound(ROLE_MESSAGES.notFound);
    await liveRooms.notify(room.uuid, { type: "updateRoles" });
    return c.body(null, 204);
  },
);

roomRolesRoutes.openapi(
  createRoute({
    method: "put",
    path: "/roomUserRoles/change-owner/{room}",
    tags,
    summary: "Give the room to another user; the previous owner stays as co-owner (the owner; admins)",
    security: bearer,
    request: { params: RoomParam, ...jsonBody(z.object({ userUuid: z.uuid() }).strict()) },
    responses: { 200: json(z.any().openapi({ description: "The room's settings" })), ...errors(400, 401, 403, 404) },
  }),
  async (c) => {
    const { user } = await requireUser(c);
    const { db, clock, liveRooms } = c.var.deps;
    const room = await loadRoom(db, { uuid: c.req.valid("param").room });
    if (room.ownerUuid !== user.uuid && !hasAnyRole(user.roles, ADMINS))
      throw forbidden("Only the room's owner may give it away.");
    const { userUuid } = c.req.valid("json");
    if (userUuid === room.ownerUuid) throw badRequest("This user already owns the room.");
    const [next] = await db.select().from(schema.users).where(eq(schema.users.uuid, userUuid));
    if (!next || next.deactivatedAt) throw notFound("User not found.");
    if (await activeBan(db, userUuid, clock.now())) throw forbidden("This account is banned.");
    const now = clock.now();
    const updated = await db.transaction(async (tx) => {
      // The new owner's sanctions and lesser roles in the room end; the old owner becomes a co-owner.
      await tx
        .delete(schema.roomUserRoles)
        .where(and(eq(schema.roomUserRoles.roomUuid, room.uuid), eq(schema.roomUserRoles.userUuid, userUuid)));
      await tx
        .insert(schema.roomUserRoles)
        .values({
          roomUuid: room.uuid,
          userUuid: room.ownerUuid,
          role: "coOwner",
          grantedBy: user.uuid,
          createdAt: now,
        })
        .onConflictDoNothing();
      const [row] = await tx
        .update(schema.rooms)
        .set({ ownerUuid: userUuid, updatedAt: now })
        .where(eq(schema.rooms.uuid, room.uuid))
        .returning();
      await logModeration(tx, {
        actionType: "grantRole",
        moderatorUuid: user.uuid,
        targetUuid: userUuid,
        roomUuid: room.uuid,
        role: "owner",
        now,
      });
      return row ?? room;
    });
    const settings = await settingsView(db, updated, now);
    await liveRooms.notify(room.uuid, { type: "updateRoomSettings", settings });
    return c.json(settings, 200);
  },
);
