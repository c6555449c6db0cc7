import { type Db, schema, type Tx } from "@booth/db";
import type { CodePurpose } from "@booth/db/schema";
import { and, desc, eq, gt, isNull } from "drizzle-orm";
import type { AppDeps } from "../../deps.ts";
import { sha256 } from "../../lib/hash.ts";
import { findUserByEmail } from "./accounts.ts";

/** Wrong guesses allowed on one code before it is burnt. */
export const MAX_CODE_ATTEMPTS = 5;

/** Six random digits, for codes a person types. */
export function numericCode() {
  const n = crypto.getRandomValues(new Uint32Array(1))[0] ?? 0;
  return String(n % 1_000_000).padStart(6, "0");
}

/** A long random token, for codes carried in links. */
export function linkToken() {
  const bytes = crypto.getRandomValues(new Uint8Array(32));
  return btoa(String.fromCharCode(...bytes))
    .replace(/\+/g, "-")
    .replace(/\//g, "_")
    .replace(/=+$/, "");
}

export async function issueCode(
  db: Db | Tx,
  input: {
    purpose: CodePurpose;
    target: string;
    code: string;
    now: Date;
    ttlSeconds: number;
    userUuid?: string | null;
    channel?: "sms" | "whatsapp" | null;
  },
) {
  // A new code replaces the ones still open for the same purpose and target.
  await db
    .update(schema.codes)
    .set({ usedAt: input.now })
    .where(
      and(eq(schema.codes.purpose, input.purpose), eq(schema.codes.target, input.target), isNull(schema.codes.usedAt)),
    );
  await db.insert(schema.codes).values({
    purpose: input.purpose,
    target: input.target,
    userUuid: input.userUuid ?? null,
    channel: input.channel ?? null,
    codeHash: await sha256(input.code),
    expiresAt: new Date(input.now.getTime() + input.ttlSeconds * 1000),
    createdAt: input.now,
  });
}

/**
 * Uses the open code for purpose and target if `code` matches: marks it used (at most once, even under concurrent
 * checks) and returns it. A wrong guess counts an attempt; `maxAttempts` of them burn the code (null: never, for
 * codes anyone may guess at, whose guesses the caller limits per address instead, so a stranger cannot burn them).
 */
export async function consumeCode(
  db: Db,
  input: { purpose: CodePurpose; target: string; code: string; now: Date; maxAttempts?: number | null },
) {
  const maxAttempts = input.maxAttempts === undefined ? MAX_CODE_ATTEMPTS : input.maxAttempts;
  const [open] = await db
    .select()
    .from(schema.codes)
    .where(
      and(
        eq(schema.codes.purpose, input.purpose),
        eq(schema.codes.target, input.target),
        isNull(schema.codes.usedAt),
        gt(schema.codes.expiresAt, input.now),
      ),
    )
    .orderBy(desc(schema.codes.createdAt))
    .limit(1);
  if (!open) return null;
  if (open.codeHash !== (await sha256(input.code))) {
    const attempts = open.attempts + 1;
    await db
      .update(schema.codes)
      .set({ attempts, ...(maxAttempts !== null && attempts >= maxAttempts ? { usedAt: input.now } : {}) })
      .where(eq(schema.codes.id, open.id));
    return null;
  }
  const [used] = await db
    .update(schema.codes)
    .set({ usedAt: input.now })
    .where(and(eq(schema.codes.id, open.id), isNull(schema.codes.usedAt)))
    .returning();
  return used ?? null;
}

/** Finds and uses a code that is its own lookup key (magic links, reset links). */
export async function consumeLinkToken(db: Db, input: { purpose: CodePurpose; token: string; now: Date }) {
  const [used] = await db
    .update(schema.codes)
    .set({ usedAt: input.now })
    .where(
      and(
        eq(schema.codes.purpose, input.purpose),
        eq(schema.codes.codeHash, await sha256(input.token)),
        isNull(schema.codes.usedAt),
        gt(schema.codes.expiresAt, input.now),
      ),
    )
    .returning();
  return used ?? null;
}

/**
 * Mails the account of `address` a one-time link for `purpose` (a sign-in link, a password reset) that works for
 * `ttlSeconds`; `mail` words it around the token. Nothing for an address without an active account, and the caller
 * answers the same either way.
 */
export async function mailLink(
  deps: Pick<AppDeps, "db" | "clock" | "mailer">,
  address: string,
  link: { purpose: CodePurpose; ttlSeconds: number },
  mail: (token: string) => { subject: string; text: string },
) {
  const user = await findUserByEmail(deps.db, address);
  if (!user || user.deactivatedAt) return;
  const token = linkToken();
  await issueCode(deps.db, {
    purpose: link.purpose,
    target: user.uuid,
    userUuid: user.uuid,
    code: token,
    now: deps.clock.now(),
    ttlSeconds: link.ttlSeconds,
  });
  await deps.mailer.send({ to: address, ...mail(token) });
}
