import { z } from "@hono/zod-openapi";
import { contracts, jsonBody, ok } from "../../lib/openapi.ts";
import { SongSchema } from "./crates.ts";

const { authed, route } = contracts(["Exports"]);

const ExportResult = z
  .object({ playlistId: z.string(), url: z.string().nullable(), exported: z.number().int(), skipped: z.number().int() })
  .openapi("PlaylistExport");

/** What an export is asked for: the crate, the provider's token for the user (`token`) and the playlist's name. */
const exportOf = <T extends z.ZodRawShape>(token: T) =>
  jsonBody(
    z.object({
      crateUuid: z
        .union([z.uuid(), z.enum(["likes", "queue"])])
        .openapi({ description: "A crate uuid, or likes or queue" }),
      ...token,
      name: z.string().trim().min(1).max(100).optional(),
    }),
  );

export const spotify = authed("post", "/exports/spotify", {
  summary: "Copy a crate to a new private Spotify playlist of the user (songs Spotify knows)",
  request: exportOf({ accessToken: z.string().min(1).max(2000) }),
  responses: ok(ExportResult, 400, 401, 403, 404, 422, 429, 502),
});

export const apple = authed("post", "/exports/apple", {
  summary: "Copy a crate to a new Apple Music library playlist of the user (songs Apple Music knows)",
  request: exportOf({ musicUserToken: z.string().min(1).max(4000) }),
  responses: ok(ExportResult, 400, 401, 403, 404, 422, 429, 502, 503),
});

export const cyaniteWebhook = route("post", "/cyanite/webhook", {
  summary: "Cyanite's music analysis results, signed with the shared secret (HMAC-SHA512 of the body)",
  tags: ["Webhooks"],
  request: {
    headers: z.object({ signature: z.string().max(512).optional() }),
    body: { content: { "application/json": { schema: z.record(z.string(), z.unknown()) } } },
  },
  responses: ok(z.object({ songId: z.uuid() }).openapi("AnalysisStored"), 400, 401, 404, 503),
});

export const migrateLinks = route("post", "/song-data/migrate-links", {
  summary: "Map provider links to catalogue songs (null where the catalogue has no match)",
  tags: ["Song data"],
  request: jsonBody(z.object({ links: z.array(z.string().min(1).max(2000)).min(1).max(200) })),
  responses: ok(
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
    400,
  ),
});
