import { createRoute, z } from "@hono/zod-openapi";
import { bearer, errors, json, jsonBody } from "../../lib/openapi.ts";
import { SongSchema } from "./crates.ts";

const ExportResult = z
  .object({ playlistId: z.string(), url: z.string().nullable(), exported: z.number().int(), skipped: z.number().int() })
  .openapi("PlaylistExport");

export const spotify = createRoute({
  method: "post",
  path: "/exports/spotify",
  tags: ["Exports"],
  summary: "Copy a crate to a new private Spotify playlist of the user (songs Spotify knows)",
  security: bearer,
  request: jsonBody(
    z.object({
      crateUuid: z
        .union([z.uuid(), z.enum(["likes", "queue"])])
        .openapi({ description: "A crate uuid, or likes or queue" }),
      accessToken: z.string().min(1).max(2000),
      name: z.string().trim().min(1).max(100).optional(),
    }),
  ),
  responses: { 200: json(ExportResult), ...errors(400, 401, 403, 404, 429, 502) },
});

export const apple = createRoute({
  method: "post",
  path: "/exports/apple",
  tags: ["Exports"],
  summary: "Copy a crate to a new Apple Music library playlist of the user (songs Apple Music knows)",
  security: bearer,
  request: jsonBody(
    z.object({
      crateUuid: z
        .union([z.uuid(), z.enum(["likes", "queue"])])
        .openapi({ description: "A crate uuid, or likes or queue" }),
      musicUserToken: z.string().min(1).max(4000),
      name: z.string().trim().min(1).max(100).optional(),
    }),
  ),
  responses: { 200: json(ExportResult), ...errors(400, 401, 403, 404, 429, 502, 503) },
});

export const cyaniteWebhook = createRoute({
  method: "post",
  path: "/cyanite/webhook",
  tags: ["Webhooks"],
  summary: "Cyanite's music analysis results, signed with the shared secret (HMAC-SHA512 of the body)",
  request: {
    headers: z.object({ signature: z.string().max(512).optional() }),
    body: { content: { "application/json": { schema: z.record(z.string(), z.unknown()) } } },
  },
  responses: { 200: json(z.object({ songId: z.uuid() }).openapi("AnalysisStored")), ...errors(400, 401, 404, 503) },
});

export const migrateLinks = createRoute({
  method: "post",
  path: "/song-data/migrate-links",
  tags: ["Song data"],
  summary: "Map provider links to catalogue songs (null where the catalogue has no match)",
  request: jsonBody(z.object({ links: z.array(z.string().min(1).max(2000)).min(1).max(200) })),
  responses: {
    200: json(
      z
        .array(
          z.object({
            link: z.string(),
            provider: z.string().nullable(),
            song: SongSchema.nullable(),
            message: z.string().nullable(),
          }),
        )
        .openapi("MigratedLinks"),
    ),
    ...errors(400),
  },
});
