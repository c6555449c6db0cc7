import { schema } from "@booth/db";
import { createRoute, z } from "@hono/zod-openapi";
import { and, count, desc, eq, gte, ne, sql } from "drizzle-orm";
import type { Context } from "hono";
import { rateLimit, requireService, requireUser, STAFF } from "../../lib/auth.ts";
import type { AppEnv } from "../../lib/context.ts";
import { badRequest, forbidden, notFound } from "../../lib/errors.ts";
import { bearer, createRouter, errors, json, jsonBody, noContent, PageQuery, UuidParam } from "../../lib/openapi.ts";
import { verifyPassword } from "../../lib/password.ts";
import { profilesOf } from "../social/relations.ts";
import { PublicProfileSchema } from "../user/schemas.ts";
import { loadRoom, ROOM_RANK, type Room, RoomSlugParam, rankFrom, roomKey, roomRolesOf } from "./access.ts";
import { JOIN_MESSAGES, standingIn } from "./admission.ts";
import { guestJoined, guestLeft } from "./guest-presence.ts";
import { recordVisit } from "./room-lists.routes.ts";
import { RoomSettingsSchema, settingsView, withoutSanctions } from "./rooms.ts";

export const roomLiveRoutes = createRouter();
const tags = ["Live"];

async function checkPassword(c: Context<AppEnv>, room: Room, hash: string, given: string | undefined, who: string) {
  if (!given) throw forbidden(JOIN_MESSAGES.passwordNeeded);
  // Guessing is slow: a few tries per caller and room per ten minutes.
  await rateLimit(c, `room-password:${room.uuid}:${who}`, 10, 600);
  if (!(await verifyPassword(given, hash))) throw forbidden(JOIN_MESSAGES.wrongPassword);
}

roomLiveRoutes.openapi(
  createRoute({
    method: "post",
    path: "/rooms/{slug}/join",
    tags,
    summary:
      "Enter a room: checks bans, kicks, the password (the guest password for guests) and the room's size; answers the room's config (its sanctions to its moderators only)",
    security: bearer,
    request: {
      params: RoomSlugParam,
      ...jsonBody(
        z.object({ password: z.string().max(128).optional(), guestPassword: z.string().max(128).optional() }).strict(),
      ),
    },
    responses: { 200: json(RoomSettingsSchema), ...errors(400, 401, 403, 404, 429) },
  }),
  async (c) => {
    const { db, clock } = c.var.deps;
    const now = clock.now();
    const room = await loadRoom(db, roomKey(c.req.valid("param").slug));
    const body = c.req.valid("json");
    // The live room calls this with its socket's own token, a live one for browsers.
    const standing = await standingIn(c, room, { live: true });
    if (standing.guest) {
      if (room.guestPasswordHash)
        await checkPassword(c, room, room.guestPasswordHash, body.guestPassword, standing.uuid);
      else if (room.passwordHash || room.type === "PRIVATE") throw forbidden(JOIN_MESSAGES.guestsNotAllowed);
      await guestJoined(c.var.deps.cache, room.uuid, standing.uuid);
      return c.json(withoutSanctions(await settingsView(db, room, now)), 200);
    }
    const { user, rank } = standing;
    if (room.passwordHash && rank < ROOM_RANK.coOwner)
      await checkPassword(c, room, room.passwordHash, body.password, user.uuid);
    if (rank < ROOM_RANK.moderator) {
      const [others] = await db
        .select({ n: count() })
        .from(schema.roomPresence)
        .where(and(eq(schema.roomPresence.roomUuid, room.uuid), ne(schema.roomPresence.userUuid, user.uuid)));
      if ((others?.n ?? 0) >= room.roomSize) throw forbidden(JOIN_MESSAGES.full);
    }
    await recordVisit(db, user.uuid, room.uuid, now);
    // Sanctions are the moderators' to see, as GET /roomUserRoles answers them; the live room reads them as a service.
    const settings = await settingsView(db, room, now);
    return c.json(rank >= ROOM_RANK.moderator ? settings : withoutSanctions(settings), 200);
  },
);

