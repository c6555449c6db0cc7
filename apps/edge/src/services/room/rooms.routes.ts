import { schema } from "@booth/db";
import { createRoute, z } from "@hono/zod-openapi";
import { and, count, eq } from "drizzle-orm";
import type { Context } from "hono";
import { ADMINS, hasAnyRole, rateLimit, requireUser, STAFF } from "../../lib/auth.ts";
import type { AppEnv } from "../../lib/context.ts";
import { isUniqueViolation } from "../../lib/db-errors.ts";
import { badRequest, forbidden, HttpError, notFound } from "../../lib/errors.ts";
import { imageUrl, MAX_IMAGE_BYTES, sniffImage } from "../../lib/images.ts";
import { bearer, createRouter, errors, json, jsonBody, noContent, UuidParam } from "../../lib/openapi.ts";
import { hashPassword } from "../../lib/password.ts";
import { loadRoom, ROOM_RANK, type Room, requireRoomRank, roomRank } from "./access.ts";
import {
  freeSlug,
  MAX_DJ_SEATS,
  MAX_PINNED_MESSAGES,
  PasswordInput,
  RoomSchema,
  RoomSettingsInput,
  roomView,
  settingsColumns,
  settingsView,
  slugify,
  withoutSanctions,
} from "./rooms.ts";

export const roomsRoutes = createRouter();
const tags = ["Rooms"];

export const MAX_OWNED_ROOMS = 25;
export const TOO_MANY_ROOMS = `You can own at most ${MAX_OWNED_ROOMS} rooms.`;

/** Saves a change and tells the live room the new settings. */
async function updateRoom(
  c: Context<AppEnv>,
  room: Room,
  set: Partial<typeof schema.rooms.$inferInsert>,
  // Every caller but a promoter (the promoteRoom capability) is among the room's moderators.
  answer: { sanctions: boolean } = { sanctions: true },
) {
  const { db, clock, liveRooms } = c.var.deps;
  const now = clock.now();
  let updated: Room | undefined;
  try {
    [updated] = await db
      .update(schema.rooms)
      .set({ ...set, updatedAt: now })
      .where(eq(schema.rooms.uuid, room.uuid))
      .returning();
  } catch (err) {
    if (isUniqueViolation(err)) throw badRequest("This room slug is already taken.");
    throw err;
  }
  if (!updated) throw notFound("Room not found.");
  const settings = await settingsView(db, updated, now);
  await liveRooms.notify(room.uuid, { type: "updateRoomSettings", settings });
  return c.json(answer.sanctions ? settings : withoutSanctions(settings), 200);
}

const RoomIdParam = UuidParam;
const SettingsResponse = json(RoomSchema.extend({ roomRoles: z.array(z.any()) }).openapi("RoomWithRoles"));

roomsRoutes.openapi(
  createRoute({
    method: "post",
    path: "/rooms/infrastructure",
    tags,
    summary: "Create a room; the caller owns it (a slug is made from the name when none is given)",
    security: bearer,
    request: jsonBody(RoomSettingsInput.required({ name: true })),
    responses: { 201: json(RoomSchema, "Created"), ...errors(400, 401, 403, 429) },
  }),
  async (c) => {
    const { user } = await requireUser(c);
    await rateLimit(c, `rooms:create:${user.uuid}`, 20, 3600);
    const input = c.req.valid("json");
    const { db, clock } = c.var.deps;
    const [owned] = await db.select({ n: count() }).from(schema.rooms).where(eq(schema.rooms.ownerUuid, user.uuid));
    if ((owned?.n ?? 0) >= MAX_OWNED_ROOMS && !hasAnyRole(user.roles, STAFF)) throw forbidden(TOO_MANY_ROOMS);
    const set = await settingsColumns(db, { ...input, slug: undefined });
    const now = clock.now();
    // A concurrent create may take the same slug between the check and the insert: try the next free one.
    for (let attempt = 0; attempt < 5; attempt++) {
      const slug = input.slug ?? (await freeSlug(db, slugify(input.name)));
      if (input.slug && (await freeSlug(db, input.slug)) !== input.slug)
        throw badRequest("This room slug is already taken.");
      try {
        const [room] = await db
          .insert(schema.rooms)
          .values({ ...set, name: input.name, slug, ownerUuid: user.uuid, createdAt: now, updatedAt: now })
          .returning();
        if (!room) throw new Error("room insert returned nothing");
        return c.json(roomView(room), 201);
      } catch (err) {
        if (!isUniqueViolation(err)) throw err;
        if (input.slug) throw badRequest("This room slug is already taken.");
      }
    }
    throw new HttpError(409, "Could not find a free slug for this room; give one.");
  },
);

