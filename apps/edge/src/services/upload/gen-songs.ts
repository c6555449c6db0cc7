import { type Db, schema } from "@booth/db";
import { eq } from "drizzle-orm";
import type { AppDeps } from "../../deps.ts";
import { errorMessage } from "../../lib/error-codes.ts";
import { found, HttpError } from "../../lib/errors.ts";
import { returnedRow } from "../../lib/rows.ts";
import { ACCOUNT_NOT_FOUND, findAccount, hold, inLedger, referTransaction, resolveHold } from "../merch/public.ts";
import { changeSong } from "../playlist/public.ts";
import { originalKey, publish, transcode, verify } from "./pipeline.ts";

/** Tokens a generated song costs for each started minute of it. */
export const TOKENS_PER_MINUTE = 10;
export const MISMATCHED_COST = errorMessage("mismatched-token-cost");

export const costOf = (seconds: number) => Math.ceil(seconds / 60) * TOKENS_PER_MINUTE;

/** A 409 when the client's quote is not today's cost. */
export function checkQuote(duration: number, tokenCost: number) {
  const cost = costOf(duration);
  if (tokenCost !== cost) throw new HttpError(409, MISMATCHED_COST, "mismatched-token-cost");
  return cost;
}

interface SongRequest {
  prompt: string;
  duration: number;
  title: string;
  artist: string;
}

/**
 * Makes the song, then commits the hold; any failure voids it, so tokens are spent only for a playable song. Runs as
 * a job ("generate-song"); a run after a worker died part-way finds the hold resolved or not and does the rest.
 */
export async function produce(deps: AppDeps, uploadId: string, holdId: string, request: SongRequest) {
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
      await changeSong(deps.db, published.songId, { isGenerated: true, description: request.prompt });
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

async function nickname(db: Db, userUuid: string) {
  const [profile] = await db
    .select({ nickname: schema.profiles.nickname })
    .from(schema.profiles)
    .where(eq(schema.profiles.userUuid, userUuid));
  return profile?.nickname ?? null;
}

/**
 * Holds the song's cost on the user's token account and starts making it after the answer. A retried request with the
 * same idempotency key answers the first one's upload and hold, and starts nothing.
 */
export async function startGeneration(
  deps: AppDeps,
  userUuid: string,
  body: { prompt: string; duration: number; title?: string | undefined },
  cost: number,
  idempotencyKey: string | undefined,
) {
  const { db, clock } = deps;
  const account = found(await findAccount(db, { userUuid }), ACCOUNT_NOT_FOUND);
  const artist = await nickname(db, userUuid);
  const now = clock.now();
  const title = body.title ?? body.prompt.slice(0, 60);
  const started = await inLedger(db, async (tx) => {
    const held = await hold(
      tx,
      {
        accountId: account.id,
        amount: cost,
        reason: "generated song",
        referenceType: "gen-song",
        idempotencyKey,
      },
      now,
    );
    if (held.transaction.referenceId)
      return { holdId: held.transaction.id, uploadId: held.transaction.referenceId, fresh: false };
    const upload = await returnedRow(
      "upload insert",
      tx
        .insert(schema.songUploads)
        .values({
          ownerUuid: userUuid,
          originalName: `${title}.mp3`,
          contentType: "audio/mpeg",
          tags: { title },
          createdAt: now,
          updatedAt: now,
        })
        .returning(),
    );
    await referTransaction(tx, held.transaction.id, upload.id);
    return { holdId: held.transaction.id, uploadId: upload.id, fresh: true };
  });
  if (started.fresh)
    await deps.jobs.send("generate-song", {
      uploadId: started.uploadId,
      holdId: started.holdId,
      prompt: body.prompt,
      duration: body.duration,
      title,
      artist: artist ?? "Booth",
    });
  return { id: started.uploadId, tokenCost: cost, holdId: started.holdId, status: "GENERATING" };
}
