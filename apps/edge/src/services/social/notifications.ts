import { type Db, schema } from "@booth/db";
import { and, count, eq, inArray } from "drizzle-orm";
import type { AppDeps } from "../../deps.ts";
import type { User } from "../../lib/auth.ts";
import { errorMessage } from "../../lib/error-codes.ts";
import { forbidden, found, HttpError, notFound, USER_NOT_FOUND } from "../../lib/errors.ts";
import { isoOrNull } from "../../lib/json-rows.ts";
import type { PushNotice } from "../../ports/push.ts";
import { announceDjStart, findRoom, ROOM_NOT_FOUND, ROOM_RANK, type Room, roomRank } from "../room/public.ts";
import {
  type Audience,
  checkSize,
  claimAfter,
  claimAfterQuiet,
  cooldownOf,
  deliver,
  deliverToTokens,
  fansAudience,
  type Reach,
  reachOf,
  roomUsersAudience,
  usersAudience,
} from "./notify.ts";

export { USER_NOT_FOUND };
export const DJ_NOT_FOUND = "DJ not found.";
export const NO_DEVICE = "No device is registered with these tokens.";
export const ONLY_FRIENDS = errorMessage("MESSAGE_FRIENDS_ONLY");
export const ROOM_STAFF_ONLY = "Only the room's owner, co-owners and moderators can message its users.";

/** A DJ's fans hear about a set once: not again until the DJ has not played for this long. */
export const DJ_FANS_QUIET_SECONDS = 2 * 3600;
export const FANS_RECENTLY_NOTIFIED = "This DJ's fans were notified less than 2 hours ago.";
/** A room's users get at most one message from its staff in this time. */
export const ROOM_USERS_COOLDOWN_SECONDS = 3600;
export const ROOM_RECENTLY_NOTIFIED = "This room's users were notified less than an hour ago.";
export const NOBODY_TO_NOTIFY = "There is nobody to notify.";
export const NOWHERE_TO_NOTIFY = "None of them has a device or browser registered for notifications.";
/** How many friends one user may message in an hour. */
export const CUSTOM_MESSAGES_PER_HOUR = 20;

const mobile = { mobile: true, web: false } as const;

/** An active user's nickname (for a notification's title), or a 404 with `message`. */
export async function activeUserOr404(db: Db, uuid: string, message = USER_NOT_FOUND) {
  const [row] = await db
    .select({ nickname: schema.profiles.nickname, deactivatedAt: schema.users.deactivatedAt })
    .from(schema.users)
    .leftJoin(schema.profiles, eq(schema.profiles.userUuid, schema.users.uuid))
    .where(eq(schema.users.uuid, uuid));
  if (!row || row.deactivatedAt) throw notFound(message);
  return { nickname: row.nickname ?? "Someone" };
}

export const roomOr404 = async (db: Db, uuid: string) => found(await findRoom(db, { uuid }), ROOM_NOT_FOUND);

/** Whether a send can go now: the reach, and the reason why not (waiting time, nobody, nowhere). */
export function sendCheck(reach: Reach, waitingUntil: Date | null, waitingReason: string) {
  const reason = waitingUntil
    ? waitingReason
    : reach.users === 0
      ? NOBODY_TO_NOTIFY
      : reach.devices + reach.webSubscriptions === 0
        ? NOWHERE_TO_NOTIFY
        : null;
  return { ...reach, canSend: reason === null, reason, nextPossibleAt: isoOrNull(waitingUntil) };
}

// ---- mobile notifications --------------------------------------------------------------------------------------

/** To the registered devices with these push tokens; a 404 when none is registered. */
export async function sendToTokens(deps: AppDeps, tokens: string[], notice: PushNotice) {
  checkSize(notice);
  const { report, unknownTokens } = await deliverToTokens(deps, tokens, notice);
  if (report.devices === 0) throw notFound(NO_DEVICE);
  return { ...report, unknownTokens };
}

/** To every device of an active user. */
export async function sendToUser(deps: AppDeps, userUuid: string, notice: PushNotice) {
  checkSize(notice);
  await activeUserOr404(deps.db, userUuid);
  return deliver(deps, usersAudience(deps.db, [userUuid]), notice, mobile);
}

/** A message from a user to other users' devices, leaving out anyone blocked either way. */
export async function sendFromUser(deps: AppDeps, senderUuid: string, userUuids: string[], notice: PushNotice) {
  const withSender = { ...notice, data: { ...notice.data, type: notice.data?.type ?? "customMessage", senderUuid } };
  checkSize(withSender);
  await activeUserOr404(deps.db, senderUuid);
  return deliver(deps, usersAudience(deps.db, userUuids, senderUuid), withSender, mobile);
}

/** To a room's users' devices: those who saved it as a favourite, are not in it now and are not banned from it. */
export async function sendToRoomUsers(deps: AppDeps, roomUuid: string, notice: PushNotice, now: Date) {
  const room = await roomOr404(deps.db, roomUuid);
  const data = { ...notice.data, type: notice.data?.type ?? "room", roomUuid: room.uuid, roomSlug: room.slug };
  const full = checkSize({ ...notice, data });
  return deliver(deps, roomUsersAudience(deps.db, room.uuid, now), full, mobile);
}

// ---- DJ fans ---------------------------------------------------------------------------------------------------

const djKey = (djUuid: string) => `dj:${djUuid}`;

