import { schema } from "@booth/db";
import { createRoute, z } from "@hono/zod-openapi";
import { eq } from "drizzle-orm";
import type { Context } from "hono";
import { requireUser } from "../../lib/auth.ts";
import type { AppEnv } from "../../lib/context.ts";
import { forbidden, HttpError, unauthorized } from "../../lib/errors.ts";
import { bearer, createRouter, errors, json, jsonBody, UuidParam } from "../../lib/openapi.ts";
import { type CometChat, cometChatFrom, type GroupScope } from "../../ports/cometchat.ts";
import { chatUsers } from "../user/comet-chat.routes.ts";
import { loadRoom, ROOM_RANK, type Room, rankFrom, roomRolesOf } from "./access.ts";
import { requireRoomAdmission } from "./admission.ts";
import { rolesInForce } from "./rooms.ts";

/**
 * A room's chat group at CometChat (guid = the room's uuid): its members and their scopes follow the room's roles.
 * Owners and co-owners are group admins, moderators moderators, everyone else a participant; a room ban is a group
 * ban and a kick removes the member.
 */
export const roomCometChatRoutes = createRouter();
const tags = ["Room roles"];

export const ROOM_CHAT_MESSAGES = {
  guests: "Guests read the room chat as the ghost user: sign in to chat.",
  notAllowed: "Only the room's moderators may sync its chat group.",
} as const;

const groupType = (room: Room) => (room.type === "PRIVATE" || room.passwordHash ? "private" : "public");

/** A room rank as a CometChat group scope. */
export const scopeForRank = (rank: number): GroupScope =>
  rank >= ROOM_RANK.coOwner ? "admin" : rank >= ROOM_RANK.moderator ? "moderator" : "participant";

const ensureRoomGroup = (chat: CometChat, room: Room) =>
  chat.ensureGroup({ guid: room.uuid, name: room.name, type: groupType(room), owner: room.ownerUuid });

const SyncResult = z
  .object({
    guid: z.string(),
    admins: z.number().int(),
    moderators: z.number().int(),
    participants: z.number().int(),
    added: z.number().int(),
    scopesChanged: z.number().int(),
    removed: z.number().int(),
    banned: z.number().int(),
    unbanned: z.number().int(),
  })
  .openapi("RoomChatSync");

async function requireSyncCaller(c: Context<AppEnv>, room: Room) {
  if (c.var.auth?.type === "service") return;
  if (!c.var.auth) throw unauthorized();
  const { user } = await requireUser(c, { types: ["user", "bot"] });
  const { db, clock } = c.var.deps;
  const rank = rankFrom(room, user.uuid, user.roles, await roomRolesOf(db, room.uuid, user.uuid, clock.now()));
  if (rank < ROOM_RANK.moderator) throw forbidden(ROOM_CHAT_MESSAGES.notAllowed);
}