roomsRoutes.openapi(
  createRoute({
    method: "patch",
    path: "/rooms/{id}/infrastructure",
    tags,
    summary: "Change any of a room's settings (its owner; staff)",
    security: bearer,
    request: { params: RoomIdParam, ...jsonBody(RoomSettingsInput) },
    responses: { 200: SettingsResponse, ...errors(400, 401, 403, 404) },
  }),
  async (c) => {
    const { user } = await requireUser(c);
    const { db, clock } = c.var.deps;
    const room = await loadRoom(db, { uuid: c.req.valid("param").id });
    await requireRoomRank(db, room, user, clock.now(), ROOM_RANK.owner);
    return updateRoom(c, room, await settingsColumns(db, c.req.valid("json"), room.uuid));
  },
);

/** What co-owners may change: how the room looks and plays, not who may enter. */
const CoOwnerSettings = RoomSettingsInput.pick({
  name: true,
  description: true,
  vibe: true,
  design: true,
  hasChat: true,
  musicProviderKeys: true,
  djType: true,
  songsPerDj: true,
  voteSkipThreshold: true,
}).strict();

roomsRoutes.openapi(
  createRoute({
    method: "patch",
    path: "/rooms/{id}",
    tags,
    summary: "Change how a room looks and plays: name, description, vibe, design, chat, DJ rules (co-owners and up)",
    security: bearer,
    request: { params: RoomIdParam, ...jsonBody(CoOwnerSettings) },
    responses: { 200: SettingsResponse, ...errors(400, 401, 403, 404) },
  }),
  async (c) => {
    const { user } = await requireUser(c);
    const { db, clock } = c.var.deps;
    const room = await loadRoom(db, { uuid: c.req.valid("param").id });
    await requireRoomRank(db, room, user, clock.now(), ROOM_RANK.coOwner);
    return updateRoom(c, room, await settingsColumns(db, c.req.valid("json"), room.uuid));
  },
);

roomsRoutes.openapi(
  createRoute({
    method: "delete",
    path: "/rooms/{id}/infrastructure",
    tags,
    summary: "Delete a room (its owner; admins): the live room is reset and everyone leaves",
    security: bearer,
    request: { params: RoomIdParam },
    responses: { ...noContent, ...errors(400, 401, 403, 404) },
  }),
  async (c) => {
    const { user } = await requireUser(c);
    const { db, liveRooms } = c.var.deps;
    const room = await loadRoom(db, { uuid: c.req.valid("param").id });
    if (room.ownerUuid !== user.uuid && !hasAnyRole(user.roles, ADMINS))
      throw forbidden("Only the room's owner may delete it.");
    await db.delete(schema.rooms).where(eq(schema.rooms.uuid, room.uuid));
    await liveRooms.notify(room.uuid, { type: "resetRoom" });
    return c.body(null, 204);
  },
);

/** One-field changes, each with its own route in the spec and the rank it needs. */
function fieldRoute<T extends z.ZodRawShape>(
  path: string,
  summary: string,
  body: z.ZodObject<T>,
  rank: number,
  columns: (input: z.infer<z.ZodObject<T>>) => Partial<typeof schema.rooms.$inferInsert>,
) {
  roomsRoutes.openapi(
    createRoute({
      method: "patch",
      path,
      tags,
      summary,
      security: bearer,
      request: { params: RoomIdParam, ...jsonBody(body.strict()) },
      responses: { 200: SettingsResponse, ...errors(400, 401, 403, 404) },
    }),
    // biome-ignore lint/suspicious/noExplicitAny: the body type is generic over the route.
    async (c: any) => {
      const { user } = await requireUser(c);
      const { db, clock } = c.var.deps;
      const room = await loadRoom(db, { uuid: c.req.valid("param").id });
      await requireRoomRank(db, room, user, clock.now(), rank);
      return updateRoom(c, room, columns(c.req.valid("json")));
    },
  );
}