/** Tells a DJ's fans that the DJ started playing, once per set. */
export async function notifyDjFans(
  deps: AppDeps,
  djUuid: string,
  roomUuid: string | undefined,
  now: Date,
  /** The song the DJ started, when the live room tells it: a followed DJ's start is posted to the room's guild. */
  started?: { song: { trackName: string; artistName: string } } | undefined,
) {
  const { db } = deps;
  const dj = await activeUserOr404(db, djUuid, DJ_NOT_FOUND);
  const room: Room | null = roomUuid ? await roomOr404(db, roomUuid) : null;
  // Every start of a DJ with followers, whatever the fans' own quiet time: the room service keeps its own per guild.
  if (started && room?.discordGuildId && (await db.$count(schema.djFans, eq(schema.djFans.djUuid, djUuid))) > 0)
    await announceDjStart(deps, { room, djUuid, song: started.song });
  const nobody = { users: 0, devices: 0, webSubscriptions: 0, sent: 0, queued: 0, failed: 0, removed: 0 };
  if (!(await claimAfterQuiet(db, djKey(djUuid), now, DJ_FANS_QUIET_SECONDS)))
    return { notified: false, reason: FANS_RECENTLY_NOTIFIED, ...nobody };
  const notice = {
    title: `${dj.nickname} is playing`,
    body: room ? `${dj.nickname} is on the decks in ${room.name}. Come and listen!` : `${dj.nickname} started a set.`,
    data: { type: "djPlaying", djUuid, ...(room ? { roomUuid: room.uuid, roomSlug: room.slug } : {}) },
  };
  const report = await deliver(deps, fansAudience(db, djUuid, room?.uuid), notice);
  return { notified: true, reason: null, ...report };
}

/** Whether a DJ's fans can be notified now, and how many would be reached (fans in `roomUuid` are not counted). */
export async function djFansCheck(db: Db, djUuid: string, roomUuid: string | undefined, now: Date) {
  await activeUserOr404(db, djUuid, DJ_NOT_FOUND);
  if (roomUuid) await roomOr404(db, roomUuid);
  const reach = await reachOf(db, fansAudience(db, djUuid, roomUuid));
  const seen = await cooldownOf(db, djKey(djUuid));
  const quietEnds = seen ? new Date(seen.seenAt.getTime() + DJ_FANS_QUIET_SECONDS * 1000) : null;
  const waiting = quietEnds && quietEnds > now ? quietEnds : null;
  return sendCheck(reach, waiting, FANS_RECENTLY_NOTIFIED);
}

// ---- messages from people --------------------------------------------------------------------------------------

/**
 * A message from a user to some of their friends: every one a friend, still reachable (no block, not deactivated),
 * or refused as a whole. Answers the audience and the notice, to be delivered.
 */
export async function friendsMessage(db: Db, senderUuid: string, userUuids: string[], message: string) {
  const [friends] = await db
    .select({ n: count() })
    .from(schema.friends)
    .where(and(eq(schema.friends.userUuid, senderUuid), inArray(schema.friends.friendUuid, userUuids)));
  if ((friends?.n ?? 0) !== userUuids.length) throw forbidden(ONLY_FRIENDS);
  const audience: Audience = usersAudience(db, userUuids, senderUuid);
  const [reachable] = await db.select({ n: count() }).from(schema.users).where(inArray(schema.users.uuid, audience));
  // A block or a deactivation since the friendship leaves someone out: refused as a whole, nothing sent.
  if ((reachable?.n ?? 0) !== userUuids.length) throw forbidden(ONLY_FRIENDS);
  const sender = await activeUserOr404(db, senderUuid);
  const notice = checkSize({
    title: sender.nickname,
    body: message,
    data: { type: "customMessage", senderUuid },
  });
  return { audience, notice };
}

/** The room's staff (owner, co-owners, moderators, and the platform's moderators and above) may message its users. */
export async function roomSender(db: Db, user: Pick<User, "uuid" | "roles">, roomUuid: string, now: Date) {
  const room = await roomOr404(db, roomUuid);
  if ((await roomRank(db, room, user, now)) < ROOM_RANK.moderator) throw forbidden(ROOM_STAFF_ONLY);
  return room;
}

const roomKey = (roomUuid: string) => `room:${roomUuid}`;

/** A message from a room's staff to its users, once an hour; nobody to tell uses up nothing. */
export async function messageFromRoom(deps: AppDeps, senderUuid: string, room: Room, message: string, now: Date) {
  const { db } = deps;
  const notice = checkSize({
    title: room.name,
    body: message,
    data: { type: "roomMessage", roomUuid: room.uuid, roomSlug: room.slug, senderUuid },
  });
  const audience = roomUsersAudience(db, room.uuid, now, senderUuid);
  const reach = await reachOf(db, audience);
  // Nobody to tell: nothing sent, and the hour is not used up.
  if (reach.users === 0) return { ...reach, sent: 0, queued: 0, failed: 0, removed: 0 };
  if (!(await claimAfter(db, roomKey(room.uuid), now, ROOM_USERS_COOLDOWN_SECONDS)))
    throw new HttpError(429, ROOM_RECENTLY_NOTIFIED);
  return deliver(deps, audience, notice);
}

/** Whether a room's users can be messaged now (by `senderUuid`, left out of them), and how many would be reached. */
export async function roomUsersCheck(db: Db, roomUuid: string, senderUuid: string | undefined, now: Date) {
  const reach = await reachOf(db, roomUsersAudience(db, roomUuid, now, senderUuid));
  const last = await cooldownOf(db, roomKey(roomUuid));
  const ends = last ? new Date(last.sentAt.getTime() + ROOM_USERS_COOLDOWN_SECONDS * 1000) : null;
  return sendCheck(reach, ends && ends > now ? ends : null, ROOM_RECENTLY_NOTIFIED);
}
