import { createRoute, z } from "@hono/zod-openapi";
import { bearer, errors, json, jsonBody } from "../../lib/openapi.ts";
import { CrateSchema, CrateSongSchema } from "./crates.ts";

const ImportSong = z.object({
  songId: z.uuid().optional(),
  isrc: z.string().trim().max(20).optional(),
  trackName: z.string().max(300).optional(),
  artistName: z.string().max(300).optional(),
  musicProviders: z.record(z.string().max(40), z.string().max(200)).default({}),
});

export const trackImport = createRoute({
  method: "post",
  path: "/api/v1/track-import",
  tags: ["Import"],
  summary: "Import tracks from other services into a crate (the queue unless a crate is named)",
  security: bearer,
  request: jsonBody(z.object({ crateUuid: z.uuid().optional(), songs: z.array(ImportSong).min(1).max(500) })),
  responses: {
    200: json(
      z
        .object({
          crate: CrateSchema,
          imported: z.number().int(),
          skipped: z.array(z.object({ index: z.number().int(), message: z.string() })),
        })
        .openapi("TrackImport"),
    ),
    ...errors(400, 401, 403, 404),
  },
});

export const addTrack = createRoute({
  method: "post",
  path: "/api/v1/playlists/{crateUuid}/tracks",
  tags: ["Import"],
  summary: "Add a catalogue song to a crate, at the end (append) or at the start",
  security: bearer,
  request: {
    params: z.object({ crateUuid: z.uuid().openapi({ param: { name: "crateUuid", in: "path" } }) }),
    ...jsonBody(z.object({ songId: z.uuid(), append: z.boolean().default(true) })),
  },
  responses: { 201: json(z.array(CrateSongSchema), "Created"), ...errors(400, 401, 403, 404, 409) },
});
