import type { Schema } from "@booth/sdk";
import { foundOr404 } from "./errors.server.ts";
import type { Booth } from "./sdk.server.ts";

/** A room by its slug; a missing one (the edge's 404, or its 400 for a slug of the wrong shape) is a 404 page. */
export function roomBySlug(booth: Booth, slug: string): Promise<Schema<"room", "Room">> {
  return foundOr404("Room", booth.room.GET("/rooms/{slug}", { params: { path: { slug: slug.toLowerCase() } } }));
}

/** The roles a person holds in a room now (expired grants left out); none when the edge cannot say. */
export function currentRoomRoles(booth: Booth, room: { uuid: string }, viewer: { uuid: string }) {
  const now = Date.now();
  return booth.room
    .GET("/roomUserRoles/{room}/{user}", { params: { path: { room: room.uuid, user: viewer.uuid } } })
    .then((r) =>
      (r.data ?? []).filter((g) => !g.expirationTime || Date.parse(g.expirationTime) > now).map((g) => g.role),
    )
    .catch(() => []);
}
