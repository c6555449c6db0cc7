import { schema } from "@booth/db";
import { createRoute, z } from "@hono/zod-openapi";
import { and, eq } from "drizzle-orm";
import { requireService, requireToken } from "../../lib/auth.ts";
import { forbidden, notFound } from "../../lib/errors.ts";
import { bearer, createRouter, errors, json, jsonBody } from "../../lib/openapi.ts";
import {
  addSongs,
  type Crate,
  CrateSongSchema,
  crateSongs,
  SONG_ALREADY_IN_CRATE,
  SongSchema,
  songView,
  specialCrate,
  withLockedCrate,
} from "./crates.ts";

/**
 * What the live room needs of a DJ's crates (services): the next songs of their queue, the queue moving on after a
 * play, a song a DJ names looked up in the catalogue, and a starred song landing in their likes. The queue is a circle: `currentPosition` is the song that plays
 * next, and after it plays the position moves past it, wrapping at the end.
 */
export const queueServiceRoutes = createRouter();
const tags = ["Service"];

const UserParam = z.object({ userUuid: z.uuid().openapi({ param: { name: "userUuid", in: "path" } }) });
const Upcoming = z.object({ songs: z.array(CrateSongSchema) }).openapi("UpcomingQueueSongs");
/** A queue song's shape; the crate entry only when the DJ named one of their own. */
const PlayableSong = SongSchema.extend({
  crateSongUuid: z.uuid().optional(),
  position: z.number().int().optional(),
  status: z.literal("SUCCESS"),
}).openapi("PlayableSong");

export const SONG_NOT_FOUND = "Song not found.";
export const SONG_NOT_READY = "This song cannot be played yet: its upload is still being processed.";

async function userExists(db: Parameters<typeof crateSongs>[0], userUuid: string) {
  const [user] = await db.select({ uuid: schema.users.uuid }).from(schema.users).where(eq(schema.users.uuid, userUuid));
  if (!user) throw notFound("User not found.");
}

/** Up to `limit` songs from the queue's current position on, wrapping around. */
async function upcoming(db: Parameters<typeof crateSongs>[0], crate: Crate, limit: number) {
  const songs = await crateSongs(db, crate.id);
  if (!songs.length) return [];
  const start = Math.min(crate.currentPosition, songs.length - 1);
  return Array.from({ length: Math.min(limit, songs.length) }, (_, i) => songs[(start + i) % songs.length]!);
}

queueServiceRoutes.openapi(
  createRoute({
    method: "get",
    path: "/crate/service/user/{userUuid}/queue/upcoming",
    tags,
    summary: "The next songs of a user's queue, the one playing next first (services: the live room)",
    security: bearer,
    request: {
      params: UserParam,
      query: z.object({ limit: z.coerce.number().int().min(1).max(20).default(2) }),
    },
    responses: { 200: json(Upcoming), ...errors(400, 401, 403, 404) },
  }),
  async (c) => {
    await requireService(c);
    const { db, clock } = c.var.deps;
    const { userUuid } = c.req.valid("param");
    await userExists(db, userUuid);
    const crate = await specialCrate(db, userUuid, "queue", clock.now());
    return c.json({ songs: await upcoming(db, crate, c.req.valid("query").limit) }, 200);
  },
);

queueServiceRoutes.openapi(
  createRoute({
    method: "post",
    path: "/crate/service/user/{userUuid}/queue/advance",
    tags,
    summary:
      "A song of a user's queue was played: the queue moves past it (a song no longer in the queue moves nothing); answers the next songs (services)",
    security: bearer,
    request: {
      params: UserParam,
      ...jsonBody(z.object({ crateSongUuid: z.uuid(), limit: z.number().int().min(1).max(20).default(2) }).strict()),
    },
    responses: { 200: json(Upcoming), ...errors(400, 401, 403, 404) },
  }),
  async (c) => {
    await requireService(c);
    const { db, clock } = c.var.deps;
    const { userUuid } = c.req.valid("param");
    const { crateSongUuid, limit } = c.req.valid("json");
    await userExists(db, userUuid);
    const now = clock.now();
    const crate = await specialCrate(db, userUuid, "queue", now);
    await withLockedCrate(db, crate.id, now, async (tx, count) => {
      const [entry] = await tx.select().from(schema.crateSongs).where(eq(schema.crateSongs.id, crateSongUuid));
      if (!entry || entry.crateId !== crate.id || count === 0) return;
      await tx
        .update(schema.crates)
        .set({ currentPosition: (entry.position + 1) % count })
        .where(eq(schema.crates.id, crate.id));
    });
    const [fresh] = await db.select().from(schema.crates).where(eq(schema.crates.id, crate.id));
    return c.json({ songs: await upcoming(db, fresh ?? crate, limit) }, 200);
  },
);

