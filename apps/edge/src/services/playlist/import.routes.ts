import { schema } from "@booth/db";
import { createRoute, z } from "@hono/zod-openapi";
import { eq, or, type SQL, sql } from "drizzle-orm";
import type { AppDeps } from "../../deps.ts";
import { HttpError, notFound } from "../../lib/errors.ts";
import { bearer, createRouter, errors, json, jsonBody } from "../../lib/openapi.ts";
import {
  addSongs,
  CrateSchema,
  CrateSongSchema,
  crateSongs,
  crateView,
  resolveCrate,
  SONG_ALREADY_IN_CRATE,
} from "./crates.ts";
import { queueChanged } from "./live-queue.ts";
import { canLookUp, lookUpTrack, lookupConfigured } from "./provider-lookup.ts";

export const NO_SUPPORTED_PROVIDER = "Sorry, this song does not have any supported music providers to import from.";
export const NOT_IN_CATALOG = "Sorry, this song is not in our catalog and can't be imported.";
/** Providers an imported song may come from (the spec's seven-digital, soundcloud public, spotify, apple, upload). */
export const IMPORT_PROVIDERS = [
  "sevenDigital",
  "soundCloudPublic",
  "soundcloud",
  "spotify",
  "apple",
  "uploadService",
] as const;

export const importRoutes = createRouter();

const ImportSong = z.object({
  songId: z.uuid().optional(),
  isrc: z.string().trim().max(20).optional(),
  trackName: z.string().max(300).optional(),
  artistName: z.string().max(300).optional(),
  musicProviders: z.record(z.string().max(40), z.string().max(200)).default({}),
});

/**
 * The catalogue song an imported track is: by id, or by a provider id of a supported provider; else, when a provider
 * Booth can ask is configured, the track as that provider has it, added to the catalogue.
 */
async function findForImport(
  deps: AppDeps,
  song: z.infer<typeof ImportSong>,
): Promise<{ songId: string } | { error: string }> {
  const { db } = deps;
  const supported = Object.entries(song.musicProviders).filter(([p]) =>
    (IMPORT_PROVIDERS as readonly string[]).includes(p),
  );
  if (!song.songId && supported.length === 0) return { error: NO_SUPPORTED_PROVIDER };
  const conditions: SQL[] = supported.map(([p, id]) => sql`${schema.songs.musicProviders} ->> ${p} = ${id}`);
  if (song.songId) conditions.push(eq(schema.songs.id, song.songId));
  const [row] = await db
    .select({ id: schema.songs.id })
    .from(schema.songs)
    .where(or(...conditions))
    .limit(1);
  if (row) return { songId: row.id };
  for (const [provider, id] of supported) {
    if (!canLookUp(provider) || !lookupConfigured(deps, provider)) continue;
    try {
      const songId = await lookUpTrack(deps, provider, id);
      if (songId) return { songId };
    } catch (err) {
      // The provider is down or refuses: this track is skipped with the reason, the others still import.
      if (err instanceof HttpError && err.status >= 500) return { error: err.message };
      throw err;
    }
  }
  return { error: NOT_IN_CATALOG };
}

importRoutes.openapi(
  createRoute({
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
  }),
  async (c) => {
    const body = c.req.valid("json");
    const { crate } = await resolveCrate(c, body.crateUuid ?? "queue", "write");
    const { db, clock } = c.var.deps;
    await db
      .update(schema.crates)
      .set({ importStatus: "IN_PROGRESS", importMessage: null })
      .where(eq(schema.crates.id, crate.id));
    const skipped: { index: number; message: string }[] = [];
    let imported = 0;
    for (const [index, song] of body.songs.entries()) {
      const found = await findForImport(c.var.deps, song);
      if ("error" in found) {
        skipped.push({ index, message: found.error });
        continue;
      }
      try {
        await addSongs(db, crate, [found.songId], undefined, clock.now());
        imported++;
      } catch (err) {
        if (!(err instanceof HttpError) || err.status >= 500) throw err;
        skipped.push({ index, message: err.status === 409 ? SONG_ALREADY_IN_CRATE : err.message });
      }
    }
    if (imported) await queueChanged(c.var.deps, crate);
    const failed = imported === 0;
    const [done] = await db
      .update(schema.crates)
      .set({
        importStatus: failed ? "FAILED" : "COMPLETE",
        importMessage: failed
          ? (skipped[0]?.message ?? null)
          : skipped.length
            ? `${skipped.length} of ${body.songs.length} tracks could not be imported.`
            : null,
      })
      .where(eq(schema.crates.id, crate.id))
      .returning();
    return c.json({ crate: await crateView(db, done ?? crate), imported, skipped }, 200);
  },
);

importRoutes.openapi(
  createRoute({
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
  }),
  async (c) => {
    const { crate } = await resolveCrate(c, c.req.valid("param").crateUuid, "write");
    const { songId, append } = c.req.valid("json");
    const { db, clock } = c.var.deps;
    const [song] = await db.select({ id: schema.songs.id }).from(schema.songs).where(eq(schema.songs.id, songId));
    if (!song) throw notFound(NOT_IN_CATALOG);
    await addSongs(db, crate, [songId], append ? undefined : 0, clock.now());
    await queueChanged(c.var.deps, crate);
    return c.json(await crateSongs(db, crate.id), 201);
  },
);
