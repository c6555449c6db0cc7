import { type Db, schema } from "@booth/db";
import { type Brand, brandOffersSong, DEFAULT_BRAND } from "@booth/sdk/brand";
import { eq } from "drizzle-orm";
import { crateSongs } from "../playlist/public.ts";
import type { Room } from "./access.ts";

/**
 * The room crate as the live room plays it (services): up to `limit` songs from position `from` on, wrapping around
 * to the start, the way a DJ's queue answers. The crate must still be a playlist of the room's owner (a room given
 * to another owner, or a crate gone, plays nothing from it); the room never names the crate, the edge reads it from
 * the room. A song the brand does not offer (BOOTH_BRAND, decision 0027) is passed over, as in a DJ's queue.
 */
export async function roomCrateSongs(db: Db, room: Room, from: number, limit: number, brand: Brand = DEFAULT_BRAND) {
  const crateId = room.roomCrateId;
  if (!crateId) return { crateId: null, songs: [] };
  const [crate] = await db
    .select({ userUuid: schema.crates.userUuid, kind: schema.crates.kind })
    .from(schema.crates)
    .where(eq(schema.crates.id, crateId));
  if (!crate || crate.userUuid !== room.ownerUuid || crate.kind !== "default") return { crateId, songs: [] };
  const songs = await crateSongs(db, crateId);
  if (!songs.length) return { crateId, songs: [] };
  const start = Math.max(
    0,
    songs.findIndex((s) => s.position >= from),
  );
  const circle = Array.from({ length: songs.length }, (_, i) => songs[(start + i) % songs.length]!);
  return { crateId, songs: circle.filter((song) => brandOffersSong(brand, song.musicProviders)).slice(0, limit) };
}