// Presence, as the live room reports it -----------------------------------------------------------------------------

const UserParam = z.object({ user: z.uuid().openapi({ param: { name: "user", in: "path" } }) });

roomLiveRoutes.openapi(
  createRoute({
    method: "patch",
    path: "/rooms/user/{user}",
    tags: ["Service"],
    summary: "The live room reports that a user is in it (services)",
    security: bearer,
    request: { params: UserParam, ...jsonBody(z.object({ roomUuid: z.uuid() }).strict()) },
    responses: { ...noContent, ...errors(400, 401, 403, 404) },
  }),
  async (c) => {
    await requireService(c);
    const { db, clock } = c.var.deps;
    const userUuid = c.req.valid("param").user;
    const room = await loadRoom(db, { uuid: c.req.valid("json").roomUuid });
    const [user] = await db
      .select({ uuid: schema.users.uuid })
      .from(schema.users)
      .where(eq(schema.users.uuid, userUuid));
    if (!user) throw notFound("User not found.");
    await db
      .insert(schema.roomPresence)
      .values({ roomUuid: room.uuid, userUuid, joinedAt: clock.now() })
      .onConflictDoNothing();
    return c.body(null, 204);
  },
);

roomLiveRoutes.openapi(
  createRoute({
    method: "delete",
    path: "/rooms/user/{user}",
    tags: ["Service"],
    summary: "The live room reports that a user left it; without roomUuid, they left every room (services)",
    security: bearer,
    request: { params: UserParam, query: z.object({ roomUuid: z.uuid().optional() }) },
    responses: { ...noContent, ...errors(400, 401, 403) },
  }),
  async (c) => {
    await requireService(c);
    const { roomUuid } = c.req.valid("query");
    if (roomUuid) await guestLeft(c.var.deps.cache, roomUuid, c.req.valid("param").user);
    await c.var.deps.db
      .delete(schema.roomPresence)
      .where(
        and(
          eq(schema.roomPresence.userUuid, c.req.valid("param").user),
          roomUuid ? eq(schema.roomPresence.roomUuid, roomUuid) : undefined,
        ),
      );
    return c.body(null, 204);
  },
);

const RoomParam = z.object({
  room: z
    .string()
    .min(1)
    .max(100)
    .openapi({ param: { name: "room", in: "path", description: "the room's uuid or slug" } }),
});

async function presentUuids(c: Context<AppEnv>, room: Room) {
  const rows = await c.var.deps.db
    .select({ userUuid: schema.roomPresence.userUuid })
    .from(schema.roomPresence)
    .where(eq(schema.roomPresence.roomUuid, room.uuid))
    .orderBy(schema.roomPresence.joinedAt)
    .limit(10_000);
  return rows.map((r) => r.userUuid);
}

roomLiveRoutes.openapi(
  createRoute({
    method: "get",
    path: "/rooms/users/{room}",
    tags: ["Rooms"],
    summary: "The profiles of the people in a room (anyone; private rooms: their members only)",
    request: { params: RoomParam },
    responses: { 200: json(z.array(PublicProfileSchema).openapi("RoomUsers")), ...errors(400, 401, 403, 404) },
  }),
  async (c) => {
    const { db } = c.var.deps;
    const room = await loadRoom(db, roomKey(c.req.valid("param").room));
    const uuids = await presentUuids(c, room);
    if (room.type === "PRIVATE" && c.var.auth?.type !== "service") {
      const { user } = await requireUser(c, { types: ["user", "bot"] });
      if (!uuids.includes(user.uuid) && rankFrom(room, user.uuid, user.roles, []) < ROOM_RANK.owner)
        throw forbidden("Only the people in this private room see who is in it.");
    }
    return c.json(await profilesOf(db, uuids), 200);
  },
);

