import { type Db, schema, type Tx } from "@booth/db";
import { and, arrayOverlaps, count, desc, eq, gt, inArray, isNull, notExists, or, type SQL, sql } from "drizzle-orm";
import type { PgColumn } from "drizzle-orm/pg-core";
import { type CrudQuery, crudSelectPage } from "../../lib/crud/index.ts";
import { eitherWay } from "../../lib/either-way.ts";
import { found } from "../../lib/errors.ts";
import { pageWhere } from "../../lib/pages.ts";
import { verifyPassword } from "../../lib/password.ts";
import { isoSql, preparedPerDb, type SqlJson } from "../../lib/sql-json.ts";
import { isUuid, ROOM_NOT_FOUND } from "./access.ts";
import { type RoomRow, roomUsersCount, type roomView, selectRooms } from "./rooms.ts";

/** Rooms anyone may find in lists: public and listed. */
const listed = and(eq(schema.rooms.type, "PUBLIC"), eq(schema.rooms.unlisted, false));
const busiestFirst = [desc(roomUsersCount), desc(schema.rooms.createdAt), schema.rooms.uuid] as const;

async function roomPage(
  db: Db,
  where: SQL | undefined,
  orderBy: readonly (SQL | PgColumn)[],
  limit: number,
  offset: number,
) {
  return pageWhere(
    db,
    schema.rooms,
    where,
    selectRooms(db)
      .where(where)
      .orderBy(...orderBy),
    { limit, offset },
  );
}

/** Public listed rooms, the busiest first. */
export const publicRooms = (db: Db, limit: number, offset: number) => roomPage(db, listed, busiestFirst, limit, offset);

/** `roomView` written by the database (keep the two in step: rooms.test.ts compares them). */
const roomJson = (users: SQL, favorited: SQL) => {
  const r = schema.rooms;
  return sql`json_build_object(
    'uuid', ${r.uuid}, 'slug', ${r.slug}, 'name', ${r.name}, 'description', ${r.description}, 'vibe', ${r.vibe},
    'type', ${r.type}, 'unlisted', ${r.unlisted}, 'djType', ${r.djType}, 'musicProviderKeys', ${r.musicProviderKeys},
    'numberOfDjs', ${r.numberOfDjs}, 'songsPerDj', ${r.songsPerDj}, 'roomSize', ${r.roomSize}, 'entryFee', ${r.entryFee},
    'freeEntries', ${r.freeEntries}, 'isPasswordProtected', ${r.passwordHash} is not null,
    'isGuestPasswordProtected', ${r.guestPasswordHash} is not null, 'promoted', ${r.promoted},
    'promotedProviders', ${r.promotedProviders}, 'pinnedMessages', ${r.pinnedMessages}, 'design', ${r.design},
    'isLive', ${r.isLive}, 'liveAudio', ${r.liveAudio}, 'hasChat', ${r.hasChat},
    'voteSkipThreshold', ${r.voteSkipThreshold}, 'waitlistEnabled', ${r.waitlistEnabled},
    'idleDjMinutes', ${r.idleDjMinutes}, 'roomCrateId', ${r.roomCrateId},
    'posterUrl', ${r.posterUrl}, 'externalUrl', ${r.externalUrl},
    'discordGuildId', ${r.discordGuildId}, 'song', ${r.nowPlaying}, 'numberOfActiveDjs', ${r.numberOfActiveDjs},
    'numberOfUsersInRoom', ${users}, 'ownerUuid', ${r.ownerUuid}, 'favorited', ${favorited},
    'createdAt', ${isoSql(r.createdAt)}, 'updatedAt', ${isoSql(r.updatedAt)})`;
};

const publicRoomsJsonQuery = preparedPerDb((db) => {
  const favorited = sql`exists (select 1 from ${schema.roomFavorites} where ${schema.roomFavorites.userUuid} = ${sql.placeholder("me")}::uuid and ${schema.roomFavorites.roomUuid} = ${schema.rooms.uuid})`;
  // The page is chosen on its sort keys alone; only its rooms are then written as JSON.
  const page = db
    .select({
      uuid: schema.rooms.uuid,
      users: sql<number>`${roomUsersCount}`.as("users"),
      createdAt: schema.rooms.createdAt,
    })
    .from(schema.rooms)
    .where(listed)
    .orderBy(...busiestFirst)
    .limit(sql.placeholder("limit"))
    .offset(sql.placeholder("offset"))
    .as("page");
  const total = db.select({ n: count() }).from(schema.rooms).where(listed);
  return db
    .select({
      body: sql<string>`json_build_object(
        'data', coalesce(json_agg(${roomJson(sql`${page.users}`, favorited)} order by ${page.users} desc, ${page.createdAt} desc, ${page.uuid}), '[]'),
        'total', (${total}))::text`,
    })
    .from(page)
    .innerJoin(schema.rooms, eq(schema.rooms.uuid, page.uuid))
    .prepare("public_rooms_json");
});

