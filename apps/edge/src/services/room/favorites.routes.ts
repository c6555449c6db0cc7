import { createRoute, z } from "@hono/zod-openapi";
import { bearer, errors, json, jsonBody, noContent, UuidCsv } from "../../lib/openapi.ts";

const tags = ["Room favourites"];

export const FavoriteSchema = z
  .object({ id: z.uuid(), userUuid: z.uuid(), roomUuid: z.uuid(), createdAt: z.string() })
  .openapi("RoomFavorite");

export const addFavorite = createRoute({
  method: "post",
  path: "/api/v1/room-favorites",
  tags,
  summary: "Favourite a room (signed in); favouriting it again answers the existing favourite",
  security: bearer,
  request: jsonBody(z.object({ roomUuid: z.uuid() }).strict()),
  responses: { 200: json(FavoriteSchema), 201: json(FavoriteSchema, "Created"), ...errors(400, 401, 404) },
});

export const listFavorites = createRoute({
  method: "get",
  path: "/api/v1/room-favorites",
  tags,
  summary:
    "Favourites of a user (the caller's by default), the latest first; roomUuidIn (comma-separated) checks given rooms. Others' favourites of private rooms stay hidden",
  security: bearer,
  request: {
    query: z.object({
      limit: z.coerce.number().int().min(1).max(500).default(100),
      roomUuidIn: UuidCsv.optional(),
      userUuid: z.uuid().optional(),
    }),
  },
  responses: { 200: json(z.array(FavoriteSchema).openapi("RoomFavorites")), ...errors(400, 401) },
});

export const removeFavorite = createRoute({
  method: "delete",
  path: "/api/v1/room-favorites/{id}",
  tags,
  summary: "Remove a favourite, by its id or by the room's uuid (its owner)",
  security: bearer,
  request: { params: z.object({ id: z.uuid().openapi({ param: { name: "id", in: "path" } }) }) },
  responses: { ...noContent, ...errors(400, 401, 403, 404) },
});