fieldRoute(
  "/rooms/dj-type/{id}/infrastructure",
  "Who may DJ: EVERYONE, INVITE_ONLY (dj role), VERIFIED_ONLY, PRO_PLAN_OWNER (co-owners and up)",
  z.object({ djType: RoomSettingsInput.shape.djType.unwrap() }),
  ROOM_RANK.coOwner,
  (b) => ({ djType: b.djType }),
);
fieldRoute(
  "/rooms/dj-seats/{id}/infrastructure",
  `How many DJ seats the booth has, 1 to ${MAX_DJ_SEATS} (co-owners and up)`,
  z.object({ numberOfDjs: z.number().int().min(1).max(MAX_DJ_SEATS) }),
  ROOM_RANK.coOwner,
  (b) => ({ numberOfDjs: b.numberOfDjs }),
);
fieldRoute(
  "/rooms/live-audio/{id}/infrastructure",
  "Turn the room's live audio (a DJ broadcasting their own stream) on or off (its owner)",
  z.object({ liveAudio: z.boolean() }),
  ROOM_RANK.owner,
  (b) => ({ liveAudio: b.liveAudio }),
);

roomsRoutes.openapi(
  createRoute({
    method: "patch",
    path: "/rooms/live-state/{id}/infrastructure",
    tags,
    summary:
      "Mark a room live or not (co-owners and up); the live room itself (service) also reports what plays and how many DJs sit",
    security: bearer,
    request: {
      params: RoomIdParam,
      ...jsonBody(
        z
          .object({
            isLive: z.boolean().optional(),
            nowPlaying: z.record(z.string(), z.unknown()).nullable().optional(),
            numberOfActiveDjs: z.number().int().min(0).max(MAX_DJ_SEATS).optional(),
          })
          .strict(),
      ),
    },
    responses: { 200: SettingsResponse, ...errors(400, 401, 403, 404) },
  }),
  async (c) => {
    const body = c.req.valid("json");
    const { db, clock } = c.var.deps;
    const isService = c.var.auth?.type === "service";
    if (!isService) {
      const { user } = await requireUser(c);
      if (body.nowPlaying !== undefined || body.numberOfActiveDjs !== undefined)
        throw forbidden("Only the live room reports what is playing.");
      const room = await loadRoom(db, { uuid: c.req.valid("param").id });
      await requireRoomRank(db, room, user, clock.now(), ROOM_RANK.coOwner);
      return updateRoom(c, room, { isLive: body.isLive });
    }
    const room = await loadRoom(db, { uuid: c.req.valid("param").id });
    if (JSON.stringify(body.nowPlaying ?? null).length > 20_000) throw badRequest("nowPlaying is too large.");
    const [updated] = await db
      .update(schema.rooms)
      .set({ ...body, updatedAt: clock.now() })
      .where(eq(schema.rooms.uuid, room.uuid))
      .returning();
    // The live room told us; it needs no echo.
    return c.json(await settingsView(db, updated ?? room, clock.now()), 200);
  },
);

roomsRoutes.openapi(
  createRoute({
    method: "patch",
    path: "/rooms/promote/{id}/infrastructure",
    tags,
    summary: "Promote a room, optionally only to listeners of some music providers (promoteRoom capability; staff)",
    security: bearer,
    request: {
      params: RoomIdParam,
      ...jsonBody(
        z
          .object({ promoted: z.boolean(), providers: z.array(z.string().trim().min(1).max(40)).max(20).optional() })
          .strict(),
      ),
    },
    responses: { 200: SettingsResponse, ...errors(400, 401, 403, 404) },
  }),
  async (c) => {
    const { user } = await requireUser(c);
    if (!user.capabilities.includes("promoteRoom") && !hasAnyRole(user.roles, STAFF))
      throw forbidden("Promoting rooms needs the promoteRoom capability.");
    const body = c.req.valid("json");
    const room = await loadRoom(c.var.deps.db, { uuid: c.req.valid("param").id });
    return updateRoom(
      c,
      room,
      { promoted: body.promoted, promotedProviders: body.promoted ? (body.providers ?? []) : [] },
      { sanctions: (await roomRank(c.var.deps.db, room, user, c.var.deps.clock.now())) >= ROOM_RANK.moderator },
    );
  },
);

