import { schema } from "@booth/db";
import { createRoute, z } from "@hono/zod-openapi";
import { eq } from "drizzle-orm";
import type { AppDeps } from "../../deps.ts";
import { rateLimit, requireUser } from "../../lib/auth.ts";
import { HttpError, notFound } from "../../lib/errors.ts";
import { bearer, createRouter, errors, json, jsonBody } from "../../lib/openapi.ts";
import { ACCOUNT_NOT_FOUND, hold, inLedger, resolveHold } from "../merch/ledger.ts";
import { originalKey, publish, transcode, verify } from "./pipeline.ts";

/** Tokens a generated song costs for each started minute of it. */
export const TOKENS_PER_MINUTE = 10;
export const MISMATCHED_COST = "The token cost has changed; please get a new quote.";
export const genSongRoutes = createRouter();
const tags = ["Generated songs"];

export const costOf = (seconds: number) => Math.ceil(seconds / 60) * TOKENS_PER_MINUTE;
const Duration = z.number().int().min(15).max(300).openapi({ description: "seconds" });

genSongRoutes.openapi(
  createRoute({
    method: "post",
    path: "/api/v1/gen-songs/cost",
    tags,
    summary: `What a generated song of a length costs (${TOKENS_PER_MINUTE} tokens a started minute)`,
    request: jsonBody(z.object({ duration: Duration })),
    responses: {
      200: json(z.object({ duration: z.number().int(), tokenCost: z.number().int() }).openapi("GenSongCost")),
      ...errors(400),
    },
  }),
  (c) => {
    const { duration } = c.req.valid("json");
    return c.json({ duration, tokenCost: costOf(duration) }, 200);
  },
);

/** Makes the song, then commits the hold; any failure voids it, so tokens are spent only for a playable song. */
async function produce(
  deps: AppDeps,
  uploadId: string,
  holdId: string,
  request: { prompt: string; duration: number; title: string; artist: string },
) {
  try {
    const bytes = await deps.songGenerator.generate({ ...request, seconds: request.duration });
    await deps.storage.put(originalKey(uploadId), bytes, "audio/mpeg");
    const [upload] = await deps.db
      .update(schema.songUploads)
      .set({ status: "VALID_FILE_TYPE", size: bytes.length })
      .where(eq(schema.songUploads.id, uploadId))
      .returning();
    if (!upload) throw new Error("the generated song's upload vanished");
    const verified = await verify(deps, upload, bytes);
    if (verified.status !== "VERIFIED") throw new Error(`the generated song is ${verified.status}`);
    const published = await publish(deps, verified);
    if (published.songId)
      await deps.db
        .update(schema.songs)
        .set({ isGenerated: true, description: request.prompt })
        .where(eq(schema.songs.id, published.songId));
    const done = await transcode(deps, published);
    if (done.transcodingStatus !== "TRANSCODING_SUCCEED") throw new Error("the generated song did not transcode");
    await inLedger(deps.db, (tx) => resolveHold(tx, holdId, "commit", deps.clock.now()));
  } catch (err) {
    deps.logger({ level: "error", msg: "song generation failed", uploadId, err: String(err) });
    await deps.db
      .update(schema.songUploads)
      .set({ status: "VERIFICATION_ERROR", error: "The song could not be generated; no tokens were spent." })
      .where(eq(schema.songUploads.id, uploadId));
    await inLedger(deps.db, (tx) => resolveHold(tx, holdId, "voided", deps.clock.now())).catch(() => {});
  }
}

genSongRoutes.openapi(
  createRoute({
    method: "post",
    path: "/api/v1/gen-songs",
    tags,
    summary: "Generate a song for the quoted token cost: the tokens are held, and spent only when the song is made",
    security: bearer,
    request: {
      ...jsonBody(
        z.object({
          prompt: z.string().trim().min(3).max(500),
          duration: Duration,
          tokenCost: z.number().int().min(1),
          title: z.string().trim().min(1).max(200).optional(),
        }),
      ),
      headers: z.object({ "idempotency-key": z.string().min(1).max(200).optional() }),
    },
    responses: {
      202: json(
        z
          .object({ id: z.uuid(), tokenCost: z.number().int(), holdId: z.uuid(), status: z.string() })
          .openapi("GenSongStarted"),
        "Accepted",
      ),
      ...errors(400, 401, 402, 403, 404, 409, 429),
    },
  }),
  async (c) => {
    const { user } = await requireUser(c);
    const body = c.req.valid("json");
    const key = c.req.valid("header")["idempotency-key"];
    const cost = costOf(body.duration);
    if (body.tokenCost !== cost) throw new HttpError(409, MISMATCHED_COST, "mismatched-token-cost");
    await rateLimit(c, `gen-songs:${user.uuid}`, 20, 3600);
    const deps = c.var.deps;
    const { db, clock } = deps;
    const [account] = await db.select().from(schema.tokenAccounts).where(eq(schema.tokenAccounts.userUuid, user.uuid));
    if (!account) throw notFound(ACCOUNT_NOT_FOUND);
    const [profile] = await db
      .select({ nickname: schema.profiles.nickname })
      .from(schema.profiles)
      .where(eq(schema.profiles.userUuid, user.uuid));
    const now = clock.now();
    const started = await inLedger(db, async (tx) => {
      const held = await hold(
        tx,
        {
          accountId: account.id,
          amount: cost,
          reason: "generated song",
          referenceType: "gen-song",
          idempotencyKey: key,
        },
        now,
      );
      if (held.transaction.referenceId)
        return { holdId: held.transaction.id, uploadId: held.transaction.referenceId, fresh: false };
      const [upload] = await tx
        .insert(schema.songUploads)
        .values({
          ownerUuid: user.uuid,
          originalName: `${body.title ?? body.prompt.slice(0, 60)}.mp3`,
          contentType: "audio/mpeg",
          tags: { title: body.title ?? body.prompt.slice(0, 60) },
          createdAt: now,
          updatedAt: now,
        })
        .returning();
      if (!upload) throw new Error("upload insert returned nothing");
      await tx
        .update(schema.tokenTransactions)
        .set({ referenceId: upload.id })
        .where(eq(schema.tokenTransactions.id, held.transaction.id));
      return { holdId: held.transaction.id, uploadId: upload.id, fresh: true };
    });
    if (started.fresh)
      void produce(deps, started.uploadId, started.holdId, {
        prompt: body.prompt,
        duration: body.duration,
        title: body.title ?? body.prompt.slice(0, 60),
        artist: profile?.nickname ?? "Booth",
      });
    return c.json({ id: started.uploadId, tokenCost: cost, holdId: started.holdId, status: "GENERATING" }, 202);
  },
);