roomCometChatRoutes.openapi(
  createRoute({
    method: "post",
    path: "/roomUserRoles/cometchat/sync/{id}",
    tags,
    summary:
      "Bring the room's CometChat group in line with its roles: scopes, bans, kicks; adds the people in the room (and any named)",
    security: bearer,
    request: {
      params: UuidParam,
      ...jsonBody(
        z
          .object({
            userUuids: z
              .array(z.uuid())
              .max(500)
              .default([])
              .openapi({ description: "More members to add as participants (besides the room's roles and presence)" }),
          })
          .strict()
          .openapi("RoomChatSyncInput"),
      ),
    },
    responses: { 200: json(SyncResult), ...errors(400, 401, 403, 404, 502, 503) },
  }),
  async (c) => {
    const { db, clock, config } = c.var.deps;
    const room = await loadRoom(db, { uuid: c.req.valid("param").id });
    await requireSyncCaller(c, room);
    const chat = cometChatFrom(config.integrations);
    const now = clock.now();

    // What the group should be.
    const roles = await rolesInForce(db, room.uuid, now);
    const holding = (role: string) => new Set(roles.filter((r) => r.role === role).map((r) => r.userUuid));
    const banned = holding("banned");
    const kicked = holding("kicked");
    const wanted = new Map<string, GroupScope>();
    const present = await db
      .select({ uuid: schema.roomPresence.userUuid })
      .from(schema.roomPresence)
      .where(eq(schema.roomPresence.roomUuid, room.uuid));
    for (const uuid of [...present.map((p) => p.uuid), ...c.req.valid("json").userUuids.map((u) => u.toLowerCase())])
      wanted.set(uuid, "participant");
    for (const uuid of holding("moderator")) wanted.set(uuid, "moderator");
    for (const uuid of [...holding("coOwner"), ...holding("owner"), room.ownerUuid]) wanted.set(uuid, "admin");
    for (const uuid of [...banned, ...kicked]) if (wanted.get(uuid) !== "admin") wanted.delete(uuid);

    // Only Booth accounts become CometChat users; unknown uuids are left out.
    const accounts = await chatUsers(db, [...new Set([...wanted.keys(), ...banned])]);
    const known = new Set(accounts.map((a) => a.uid));
    for (const uuid of wanted.keys()) if (!known.has(uuid)) wanted.delete(uuid);
    for (const account of accounts) await chat.ensureUser(account);
    await ensureRoomGroup(chat, room);

    // What it is, and the difference.
    const current = new Map((await chat.listMembers(room.uuid)).map((m) => [m.uid, m.scope]));
    const byScope = (scope: GroupScope) =>
      [...wanted].filter(([uid, s]) => s === scope && !current.has(uid)).map(([uid]) => uid);
    const results = await chat.addMembers(room.uuid, {
      admin: byScope("admin"),
      moderator: byScope("moderator"),
      participant: byScope("participant"),
    });
    const added = results.filter((r) => r.ok).length;
    let scopesChanged = 0;
    for (const r of results)
      if (r.code === "ERR_ALREADY_JOINED") {
        await chat.setScope(room.uuid, r.uid, wanted.get(r.uid) ?? "participant");
        scopesChanged++;
      }
    let removed = 0;
    for (const [uid, scope] of current) {
      if (uid === chat.ghostUid || scope === "owner") continue;
      if ((kicked.has(uid) || banned.has(uid)) && wanted.get(uid) !== "admin") {
        if (kicked.has(uid) && !banned.has(uid)) {
          await chat.kick(room.uuid, uid);
          removed++;
        }
        continue;
      }
      const target = wanted.get(uid) ?? "participant";
      if (scope !== target) {
        await chat.setScope(room.uuid, uid, target);
        scopesChanged++;
      }
    }
    const toBan = [...banned].filter((uid) => known.has(uid) && wanted.get(uid) !== "admin");
    const bannedNow = new Set(await chat.listBanned(room.uuid));
    const newBans = toBan.filter((uid) => !bannedNow.has(uid));
    if (newBans.length) await chat.addMembers(room.uuid, { banned: newBans });
    let unbanned = 0;
    for (const uid of bannedNow)
      if (!toBan.includes(uid)) {
        await chat.unban(room.uuid, uid);
        unbanned++;
      }
    const count = (scope: GroupScope) => [...wanted.values()].filter((s) => s === scope).length;
    return c.json(
      {
        guid: room.uuid,
        admins: count("admin"),
        moderators: count("moderator"),
        participants: count("participant"),
        added,
        scopesChanged,
        removed,
        banned: newBans.length,
        unbanned,
      },
      200,
    );
  },
);

roomCometChatRoutes.openapi(
  createRoute({
    method: "post",
    path: "/roomUserRoles/cometchat/join/{id}",
    tags,
    summary: "Put the caller in the room's CometChat group, with the scope their room role gives",
    security: bearer,
    request: { params: UuidParam },
    responses: {
      200: json(
        z
          .object({ guid: z.string(), uid: z.string(), scope: z.enum(["admin", "moderator", "participant"]) })
          .openapi("RoomChatMembership"),
      ),
      ...errors(400, 401, 403, 404, 502, 503),
    },
  }),
  async (c) => {
    const { db, config } = c.var.deps;
    if (!c.var.auth || c.var.auth.type === "service") throw unauthorized();
    if (c.var.auth.type === "guest") throw forbidden(ROOM_CHAT_MESSAGES.guests);
    const chat = cometChatFrom(config.integrations);
    const room = await loadRoom(db, { uuid: c.req.valid("param").id });
    const caller = await requireRoomAdmission(c, room);
    const scope = scopeForRank(caller.rank);
    const [me] = await chatUsers(db, [caller.uuid]);
    await chat.ensureUser(me ?? { uid: caller.uuid, name: caller.uuid });
    await ensureRoomGroup(chat, room);
    const [result] = await chat.addMembers(room.uuid, { [scope]: [caller.uuid] });
    if (result?.code === "ERR_ALREADY_JOINED") await chat.setScope(room.uuid, caller.uuid, scope);
    else if (result && !result.ok) throw new HttpError(502, `CometChat did not add the member (${result.code}).`);
    return c.json({ guid: room.uuid, uid: caller.uuid, scope }, 200);
  },
);
