import { type Db, schema, type Tx } from "@booth/db";
import { count, eq, sql } from "drizzle-orm";
import type { AppDeps } from "../../deps.ts";
import { hasAnyRole, STAFF, type User } from "../../lib/auth.ts";
import { isUniqueViolation, uniqueOr } from "../../lib/db-errors.ts";
import { errorMessage } from "../../lib/error-codes.ts";
import { badRequest, forbidden, found, HttpError } from "../../lib/errors.ts";
import { imageUrl, MAX_IMAGE_BYTES, sniffImage } from "../../lib/images.ts";
import { returnedRow } from "../../lib/rows.ts";
import { addRoomPoster, removeRoomPoster } from "../user/public.ts";
import { ROOM_NOT_FOUND, type Room } from "./access.ts";
import { freeSlug, type RoomSettingsInput, settingsColumns, settingsView, slugify } from "./rooms.ts";

export const MAX_OWNED_ROOMS = 25;
export const TOO_MANY_ROOMS = errorMessage("TOO_MANY_ROOMS");
export const SLUG_TAKEN = errorMessage("ROOM_SLUG_TAKEN");

/** The columns a change sets. */
export type RoomChanges = Partial<typeof schema.rooms.$inferInsert>;

/** Saves a change to a room and tells the live room its new settings; answers them (sanctions included). */
export async function saveRoomChanges(deps: Pick<AppDeps, "db" | "clock" | "liveRooms">, room: Room, set: RoomChanges) {
  const { db, clock, liveRooms } = deps;
  const now = clock.now();
  const [updated] = await uniqueOr(
    () =>
      db
        .update(schema.rooms)
        .set({ ...set, updatedAt: now })
        .where(eq(schema.rooms.uuid, room.uuid))
        .returning(),
    () => badRequest(SLUG_TAKEN),
  );
  const settings = await settingsView(db, found(updated, ROOM_NOT_FOUND), now);
  await liveRooms.notify(room.uuid, { type: "updateRoomSettings", settings });
  return settings;
}

/** Refuses (403) a user who owns as many rooms as one may, staff excepted. */
export async function checkRoomQuota(db: Db, user: User) {
  const [owned] = await db.select({ n: count() }).from(schema.rooms).where(eq(schema.rooms.ownerUuid, user.uuid));
  if ((owned?.n ?? 0) >= MAX_OWNED_ROOMS && !hasAnyRole(user.roles, STAFF)) throw forbidden(TOO_MANY_ROOMS);
}

/** Creates a room the user owns; a slug is made from the name when none is given. */
export async function createRoom(
  db: Db,
  user: User,
  input: RoomSettingsInput & { name: string },
  now: Date,
): Promise<Room> {
  await checkRoomQuota(db, user);
  const set = await settingsColumns(db, { ...input, slug: undefined }, { ownerUuid: user.uuid });
  // A concurrent create may take the same slug between the check and the insert: try the next free one.
  for (let attempt = 0; attempt < 5; attempt++) {
    const slug = input.slug ?? (await freeSlug(db, slugify(input.name)));
    if (input.slug && (await freeSlug(db, input.slug)) !== input.slug) throw badRequest(SLUG_TAKEN);
    try {
      return returnedRow(
        "room insert",
        db
          .insert(schema.rooms)
          .values({ ...set, name: input.name, slug, ownerUuid: user.uuid, createdAt: now, updatedAt: now })
          .returning(),
      );
    } catch (err) {
      if (!isUniqueViolation(err)) throw err;
      if (input.slug) throw badRequest(SLUG_TAKEN);
    }
  }
  throw new HttpError(409, "Could not find a free slug for this room; give one.");
}

