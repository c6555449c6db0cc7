import { createHmac, timingSafeEqual } from "node:crypto";
import { schema } from "@booth/db";
import { createRoute, z } from "@hono/zod-openapi";
import { sql } from "drizzle-orm";
import { rateLimit } from "../../lib/auth.ts";
import { badRequest, HttpError, notFound, unauthorized } from "../../lib/errors.ts";
import { bearer, createRouter, errors, json, jsonBody } from "../../lib/openapi.ts";
import { crateSongs, resolveCrate, SongSchema, songView } from "./crates.ts";
import { parseProviderLink } from "./provider-links.ts";

export const exportRoutes = createRouter();

const ExportResult = z
  .object({ playlistId: z.string(), url: z.string().nullable(), exported: z.number().int(), skipped: z.number().int() })
  .openapi("PlaylistExport");

/** Calls a provider's JSON API; a refusal becomes a 502 naming the provider and its status. */
async function providerCall(provider: string, url: string, init: RequestInit) {
  let res: Response;
  try {
    res = await fetch(url, { ...init, signal: AbortSignal.timeout(15_000) });
  } catch {
    throw new HttpError(502, `${provider} could not be reached.`);
  }
  if (res.status === 401) throw new HttpError(401, `${provider} refused the access token.`);
  if (!res.ok) throw new HttpError(502, `${provider} answered ${res.status}.`);
  return (await res.json().catch(() => ({}))) as Record<string, unknown>;
}

exportRoutes.openapi(
  createRoute({
    method: "post",
    path: "/exports/spotify",
    tags: ["Exports"],
    summary: "Copy a crate to a new private Spotify playlist of the user (songs Spotify knows)",
    security: bearer,
    request: jsonBody(
      z.object({
        crateUuid: z.string().min(1),
        accessToken: z.string().min(1).max(2000),
        name: z.string().trim().min(1).max(100).optional(),
      }),
    ),
    responses: { 200: json(ExportResult), ...errors(400, 401, 403, 404, 429, 502) },
  }),
  async (c) => {
    const body = c.req.valid("json");
    const { crate, user } = await resolveCrate(c, body.crateUuid, "read");
    await rateLimit(c, `export:${user.uuid}`, 20, 3600);
    const base = c.var.deps.config.providers.spotifyApiUrl.replace(/\/+$/, "");
    const headers = { authorization: `Bearer ${body.accessToken}`, "content-type": "application/json" };
    const songs = await crateSongs(c.var.deps.db, crate.id);
    const uris = songs.flatMap((s) => (s.musicProviders.spotify ? [`spotify:track:${s.musicProviders.spotify}`] : []));
    const me = await providerCall("Spotify", `${base}/v1/me`, { headers });
    const playlist = await providerCall("Spotify", `${base}/v1/users/${encodeURIComponent(String(me.id))}/playlists`, {
      method: "POST",
      headers,
      body: JSON.stringify({
        name: body.name ?? crate.name,
        description: crate.description ?? "From Booth",
        public: false,
      }),
    });
    const playlistId = String(playlist.id);
    for (let i = 0; i < uris.length; i += 100)
      await providerCall("Spotify", `${base}/v1/playlists/${encodeURIComponent(playlistId)}/tracks`, {
        method: "POST",
        headers,
        body: JSON.stringify({ uris: uris.slice(i, i + 100) }),
      });
    const url = (playlist.external_urls as { spotify?: string } | undefined)?.spotify ?? null;
    return c.json({ playlistId, url, exported: uris.length, skipped: songs.length - uris.length }, 200);
  },
);

