import { schema } from "@booth/db";
import { createRoute, z } from "@hono/zod-openapi";
import { and, desc, eq, inArray, or } from "drizzle-orm";
import { requireUser } from "../../lib/auth.ts";
import { forbidden, notFound } from "../../lib/errors.ts";
import { bearer, createRouter, errors, json, jsonBody, noContent, uuidList } from "../../lib/openapi.ts";
import { ROOM_NOT_FOUND } from "./access.ts";

export const roomFavoritesRoutes = createRouter();
const tags = ["Room favourites"];

const FavoriteSchema = z
  .object({ id: z.uuid(), userUuid: z.uuid(), roomUuid: z.uuid(), createdAt: z.string() })
  .openapi("RoomFavorite");
type Favorite = typeof schema.roomFavorites.$inferSelect;
const view = (f: Favorite) => ({ ...f, createdAt: f.createdAt.toISOString() });

roomFavoritesRoutes.openapi(
  createRoute({
    method: "post",
    path: "/api/v1/room-favorites",
    tags,
    summary: "Favourite a room (signed in); favouriting it again answers the existing favourite",
    security: bearer,
    request: jsonBody(z.object({ roomUuid: z.uuid() }).strict()),
    responses: { 200: json(FavoriteSchema), 201: json(FavoriteSchema, "Created"), ...errors(400, 401, 404) },
  }),
  async (c) => {
    const { user } = await requireUser(c, { types: ["user", "bot"] });
    const { db, clock } = c.var.deps;
    const { roomUuid } = c.req.valid("json");
    const [room] = await db
      .select({ uuid: schema.rooms.uuid })
      .from(schema.rooms)
      .where(eq(schema.rooms.uuid, roomUuid));
    if (!room) throw notFound(ROOM_NOT_FOUND);
    const [created] = await db
      .insert(schema.roomFavorites)
      .values({ userUuid: user.uuid, roomUuid, createdAt: clock.now() })
      .onConflictDoNothing()
      .returning();
    if (created) return c.json(view(created), 201);
    const [existing] = await db
      .select()
      .from(schema.roomFavorites)
      .where(and(eq(schema.roomFavorites.userUuid, user.uuid), eq(schema.roomFavorites.roomUuid, roomUuid)));
    if (!existing) throw notFound(ROOM_NOT_FOUND);
    return c.json(view(existing), 200);
  },
);

roomFavoritesRoutes.openapi(
  createRoute({
    method: "get",
    path: "/api/v1/room-favorites",
    tags,
    summary:
      "Favourites of a user (the caller's by default), the latest first; roomUuidIn (comma-separated) checks given rooms. Others' favourites of private rooms stay hidden",
    security: bearer,
    request: {
      query: z.object({
        limit: z.coerce.number().int().min(1).max(500).default(100),
        roomUuidIn: z.string().max(20_000).optional(),
        userUuid: z.uuid().optional(),
      }),
    },
    responses: { 200: json(z.array(FavoriteSchema).openapi("RoomFavorites")), ...errors(400, 401) },
  }),
  async (c) => {
    const { user } = await requireUser(c, { types: ["user", "bot"] });
    const query = c.req.valid("query");
    const owner = query.userUuid ?? user.uuid;
    const rooms = uuidList(query.roomUuidIn, "roomUuidIn");
    const { db } = c.var.deps;
    const rows = await db
      .select({ favorite: schema.roomFavorites })
      .from(schema.roomFavorites)
      .innerJoin(schema.rooms, eq(schema.rooms.uuid, schema.roomFavorites.roomUuid))
      .where(
        and(
          eq(schema.roomFavorites.userUuid, owner),
          rooms.length ? inArray(schema.roomFavorites.roomUuid, rooms) : undefined,
          owner === user.uuid ? undefined : and(eq(schema.rooms.type, "PUBLIC"), eq(schema.rooms.unlisted, false)),
        ),
      )
      .orderBy(desc(schema.roomFavorites.createdAt))
      .limit(query.limit);
    return c.json(
      rows.map((r) => view(r.favorite)),
      200,
    );
  },
);

roomFavoritesRoutes.openapi(
  createRoute({
    method: "delete",
    path: "/api/v1/room-favorites/{id}",
    tags,
    summary: "Remove a favourite, by its id or by the room's uuid (its owner)",
    security: bearer,
    request: { params: z.object({ id: z.uuid().openapi({ param: { name: "id", in: "path" } }) }) },
    responses: { ...noContent, ...errors(400, 401, 403, 404) },
  }),
  async (c) => {
    const { user } = await requireUser(c, { types: ["user", "bot"] });
    const { db } = c.var.deps;
    const { id } = c.req.valid("param");
    const [favorite] = await db
      .select()
      .from(schema.roomFavorites)
      .where(
        or(
          eq(schema.roomFavorites.id, id),
          and(eq(schema.roomFavorites.roomUuid, id), eq(schema.roomFavorites.userUuid, user.uuid)),
        ),
      )
      .limit(1);
    if (!favorite) throw notFound("Favourite not found.");
    if (favorite.userUuid !== user.uuid) throw forbidden("This favourite is someone else's.");
    await db.delete(schema.roomFavorites).where(eq(schema.roomFavorites.id, favorite.id));
    return c.body(null, 204);
  },
);
