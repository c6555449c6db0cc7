import { z } from "@hono/zod-openapi";
import { removal } from "../../lib/contract-families.ts";
import { contracts, errors, json, jsonBody, ok, UuidCsv } from "../../lib/openapi.ts";

const { authed } = contracts(["Room favourites"]);

export const FavoriteSchema = z
  .object({ id: z.uuid(), userUuid: z.uuid(), roomUuid: z.uuid(), createdAt: z.string() })
  .openapi("RoomFavorite");

export const addFavorite = authed("post", "/api/v1/room-favorites", {
  summary: "Favourite a room (signed in); favouriting it again answers the existing favourite",
  request: jsonBody(z.object({ roomUuid: z.uuid() }).strict()),
  responses: { 200: json(FavoriteSchema), 201: json(FavoriteSchema, "Created"), ...errors(400, 401, 404) },
});

export const listFavorites = authed("get", "/api/v1/room-favorites", {
  summary:
    "Favourites of a user (the caller's by default), the latest first; roomUuidIn (comma-separated) checks given rooms. Others' favourites of private rooms stay hidden",
  request: {
    query: z.object({
      limit: z.coerce.number().int().min(1).max(500).default(100),
      roomUuidIn: UuidCsv.optional(),
      userUuid: z.uuid().optional(),
    }),
  },
  responses: ok(z.array(FavoriteSchema).openapi("RoomFavorites"), 400, 401),
});

export const removeFavorite = removal(
  authed,
  "/api/v1/room-favorites/{id}",
  "Remove a favourite, by its id or by the room's uuid (its owner)",
);