exportRoutes.openapi(
  createRoute({
    method: "post",
    path: "/exports/apple",
    tags: ["Exports"],
    summary: "Copy a crate to a new Apple Music library playlist of the user (songs Apple Music knows)",
    security: bearer,
    request: jsonBody(
      z.object({
        crateUuid: z.string().min(1),
        musicUserToken: z.string().min(1).max(4000),
        name: z.string().trim().min(1).max(100).optional(),
      }),
    ),
    responses: { 200: json(ExportResult), ...errors(400, 401, 403, 404, 429, 502, 503) },
  }),
  async (c) => {
    const body = c.req.valid("json");
    const { crate, user } = await resolveCrate(c, body.crateUuid, "read");
    const { appleMusicDeveloperToken, appleMusicApiUrl } = c.var.deps.config.providers;
    if (!appleMusicDeveloperToken)
      throw new HttpError(503, "Apple Music export is not configured: set APPLE_MUSIC_DEVELOPER_TOKEN.");
    await rateLimit(c, `export:${user.uuid}`, 20, 3600);
    const songs = await crateSongs(c.var.deps.db, crate.id);
    const tracks = songs.flatMap((s) =>
      s.musicProviders.apple ? [{ id: s.musicProviders.apple, type: "songs" }] : [],
    );
    const result = await providerCall(
      "Apple Music",
      `${appleMusicApiUrl.replace(/\/+$/, "")}/v1/me/library/playlists`,
      {
        method: "POST",
        headers: {
          authorization: `Bearer ${appleMusicDeveloperToken}`,
          "music-user-token": body.musicUserToken,
          "content-type": "application/json",
        },
        body: JSON.stringify({
          attributes: { name: body.name ?? crate.name, description: crate.description ?? "From Booth" },
          relationships: { tracks: { data: tracks } },
        }),
      },
    );
    const playlistId = String((result.data as { id?: string }[] | undefined)?.[0]?.id ?? "");
    return c.json({ playlistId, url: null, exported: tracks.length, skipped: songs.length - tracks.length }, 200);
  },
);

exportRoutes.openapi(
  createRoute({
    method: "post",
    path: "/cyanite/webhook",
    tags: ["Webhooks"],
    summary: "Cyanite's music analysis results, signed with the shared secret (HMAC-SHA512 of the body)",
    request: {
      headers: z.object({ signature: z.string().max(512).optional() }),
      body: { content: { "application/json": { schema: z.record(z.string(), z.unknown()) } } },
    },
    responses: { 200: json(z.object({ songId: z.uuid() }).openapi("AnalysisStored")), ...errors(400, 401, 404, 503) },
  }),
  async (c) => {
    const secret = c.var.deps.config.providers.cyaniteWebhookSecret;
    if (!secret) throw new HttpError(503, "The Cyanite webhook is not configured: set CYANITE_WEBHOOK_SECRET.");
    const raw = await c.req.text();
    const expected = createHmac("sha512", secret).update(raw).digest("hex");
    const given = c.req.header("signature") ?? "";
    if (given.length !== expected.length || !timingSafeEqual(Buffer.from(given), Buffer.from(expected)))
      throw unauthorized("The webhook signature does not match.");
    let payload: { resource?: { id?: unknown }; event?: unknown };
    try {
      payload = JSON.parse(raw);
    } catch {
      throw badRequest("The webhook body is not JSON.");
    }
    const resourceId = payload.resource?.id;
    if (typeof resourceId !== "string") throw badRequest(["resource.id: is required"]);
    const [song] = await c.var.deps.db
      .update(schema.songs)
      .set({ analysis: payload })
      .where(sql`${schema.songs.musicProviders} ->> 'cyanite' = ${resourceId}`)
      .returning({ id: schema.songs.id });
    if (!song) throw notFound("No song was sent for this analysis.");
    return c.json({ songId: song.id }, 200);
  },
);

exportRoutes.openapi(
  createRoute({
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
  }),
  async (c) => {
    const out = [];
    for (const link of c.req.valid("json").links) {
      const parsed = parseProviderLink(link);
      if (!parsed) {
        out.push({ link, provider: null, song: null, message: "This is not a track link of a music service we know." });
        continue;
      }
      const [row] = await c.var.deps.db
        .select()
        .from(schema.songs)
        .where(sql`${schema.songs.musicProviders} ->> ${parsed.provider} = ${parsed.id}`)
        .limit(1);
      out.push({
        link,
        provider: parsed.provider,
        song: row ? songView(row) : null,
        message: row ? null : "Sorry, this song is not in our catalog and can't be imported.",
      });
    }
    return c.json(out, 200);
  },
);