/** Creates a room for a Discord guild's activity, owned by the user. */
export async function createGuildRoom(db: Db, user: User, guild: string, name: string, now: Date): Promise<Room> {
  await checkRoomQuota(db, user);
  return returnedRow(
    "room insert",
    db
      .insert(schema.rooms)
      .values({
        name,
        slug: await freeSlug(db, slugify(name)),
        discordGuildId: guild,
        ownerUuid: user.uuid,
        createdAt: now,
        updatedAt: now,
      })
      .returning(),
  );
}

export async function deleteRoom(db: Db, room: Room) {
  await db.delete(schema.rooms).where(eq(schema.rooms.uuid, room.uuid));
}

/** What the live room reports (a service): saved without telling it back. Answers the settings. */
export async function reportLiveState(
  db: Db,
  room: Room,
  report: {
    isLive?: boolean | undefined;
    nowPlaying?: Record<string, unknown> | null | undefined;
    numberOfActiveDjs?: number | undefined;
    messagesReceived?: number | undefined;
  },
  now: Date,
) {
  if (JSON.stringify(report.nowPlaying ?? null).length > 20_000) throw badRequest("nowPlaying is too large.");
  const { messagesReceived, ...state } = report;
  const [updated] = await db
    .update(schema.rooms)
    .set({
      ...state,
      // A running total: each report adds what the room received since its last one.
      ...(messagesReceived ? { messagesReceived: sql`${schema.rooms.messagesReceived} + ${messagesReceived}` } : {}),
      updatedAt: now,
    })
    .where(eq(schema.rooms.uuid, room.uuid))
    .returning();
  return settingsView(db, updated ?? room, now);
}

/** The new list of pinned messages: messages already pinned keep their author and time. */
export function pinnedMessages(room: Room, messages: string[], userUuid: string, now: Date) {
  const at = now.toISOString();
  const kept = new Map(room.pinnedMessages.map((m) => [m.message, m]));
  return messages.map((message) => kept.get(message) ?? { id: crypto.randomUUID(), message, userUuid, createdAt: at });
}

/** Stores an uploaded poster (checked: an image, at most 5 MB) in place of the room's; answers its address. */
export async function storePoster(
  deps: Pick<AppDeps, "db" | "storage">,
  room: Room,
  userUuid: string,
  file: unknown,
  now: Date,
) {
  const { db, storage } = deps;
  if (!(file instanceof File)) throw badRequest(["file: an image file is required"]);
  if (file.size > MAX_IMAGE_BYTES) throw new HttpError(413, errorMessage("IMAGE_TOO_LARGE"));
  const bytes = new Uint8Array(await file.arrayBuffer());
  const contentType = sniffImage(bytes);
  if (!contentType) throw new HttpError(415, errorMessage("IMAGE_UNSUPPORTED"));
  const id = crypto.randomUUID();
  const storageKey = `room-posters/${room.uuid}/${id}`;
  await storage.put(storageKey, bytes, contentType);
  await removePoster(deps, room);
  await addRoomPoster(db, { id, userUuid, storageKey, contentType, size: bytes.length, createdAt: now });
  return imageUrl(id);
}

/** Deletes the room's current poster image, if it is one of ours. */
/** The rooms showing the image at `url` as their poster stop showing it (the image was deleted), in the caller's `tx`. */
export async function forgetPoster(tx: Tx, url: string, now: Date) {
  await tx.update(schema.rooms).set({ posterUrl: null, updatedAt: now }).where(eq(schema.rooms.posterUrl, url));
}

export async function removePoster(deps: Pick<AppDeps, "db" | "storage">, room: Room) {
  const { db, storage } = deps;
  const id = room.posterUrl?.match(/\/users\/images\/([0-9a-f-]{36})$/)?.[1];
  if (!id) return;
  const image = await removeRoomPoster(db, id);
  if (image) await storage.delete(image.storageKey);
}

/** Forgets the room's chat conversation. */
export async function clearConversation(db: Db, room: Room, now: Date) {
  await db.update(schema.rooms).set({ conversationId: null, updatedAt: now }).where(eq(schema.rooms.uuid, room.uuid));
}