roomsRoutes.openapi(
  createRoute({
    method: "post",
    path: "/rooms/{id}/pinned-messages",
    tags,
    summary: `Set the room's pinned messages, at most ${MAX_PINNED_MESSAGES}; an empty list unpins all (moderators and up)`,
    security: bearer,
    request: {
      params: RoomIdParam,
      ...jsonBody(
        z.object({ pinnedMessages: z.array(z.string().trim().min(1).max(500)).max(MAX_PINNED_MESSAGES) }).strict(),
      ),
    },
    responses: { 200: SettingsResponse, ...errors(400, 401, 403, 404) },
  }),
  async (c) => {
    const { user } = await requireUser(c);
    const { db, clock } = c.var.deps;
    const room = await loadRoom(db, { uuid: c.req.valid("param").id });
    await requireRoomRank(db, room, user, clock.now(), ROOM_RANK.moderator);
    const now = clock.now().toISOString();
    // Messages already pinned keep their author and time.
    const kept = new Map(room.pinnedMessages.map((m) => [m.message, m]));
    const pinnedMessages = c.req
      .valid("json")
      .pinnedMessages.map(
        (message) => kept.get(message) ?? { id: crypto.randomUUID(), message, userUuid: user.uuid, createdAt: now },
      );
    return updateRoom(c, room, { pinnedMessages });
  },
);

roomsRoutes.openapi(
  createRoute({
    method: "post",
    path: "/rooms/{id}/externalUrl",
    tags,
    summary: "Link the room to a page elsewhere (http or https), or unlink it with null (co-owners and up)",
    security: bearer,
    request: {
      params: RoomIdParam,
      ...jsonBody(
        z
          .object({
            externalUrl: z
              .url({ protocol: /^https?$/ })
              .max(2000)
              .nullable(),
          })
          .strict(),
      ),
    },
    responses: { 200: SettingsResponse, ...errors(400, 401, 403, 404) },
  }),
  async (c) => {
    const { user } = await requireUser(c);
    const { db, clock } = c.var.deps;
    const room = await loadRoom(db, { uuid: c.req.valid("param").id });
    await requireRoomRank(db, room, user, clock.now(), ROOM_RANK.coOwner);
    return updateRoom(c, room, { externalUrl: c.req.valid("json").externalUrl });
  },
);

roomsRoutes.openapi(
  createRoute({
    method: "post",
    path: "/rooms/{id}/poster",
    tags,
    summary: "Upload the room's poster (png, jpeg, webp or gif, at most 5 MB; co-owners and up)",
    security: bearer,
    request: {
      params: RoomIdParam,
      body: {
        required: true,
        content: {
          "multipart/form-data": { schema: z.object({ file: z.any().openapi({ type: "string", format: "binary" }) }) },
        },
      },
    },
    responses: { 200: SettingsResponse, ...errors(400, 401, 403, 404, 413, 415) },
  }),
  async (c) => {
    const { user } = await requireUser(c);
    const { db, clock, storage } = c.var.deps;
    const room = await loadRoom(db, { uuid: c.req.valid("param").id });
    await requireRoomRank(db, room, user, clock.now(), ROOM_RANK.coOwner);
    const file = c.req.valid("form").file as unknown;
    if (!(file instanceof File)) throw badRequest(["file: an image file is required"]);
    if (file.size > MAX_IMAGE_BYTES) throw new HttpError(413, "The image is larger than 5 MB.");
    const bytes = new Uint8Array(await file.arrayBuffer());
    const contentType = sniffImage(bytes);
    if (!contentType) throw new HttpError(415, "The file is not a png, jpeg, webp or gif image.");
    const id = crypto.randomUUID();
    const storageKey = `room-posters/${room.uuid}/${id}`;
    await storage.put(storageKey, bytes, contentType);
    await removePoster(c, room);
    await db.insert(schema.images).values({
      id,
      userUuid: user.uuid,
      type: "roomPoster",
      storageKey,
      contentType,
      size: bytes.length,
      createdAt: clock.now(),
    });
    return updateRoom(c, room, { posterUrl: imageUrl(id) });
  },
);

