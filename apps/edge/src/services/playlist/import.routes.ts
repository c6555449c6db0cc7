import { z } from "@hono/zod-openapi";
import { contracts, created, jsonBody, ok, uuidParams } from "../../lib/openapi.ts";
import { CrateSchema, CrateSongSchema } from "./crates.ts";

const { authed } = contracts(["Import"]);

const ImportSong = z.object({
  songId: z.uuid().optional(),
  isrc: z.string().trim().max(20).optional(),
  trackName: z.string().max(300).optional(),
  artistName: z.string().max(300).optional(),
  musicProviders: z.record(z.string().max(40), z.string().max(200)).default({}),
});

export const trackImport = authed("post", "/api/v1/track-import", {
  summary: "Import tracks from other services into a crate (the queue unless a crate is named)",
  request: jsonBody(z.object({ crateUuid: z.uuid().optional(), songs: z.array(ImportSong).min(1).max(500) })),
  responses: ok(
    z
      .object({
        crate: CrateSchema,
        imported: z.number().int(),
        skipped: z.array(z.object({ index: z.number().int(), message: z.string() })),
      })
      .openapi("TrackImport"),
    400,
    401,
    403,
    404,
  ),
});

export const addTrack = authed("post", "/api/v1/playlists/{crateUuid}/tracks", {
  summary: "Add a catalogue song to a crate, at the end (append) or at the start",
  request: {
    params: uuidParams("crateUuid"),
    ...jsonBody(z.object({ songId: z.uuid(), append: z.boolean().default(true) })),
  },
  responses: created(z.array(CrateSongSchema), 400, 401, 403, 404, 409, 422),
});
