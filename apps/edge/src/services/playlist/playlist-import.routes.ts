import { z } from "@hono/zod-openapi";
import { contracts, errors, json, jsonBody, ok, Timestamps, uuidParams } from "../../lib/openapi.ts";
import { IMPORT_STATES } from "./playlist-imports.ts";
import { PLAYLIST_PROVIDERS } from "./playlist-links.ts";

const { authed } = contracts(["Import"]);

export const PlaylistImportSchema = z
  .object({
    importId: z.uuid(),
    provider: z.enum(PLAYLIST_PROVIDERS),
    playlistId: z.string(),
    playlistName: z.string(),
    crateUuid: z.uuid(),
    state: z.enum(IMPORT_STATES),
    total: z.number().int(),
    playlistTracks: z.number().int(),
    done: z.number().int(),
    imported: z.number().int(),
    skipped: z.number().int(),
    message: z.string().nullable(),
    ...Timestamps,
  })
  .openapi("PlaylistImport");

export const startImport = authed("post", "/api/v1/playlist-imports", {
  summary:
    "Import a Spotify, YouTube, SoundCloud or Audius playlist into a new crate named after it (the first 500 tracks); answers the import, whose progress GET /api/v1/playlist-imports/{importId} tells",
  request: jsonBody(z.object({ link: z.string().trim().min(1).max(2000) })),
  responses: { 202: json(PlaylistImportSchema, "Accepted"), ...errors(400, 401, 403, 404, 422, 429, 502, 503) },
});

export const getImport = authed("get", "/api/v1/playlist-imports/{importId}", {
  summary: "A playlist import's progress (its owner only; kept for a day)",
  request: {
    params: uuidParams("importId"),
  },
  responses: ok(PlaylistImportSchema, 400, 401, 403, 404),
});