/** Deletes the room's current poster image, if it is one of ours. */
async function removePoster(c: Context<AppEnv>, room: Room) {
  const { db, storage } = c.var.deps;
  const id = room.posterUrl?.match(/\/users\/images\/([0-9a-f-]{36})$/)?.[1];
  if (!id) return;
  const [image] = await db
    .delete(schema.images)
    .where(and(eq(schema.images.id, id), eq(schema.images.type, "roomPoster")))
    .returning();
  if (image) await storage.delete(image.storageKey);
}

roomsRoutes.openapi(
  createRoute({
    method: "delete",
    path: "/rooms/{id}/poster",
    tags,
    summary: "Remove the room's poster (co-owners and up)",
    security: bearer,
    request: { params: RoomIdParam },
    responses: { 200: SettingsResponse, ...errors(400, 401, 403, 404) },
  }),
  async (c) => {
    const { user } = await requireUser(c);
    const { db, clock } = c.var.deps;
    const room = await loadRoom(db, { uuid: c.req.valid("param").id });
    await requireRoomRank(db, room, user, clock.now(), ROOM_RANK.coOwner);
    if (!room.posterUrl) throw notFound("This room has no poster.");
    await removePoster(c, room);
    return updateRoom(c, room, { posterUrl: null });
  },
);

roomsRoutes.openapi(
  createRoute({
    method: "delete",
    path: "/rooms/conversation/{id}",
    tags,
    summary: "Clear the room's chat: the live room forgets its messages (moderators and up)",
    security: bearer,
    request: { params: RoomIdParam },
    responses: { ...noContent, ...errors(400, 401, 403, 404) },
  }),
  async (c) => {
    const { user } = await requireUser(c);
    const { db, clock, liveRooms } = c.var.deps;
    const room = await loadRoom(db, { uuid: c.req.valid("param").id });
    await requireRoomRank(db, room, user, clock.now(), ROOM_RANK.moderator);
    await db
      .update(schema.rooms)
      .set({ conversationId: null, updatedAt: clock.now() })
      .where(eq(schema.rooms.uuid, room.uuid));
    await liveRooms.notify(room.uuid, { type: "clearChat" });
    return c.body(null, 204);
  },
);

roomsRoutes.openapi(
  createRoute({
    method: "post",
    path: "/rooms/reset/{id}/infrastructure",
    tags,
    summary:
      "Reset the live room (its owner; global moderators and up): the booth, votes and chat start over and everyone reconnects",
    security: bearer,
    request: { params: RoomIdParam },
    responses: { ...noContent, ...errors(400, 401, 403, 404) },
  }),
  async (c) => {
    const { user } = await requireUser(c);
    const { db, clock, liveRooms } = c.var.deps;
    const room = await loadRoom(db, { uuid: c.req.valid("param").id });
    await requireRoomRank(db, room, user, clock.now(), ROOM_RANK.owner, "Only the room's owner may reset it.");
    await liveRooms.notify(room.uuid, { type: "resetRoom" });
    return c.body(null, 204);
  },
);

// Admin -------------------------------------------------------------------------------------------------------------

roomsRoutes.openapi(
  createRoute({
    method: "patch",
    path: "/rooms/admin/{id}",
    tags: ["Admin"],
    summary: "Change any room setting, promotion or owner (staff)",
    security: bearer,
    request: {
      params: RoomIdParam,
      ...jsonBody(
        RoomSettingsInput.extend({
          promoted: z.boolean(),
          ownerUuid: z.uuid(),
        })
          .partial()
          .strict(),
      ),
    },
    responses: { 200: SettingsResponse, ...errors(400, 401, 403, 404) },
  }),
  async (c) => {
    await requireUser(c, { roles: STAFF });
    const { db } = c.var.deps;
    const room = await loadRoom(db, { uuid: c.req.valid("param").id });
    const { promoted, ownerUuid, ...settings } = c.req.valid("json");
    const set = await settingsColumns(db, settings, room.uuid);
    if (promoted !== undefined) set.promoted = promoted;
    if (ownerUuid !== undefined) {
      const [owner] = await db.select().from(schema.users).where(eq(schema.users.uuid, ownerUuid));
      if (!owner) throw notFound("User not found.");
      set.ownerUuid = ownerUuid;
    }
    return updateRoom(c, room, set);
  },
);