queueServiceRoutes.openapi(
  createRoute({
    method: "get",
    path: "/crate/service/user/{userUuid}/songs/{songId}",
    tags,
    summary:
      "A song a DJ names, as the room plays it: the catalogue's data and stream addresses; the crate entry kept only when it is one of theirs (service tokens only)",
    security: bearer,
    request: {
      params: UserParam.extend({ songId: z.uuid().openapi({ param: { name: "songId", in: "path" } }) }),
      query: z.object({ crateSongUuid: z.uuid().optional() }),
    },
    responses: { 200: json(PlayableSong), ...errors(400, 401, 403, 404) },
  }),
  async (c) => {
    // What a room broadcasts to every listener comes from here: no admin or user may stand in for the room.
    if (requireToken(c).type !== "service") throw forbidden();
    const { db } = c.var.deps;
    const { userUuid, songId } = c.req.valid("param");
    const { crateSongUuid } = c.req.valid("query");
    await userExists(db, userUuid);
    const [row] = await db
      .select({ song: schema.songs, album: schema.albums.title, upload: schema.songUploads })
      .from(schema.songs)
      .leftJoin(schema.albums, eq(schema.albums.id, schema.songs.albumId))
      .leftJoin(schema.songUploads, eq(schema.songUploads.songId, schema.songs.id))
      .where(eq(schema.songs.id, songId))
      .limit(1);
    if (!row) throw notFound(SONG_NOT_FOUND);
    // An upload joins the catalogue once verified, before its HLS exists: until then nobody can hear it, and only
    // its owner learns that it exists.
    const { upload } = row;
    if (upload && !(upload.status === "VERIFIED" && upload.transcodingStatus === "TRANSCODING_SUCCEED"))
      throw notFound(upload.ownerUuid === userUuid ? SONG_NOT_READY : SONG_NOT_FOUND);
    const [entry] = crateSongUuid
      ? await db
          .select({ id: schema.crateSongs.id, position: schema.crateSongs.position })
          .from(schema.crateSongs)
          .innerJoin(schema.crates, eq(schema.crates.id, schema.crateSongs.crateId))
          .where(
            and(
              eq(schema.crateSongs.id, crateSongUuid),
              eq(schema.crateSongs.songId, songId),
              eq(schema.crates.userUuid, userUuid),
            ),
          )
      : [];
    return c.json(
      {
        ...songView(row.song, row.album),
        ...(entry ? { crateSongUuid: entry.id, position: entry.position } : {}),
        status: "SUCCESS" as const,
      },
      200,
    );
  },
);

queueServiceRoutes.openapi(
  createRoute({
    method: "post",
    path: "/crate/service/user/{userUuid}/likes/songs",
    tags,
    summary:
      "Add a song to a user's likes crate (services: the live room when they star a song); a song already there answers 200",
    security: bearer,
    request: { params: UserParam, ...jsonBody(z.object({ songId: z.uuid() }).strict()) },
    responses: {
      200: json(z.object({ added: z.literal(false), message: z.string() }).openapi("AlreadyLiked")),
      201: json(z.object({ added: z.literal(true), song: CrateSongSchema }).openapi("Liked"), "Created"),
      ...errors(400, 401, 403, 404),
    },
  }),
  async (c) => {
    await requireService(c);
    const { db, clock } = c.var.deps;
    const { userUuid } = c.req.valid("param");
    await userExists(db, userUuid);
    const now = clock.now();
    const crate = await specialCrate(db, userUuid, "likes", now);
    try {
      const [row] = await addSongs(db, crate, [c.req.valid("json").songId], undefined, now);
      const song = (await crateSongs(db, crate.id)).find((s) => s.crateSongUuid === row?.id);
      if (!song) throw new Error("liked song missing after insert");
      return c.json({ added: true as const, song }, 201);
    } catch (err) {
      if ((err as { status?: number }).status === 409)
        return c.json({ added: false as const, message: SONG_ALREADY_IN_CRATE }, 200);
      throw err;
    }
  },
);