/**
 * A page of public listed rooms with their total, as the JSON text of `GET /rooms/public`, in one prepared statement;
 * `favoritesOf` is the caller whose favourites are flagged (none: no flags).
 */
export async function publicRoomsJson(
  db: Db,
  favoritesOf: string | undefined,
  limit: number,
  offset: number,
): Promise<SqlJson<{ data: ReturnType<typeof roomView>[]; total: number }>> {
  const [row] = await publicRoomsJsonQuery(db).execute({ me: favoritesOf ?? null, limit, offset });
  if (!row) throw new Error("an aggregate answered no row");
  return row.body;
}

/** Promoted listed rooms; with providers, those promoted to all or to one of them. */
export const promotedRooms = (db: Db, providers: string[]) =>
  selectRooms(db)
    .where(
      and(
        eq(schema.rooms.promoted, true),
        eq(schema.rooms.unlisted, false),
        providers.length
          ? or(
              eq(sql`cardinality(${schema.rooms.promotedProviders})`, 0),
              arrayOverlaps(schema.rooms.promotedProviders, providers),
            )
          : undefined,
      ),
    )
    .orderBy(...busiestFirst)
    .limit(100);

export async function privateRoomCount(db: Db) {
  const [row] = await db.select({ n: count() }).from(schema.rooms).where(eq(schema.rooms.type, "PRIVATE"));
  return row?.n ?? 0;
}

/** A room with its head count, by uuid, or a 404. */
export async function roomRow(db: Db, uuid: string): Promise<RoomRow> {
  const [row] = await selectRooms(db).where(eq(schema.rooms.uuid, uuid));
  return found(row, ROOM_NOT_FOUND);
}

/** A room with its head count, by slug or uuid (lower case), or a 404. */
export async function roomRowByKey(db: Db, key: string): Promise<RoomRow> {
  const [row] = await selectRooms(db).where(isUuid(key) ? eq(schema.rooms.uuid, key) : eq(schema.rooms.slug, key));
  return found(row, ROOM_NOT_FOUND);
}

export const roomRowsIn = (db: Db, uuids: string[]) => selectRooms(db).where(inArray(schema.rooms.uuid, uuids));

/** Rooms the user owns, co-owns or moderates, the latest changed first. */
export function roomsRunBy(db: Db, userUuid: string, now: Date) {
  const staffed = db
    .select({ roomUuid: schema.roomUserRoles.roomUuid })
    .from(schema.roomUserRoles)
    .where(
      and(
        eq(schema.roomUserRoles.userUuid, userUuid),
        inArray(schema.roomUserRoles.role, ["owner", "coOwner", "moderator"]),
        or(sql`${schema.roomUserRoles.expirationTime} is null`, gt(schema.roomUserRoles.expirationTime, now)),
      ),
    );
  return selectRooms(db)
    .where(or(eq(schema.rooms.ownerUuid, userUuid), inArray(schema.rooms.uuid, staffed)))
    .orderBy(desc(schema.rooms.updatedAt))
    .limit(500);
}

export const roomsOwnedBy = (db: Db, userUuid: string) =>
  selectRooms(db).where(eq(schema.rooms.ownerUuid, userUuid)).orderBy(desc(schema.rooms.createdAt));

/** The rooms named by uuid or slug whose password (if any) the caller gives. */
export async function roomsAdmitting(db: Db, wanted: { room: string; password?: string | undefined }[]) {
  const uuids = wanted.filter((w) => isUuid(w.room)).map((w) => w.room.toLowerCase());
  const slugs = wanted.filter((w) => !isUuid(w.room)).map((w) => w.room.toLowerCase());
  const rows = await selectRooms(db).where(
    or(
      uuids.length ? inArray(schema.rooms.uuid, uuids) : undefined,
      slugs.length ? inArray(schema.rooms.slug, slugs) : undefined,
    ),
  );
  const admitted: RoomRow[] = [];
  for (const row of rows) {
    const ask = wanted.find((w) => w.room.toLowerCase() === row.uuid || w.room.toLowerCase() === row.slug);
    if (!row.passwordHash || (await verifyPassword(ask?.password ?? "", row.passwordHash))) admitted.push(row);
  }
  return admitted;
}

/** A user's favourite rooms, the latest first; listed public ones only unless `withPrivate`. */
export const favoriteRoomsOf = (db: Db, owner: string, withPrivate: boolean) =>
  selectRooms(db)
    .innerJoin(schema.roomFavorites, eq(schema.roomFavorites.roomUuid, schema.rooms.uuid))
    .where(and(eq(schema.roomFavorites.userUuid, owner), withPrivate ? undefined : listed))
    .orderBy(desc(schema.roomFavorites.createdAt))
    .limit(500);

