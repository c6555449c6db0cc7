import { type Db, schema } from "@booth/db";
import { and, desc, eq, inArray, or } from "drizzle-orm";
import { forbidden, found, notFound } from "../../lib/errors.ts";
import { jsonRow } from "../../lib/json-rows.ts";
import { firstRow } from "../../lib/rows.ts";
import { loadRoom, ROOM_NOT_FOUND } from "./access.ts";

/** A user's favourite rooms (room_favorites). */
export type Favorite = typeof schema.roomFavorites.$inferSelect;
export const favoriteView = (f: Favorite) => jsonRow(f);

/** Favourites `userUuid`'s room (which must exist); `created` is false when it was a favourite already. */
export async function addFavorite(db: Db, userUuid: string, roomUuid: string, now: Date) {
  await loadRoom(db, { uuid: roomUuid });
  const [created] = await db
    .insert(schema.roomFavorites)
    .values({ userUuid, roomUuid, createdAt: now })
    .onConflictDoNothing()
    .returning();
  if (created) return { favorite: created, created: true };
  const existing = await firstRow(
    db,
    schema.roomFavorites,
    and(eq(schema.roomFavorites.userUuid, userUuid), eq(schema.roomFavorites.roomUuid, roomUuid)),
  );
  return { favorite: found(existing, ROOM_NOT_FOUND), created: false };
}

/** `owner`'s favourites, the latest first; only listed public rooms unless the viewer is the owner. */
export async function favoritesOf(db: Db, owner: string, viewer: string, rooms: string[], limit: number) {
  const rows = await db
    .select({ favorite: schema.roomFavorites })
    .from(schema.roomFavorites)
    .innerJoin(schema.rooms, eq(schema.rooms.uuid, schema.roomFavorites.roomUuid))
    .where(
      and(
        eq(schema.roomFavorites.userUuid, owner),
        rooms.length ? inArray(schema.roomFavorites.roomUuid, rooms) : undefined,
        owner === viewer ? undefined : and(eq(schema.rooms.type, "PUBLIC"), eq(schema.rooms.unlisted, false)),
      ),
    )
    .orderBy(desc(schema.roomFavorites.createdAt))
    .limit(limit);
  return rows.map((r) => r.favorite);
}

/** Removes a favourite named by its id or by its room's uuid; only its owner may. */
export async function removeFavorite(db: Db, userUuid: string, id: string) {
  const favorite = await firstRow(
    db,
    schema.roomFavorites,
    or(
      eq(schema.roomFavorites.id, id),
      and(eq(schema.roomFavorites.roomUuid, id), eq(schema.roomFavorites.userUuid, userUuid)),
    ),
  );
  if (!favorite) throw notFound("Favourite not found.");
  if (favorite.userUuid !== userUuid) throw forbidden("This favourite is someone else's.");
  await db.delete(schema.roomFavorites).where(eq(schema.roomFavorites.id, favorite.id));
}