roomLiveRoutes.openapi(
  createRoute({
    method: "get",
    path: "/rooms/users/service/{room}",
    tags: ["Service"],
    summary: "The uuids of the people in a room (services)",
    security: bearer,
    request: { params: RoomParam },
    responses: {
      200: json(z.object({ roomUuid: z.uuid(), userUuids: z.array(z.uuid()) }).openapi("RoomUserUuids")),
      ...errors(400, 401, 403, 404),
    },
  }),
  async (c) => {
    await requireService(c);
    const room = await loadRoom(c.var.deps.db, roomKey(c.req.valid("param").room));
    return c.json({ roomUuid: room.uuid, userUuids: await presentUuids(c, room) }, 200);
  },
);

roomLiveRoutes.openapi(
  createRoute({
    method: "get",
    path: "/rooms/room-state/{id}",
    tags,
    summary:
      "The live state of a room as its clients see it: booth, now playing, votes (anyone for public rooms; private: moderators and up)",
    request: { params: UuidParam },
    responses: {
      200: json(z.object({ roomUuid: z.uuid(), state: z.record(z.string(), z.unknown()) }).openapi("LiveRoomState")),
      ...errors(400, 401, 403, 404, 502, 503),
    },
  }),
  async (c) => {
    const { db, clock, liveRooms } = c.var.deps;
    const room = await loadRoom(db, { uuid: c.req.valid("param").id });
    if (room.type === "PRIVATE" && c.var.auth?.type !== "service") {
      const { user } = await requireUser(c, { types: ["user", "bot"] });
      const rank = rankFrom(room, user.uuid, user.roles, await roomRolesOf(db, room.uuid, user.uuid, clock.now()));
      if (rank < ROOM_RANK.moderator) throw forbidden("Only this room's moderators see its state.");
    }
    const state = await liveRooms.state(room.uuid);
    if (state === null) throw notFound("This room is not live: nobody is in it.");
    return c.json({ roomUuid: room.uuid, state: state as Record<string, unknown> }, 200);
  },
);

// Plays ------------------------------------------------------------------------------------------------------------

const VoteCounts = z
  .object({
    likes: z.number().int().min(0).max(1_000_000),
    dislikes: z.number().int().min(0).max(1_000_000),
    stars: z.number().int().min(0).max(1_000_000),
  })
  .openapi("VoteCounts");
const PlayedSong = z
  .object({
    trackName: z.string().max(500),
    artistName: z.string().max(500),
    duration: z
      .number()
      .min(0)
      .max(24 * 3600),
  })
  .catchall(z.unknown())
  .openapi("PlayedSong");
const PlaySchema = z
  .object({
    id: z.uuid(),
    roomUuid: z.uuid(),
    djUuid: z.uuid().nullable(),
    song: z.record(z.string(), z.unknown()),
    voteCounts: VoteCounts,
    playedAt: z.string(),
  })
  .openapi("RecentSong");
type Play = typeof schema.roomPlays.$inferSelect;
const playView = (p: Play) => ({
  id: p.id,
  roomUuid: p.roomUuid,
  djUuid: p.djUuid,
  song: p.song,
  voteCounts: p.voteCounts,
  playedAt: p.playedAt.toISOString(),
});

roomLiveRoutes.openapi(
  createRoute({
    method: "post",
    path: "/rooms/{slug}/recent-songs",
    tags,
    summary: "Record a song played in the room, with its votes (services: the live room when a song ends)",
    security: bearer,
    request: {
      params: RoomSlugParam,
      ...jsonBody(
        z
          .object({
            song: PlayedSong,
            djUuid: z.uuid().nullable().optional(),
            voteCounts: VoteCounts,
            playedAt: z.iso.datetime({ offset: true }).optional(),
          })
          .strict(),
      ),
    },
    responses: { 201: json(PlaySchema, "Created"), ...errors(400, 401, 403, 404) },
  }),
  async (c) => {
    await requireService(c);
    const { db, clock } = c.var.deps;
    const room = await loadRoom(db, roomKey(c.req.valid("param").slug));
    const body = c.req.valid("json");
    if (JSON.stringify(body.song).length > 20_000) throw badRequest("song: too large to record");
    const [play] = await db
      .insert(schema.roomPlays)
      .values({
        roomUuid: room.uuid,
        djUuid: body.djUuid ?? null,
        song: body.song,
        voteCounts: body.voteCounts,
        durationSeconds: Math.round(body.song.duration),
        playedAt: body.playedAt ? new Date(body.playedAt) : clock.now(),
      })
      .returning();
    if (!play) throw new Error("play insert returned nothing");
    return c.json(playView(play), 201);
  },
);