/** Remembers that a user visited a room (now); answers the time. */
export async function recordVisit(db: Db | Tx, userUuid: string, roomUuid: string, now: Date) {
  await db
    .insert(schema.roomVisits)
    .values({ userUuid, roomUuid, visitedAt: now })
    .onConflictDoUpdate({ target: [schema.roomVisits.userUuid, schema.roomVisits.roomUuid], set: { visitedAt: now } });
  return now;
}

/** The rooms a user visited, the latest first. */
export const recentRoomsOf = (db: Db, userUuid: string, limit: number) =>
  selectRooms(db)
    .innerJoin(schema.roomVisits, eq(schema.roomVisits.roomUuid, schema.rooms.uuid))
    .where(eq(schema.roomVisits.userUuid, userUuid))
    .orderBy(desc(schema.roomVisits.visitedAt))
    .limit(limit);

/** Listed rooms visited since `since`, by the most visitors. */
export function mostVisitedSince(db: Db, since: Date, limit: number) {
  const visitors = sql<number>`(select count(*)::int from ${schema.roomVisits} where ${schema.roomVisits.roomUuid} = ${schema.rooms.uuid} and ${schema.roomVisits.visitedAt} > ${since.toISOString()}::timestamptz)`;
  return selectRooms(db)
    .where(and(listed, sql`${visitors} > 0`))
    .orderBy(desc(visitors), desc(schema.rooms.createdAt), schema.rooms.uuid)
    .limit(limit);
}

export const guildRooms = (db: Db, guild: string) =>
  selectRooms(db).where(eq(schema.rooms.discordGuildId, guild)).orderBy(desc(schema.rooms.createdAt));

/** Every room, oldest first. */
export const allRooms = (db: Db, take: number, skip: number) =>
  roomPage(db, undefined, [schema.rooms.createdAt, schema.rooms.uuid], take, skip);

export const ADMIN_ROOM_CRUD = {
  fields: {
    uuid: schema.rooms.uuid,
    slug: schema.rooms.slug,
    name: schema.rooms.name,
    type: schema.rooms.type,
    unlisted: schema.rooms.unlisted,
    djType: schema.rooms.djType,
    numberOfDjs: schema.rooms.numberOfDjs,
    roomSize: schema.rooms.roomSize,
    promoted: schema.rooms.promoted,
    design: schema.rooms.design,
    isLive: schema.rooms.isLive,
    ownerUuid: schema.rooms.ownerUuid,
    discordGuildId: schema.rooms.discordGuildId,
    createdAt: schema.rooms.createdAt,
    updatedAt: schema.rooms.updatedAt,
  },
  primaryKey: "uuid",
  defaultSort: [{ field: "createdAt", order: "DESC" }],
} as const;

/** A page of rooms in the nestjsx/crud query syntax. */
export const adminRoomPage = (db: Db, query: CrudQuery) =>
  crudSelectPage(query, {
    total: db.select({ n: count() }).from(schema.rooms).$dynamic(),
    rows: selectRooms(db),
  });

/** At most this many people in the friends' activity. */
export const MAX_ACTIVITY = 50;

/**
 * Where the caller's friends and the DJs they follow are now: each one present in a listed public room (a private,
 * unlisted or password room is theirs to keep), as the live rooms report presence. Nobody blocked either way, no
 * deactivated account; the latest to arrive first.
 */
export async function friendsActivity(db: Db, userUuid: string) {
  const p = schema.roomPresence;
  const friend = db
    .select({ one: sql`1` })
    .from(schema.friends)
    .where(and(eq(schema.friends.userUuid, userUuid), eq(schema.friends.friendUuid, p.userUuid)));
  const followed = db
    .select({ one: sql`1` })
    .from(schema.djFans)
    .where(and(eq(schema.djFans.fanUuid, userUuid), eq(schema.djFans.djUuid, p.userUuid)));
  const blocked = db
    .select({ one: sql`1` })
    .from(schema.blockedUsers)
    .where(eitherWay(schema.blockedUsers.blockerUuid, schema.blockedUsers.blockedUuid, userUuid, p.userUuid));
  return db
    .select({
      userUuid: p.userUuid,
      roomUuid: p.roomUuid,
      joinedAt: p.joinedAt,
      friend: sql<boolean>`exists (${friend})`,
    })
    .from(p)
    .innerJoin(schema.rooms, eq(schema.rooms.uuid, p.roomUuid))
    .innerJoin(schema.users, eq(schema.users.uuid, p.userUuid))
    .where(
      and(
        listed,
        isNull(schema.rooms.passwordHash),
        isNull(schema.users.deactivatedAt),
        or(sql`exists (${friend})`, sql`exists (${followed})`),
        notExists(blocked),
      ),
    )
    .orderBy(desc(p.joinedAt), p.userUuid)
    .limit(MAX_ACTIVITY);
}
