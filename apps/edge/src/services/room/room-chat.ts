import { type Db, schema } from "@booth/db";
import { eq } from "drizzle-orm";
import { HttpError } from "../../lib/errors.ts";
import type { CometChat, GroupScope } from "../../ports/cometchat.ts";
import { chatUsers } from "../user/public.ts";
import { ROOM_RANK, type Room } from "./access.ts";
import { rolesInForce } from "./rooms.ts";

/**
 * A room's chat group at CometChat (guid = the room's uuid): its members and their scopes follow the room's roles.
 * Owners and co-owners are group admins, moderators moderators, everyone else a participant; a room ban is a group
 * ban and a kick removes the member.
 */
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

/** Brings the room's group in line with its roles and presence (and `more` as participants); answers the counts. */
export async function syncRoomChat(db: Db, chat: CometChat, room: Room, more: string[], now: Date) {
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
  for (const uuid of [...present.map((p) => p.uuid), ...more.map((u) => u.toLowerCase())])
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
  return {
    guid: room.uuid,
    admins: count("admin"),
    moderators: count("moderator"),
    participants: count("participant"),
    added,
    scopesChanged,
    removed,
    banned: newBans.length,
    unbanned,
  };
}

/** Puts a user in the room's group with the scope their rank gives; answers the scope. */
export async function joinRoomChat(db: Db, chat: CometChat, room: Room, userUuid: string, rank: number) {
  const scope = scopeForRank(rank);
  const [me] = await chatUsers(db, [userUuid]);
  await chat.ensureUser(me ?? { uid: userUuid, name: userUuid });
  await ensureRoomGroup(chat, room);
  const [result] = await chat.addMembers(room.uuid, { [scope]: [userUuid] });
  if (result?.code === "ERR_ALREADY_JOINED") await chat.setScope(room.uuid, userUuid, scope);
  else if (result && !result.ok) throw new HttpError(502, `CometChat did not add the member (${result.code}).`);
  return scope;
}