roomLiveRoutes.openapi(
  createRoute({
    method: "get",
    path: "/rooms/{slug}/recent-songs",
    tags,
    summary: "The songs played in a room, the latest first (anyone)",
    request: { params: RoomSlugParam, query: PageQuery },
    responses: {
      200: json(z.object({ data: z.array(PlaySchema), total: z.number().int() }).openapi("RecentSongPage")),
      ...errors(400, 404),
    },
  }),
  async (c) => {
    const { db } = c.var.deps;
    const room = await loadRoom(db, roomKey(c.req.valid("param").slug));
    const { limit, offset } = c.req.valid("query");
    const where = eq(schema.roomPlays.roomUuid, room.uuid);
    const [rows, [total]] = await Promise.all([
      db
        .select()
        .from(schema.roomPlays)
        .where(where)
        .orderBy(desc(schema.roomPlays.playedAt), desc(schema.roomPlays.id))
        .limit(limit)
        .offset(offset),
      db.select({ n: count() }).from(schema.roomPlays).where(where),
    ]);
    return c.json({ data: rows.map(playView), total: total?.n ?? 0 }, 200);
  },
);

roomLiveRoutes.openapi(
  createRoute({
    method: "get",
    path: "/rooms/room-played-time/{id}",
    tags,
    summary: "How long music has played in a room, in seconds, and how many songs (anyone)",
    request: { params: UuidParam },
    responses: {
      200: json(
        z
          .object({ roomUuid: z.uuid(), playedSeconds: z.number().int(), songs: z.number().int() })
          .openapi("RoomPlayedTime"),
      ),
      ...errors(400, 404),
    },
  }),
  async (c) => {
    const { db } = c.var.deps;
    const room = await loadRoom(db, { uuid: c.req.valid("param").id });
    const [row] = await db
      .select({
        seconds: sql<number>`coalesce(sum(${schema.roomPlays.durationSeconds}), 0)::int`,
        songs: sql<number>`count(*)::int`,
      })
      .from(schema.roomPlays)
      .where(eq(schema.roomPlays.roomUuid, room.uuid));
    return c.json({ roomUuid: room.uuid, playedSeconds: row?.seconds ?? 0, songs: row?.songs ?? 0 }, 200);
  },
);

roomLiveRoutes.openapi(
  createRoute({
    method: "get",
    path: "/info-admin/played-seconds",
    tags: ["Admin"],
    summary: "Seconds of music played across all rooms, optionally since a time (staff)",
    security: bearer,
    request: { query: z.object({ since: z.iso.datetime({ offset: true }).optional() }) },
    responses: {
      200: json(z.object({ playedSeconds: z.number().int(), songs: z.number().int() }).openapi("PlayedSeconds")),
      ...errors(400, 401, 403),
    },
  }),
  async (c) => {
    await requireUser(c, { roles: STAFF });
    const { since } = c.req.valid("query");
    const [row] = await c.var.deps.db
      .select({
        seconds: sql<number>`coalesce(sum(${schema.roomPlays.durationSeconds}), 0)::int`,
        songs: sql<number>`count(*)::int`,
      })
      .from(schema.roomPlays)
      .where(since ? gte(schema.roomPlays.playedAt, new Date(since)) : undefined);
    return c.json({ playedSeconds: row?.seconds ?? 0, songs: row?.songs ?? 0 }, 200);
  },
);