const GuestPasswordBody = z.object({ roomUuid: z.uuid(), guestPassword: PasswordInput.unwrap() }).strict();

roomsRoutes.openapi(
  createRoute({
    method: "post",
    path: "/rooms/admin/guest-password",
    tags: ["Admin"],
    summary: "Set a room's guest password: guests (no account) enter with it (admins)",
    security: bearer,
    request: jsonBody(GuestPasswordBody),
    responses: { 200: SettingsResponse, ...errors(400, 401, 403, 404) },
  }),
  async (c) => {
    await requireUser(c, { roles: ADMINS });
    const body = c.req.valid("json");
    const room = await loadRoom(c.var.deps.db, { uuid: body.roomUuid });
    return updateRoom(c, room, { guestPasswordHash: await hashPassword(body.guestPassword) });
  },
);

roomsRoutes.openapi(
  createRoute({
    method: "delete",
    path: "/rooms/admin/guest-password",
    tags: ["Admin"],
    summary: "Remove a room's guest password (admins)",
    security: bearer,
    request: jsonBody(z.object({ roomUuid: z.uuid() }).strict()),
    responses: { 200: SettingsResponse, ...errors(400, 401, 403, 404) },
  }),
  async (c) => {
    await requireUser(c, { roles: ADMINS });
    const room = await loadRoom(c.var.deps.db, { uuid: c.req.valid("json").roomUuid });
    if (!room.guestPasswordHash) throw notFound("This room has no guest password.");
    return updateRoom(c, room, { guestPasswordHash: null });
  },
);

roomsRoutes.openapi(
  createRoute({
    method: "post",
    path: "/rooms/discord/{guild}",
    tags: ["Discord"],
    summary:
      "Attach a room to a Discord guild's activity: an existing room the caller co-owns (roomUuid), or a new one (name)",
    security: bearer,
    request: {
      params: z.object({ guild: z.string().regex(/^\d{5,25}$/, "guild: a Discord guild id") }),
      ...jsonBody(
        z
          .object({ roomUuid: z.uuid().optional(), name: RoomSettingsInput.shape.name.unwrap().optional() })
          .strict()
          .refine((b) => !!b.roomUuid !== !!b.name, { message: "give roomUuid or name", path: ["roomUuid"] }),
      ),
    },
    responses: { 200: SettingsResponse, 201: json(RoomSchema, "Created"), ...errors(400, 401, 403, 404) },
  }),
  async (c) => {
    const { user } = await requireUser(c);
    const { db, clock } = c.var.deps;
    const { guild } = c.req.valid("param");
    const body = c.req.valid("json");
    if (body.roomUuid) {
      const room = await loadRoom(db, { uuid: body.roomUuid });
      await requireRoomRank(db, room, user, clock.now(), ROOM_RANK.coOwner);
      return updateRoom(c, room, { discordGuildId: guild });
    }
    const [owned] = await db.select({ n: count() }).from(schema.rooms).where(eq(schema.rooms.ownerUuid, user.uuid));
    if ((owned?.n ?? 0) >= MAX_OWNED_ROOMS && !hasAnyRole(user.roles, STAFF)) throw forbidden(TOO_MANY_ROOMS);
    const name = body.name ?? "";
    const now = clock.now();
    const [room] = await db
      .insert(schema.rooms)
      .values({
        name,
        slug: await freeSlug(db, slugify(name)),
        discordGuildId: guild,
        ownerUuid: user.uuid,
        createdAt: now,
        updatedAt: now,
      })
      .returning();
    if (!room) throw new Error("room insert returned nothing");
    return c.json(roomView(room), 201);
  },
);
