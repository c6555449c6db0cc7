import { type Db, schema } from "@booth/db";
import { and, asc, eq, sql } from "drizzle-orm";
import type { Caller } from "../../lib/auth.ts";
import { uniqueOr } from "../../lib/db-errors.ts";
import { HttpError, notFound } from "../../lib/errors.ts";
import { returnedRow } from "../../lib/rows.ts";
import { moderate } from "./moderation.ts";

export const ALREADY_REQUESTED = "A deactivation request is already pending for this account.";
export const NO_PENDING_REQUEST = "This user has no pending deactivation request.";
export const NOT_DEACTIVATED = "This account is not deactivated.";
export const ALREADY_DEACTIVATED = "This account is already deactivated.";

type Request = typeof schema.deactivationRequests.$inferSelect;

export const requestView = (request: Request, email: string | null, nickname: string | null) => ({
  ...request,
  email,
  nickname,
  createdAt: request.createdAt.toISOString(),
});

/** The user asks for their account to be deactivated (one pending request at a time: else a 409). */
export async function requestDeactivation(db: Db, userUuid: string, reason: string | null, now: Date) {
  const row = await returnedRow(
    "request insert",
    uniqueOr(
      () =>
        db
          .insert(schema.deactivationRequests)
          .values({ userUuid, reason, status: "PENDING", createdAt: now })
          .returning(),
      () => new HttpError(409, ALREADY_REQUESTED),
    ),
  );
  const [profile] = await db
    .select({ nickname: schema.profiles.nickname })
    .from(schema.profiles)
    .where(eq(schema.profiles.userUuid, userUuid));
  return { request: row, nickname: profile?.nickname ?? null };
}

/** The pending requests, oldest first, with each user's email and nickname. */
export const pendingRequests = (db: Db, page: { limit: number; offset: number }) =>
  db
    .select({
      request: schema.deactivationRequests,
      email: schema.users.email,
      nickname: schema.profiles.nickname,
    })
    .from(schema.deactivationRequests)
    .innerJoin(schema.users, eq(schema.users.uuid, schema.deactivationRequests.userUuid))
    .leftJoin(schema.profiles, eq(schema.profiles.userUuid, schema.users.uuid))
    .where(eq(schema.deactivationRequests.status, "PENDING"))
    .orderBy(asc(schema.deactivationRequests.createdAt), asc(schema.deactivationRequests.id))
    .limit(page.limit)
    .offset(page.offset);

/** Cancels a user's pending request (a moderation step: only on someone the caller outranks); 404 if none. */
export async function cancelRequest(db: Db, caller: Caller, userUuid: string, now: Date) {
  const [cancelled] = await moderate(db, caller, userUuid, (tx, target) =>
    tx
      .update(schema.deactivationRequests)
      .set({ status: "CANCELLED", resolvedBy: caller.user.uuid, resolvedAt: now })
      .where(
        and(eq(schema.deactivationRequests.userUuid, target.uuid), eq(schema.deactivationRequests.status, "PENDING")),
      )
      .returning(),
  );
  if (!cancelled) throw notFound(NO_PENDING_REQUEST);
}

/** Deactivates an account: every token revoked, its pending request resolved. Answers the user's uuid. */
export function deactivateAccount(db: Db, caller: Caller, userUuid: string, now: Date) {
  return moderate(db, caller, userUuid, async (tx, target) => {
    if (target.deactivatedAt) throw new HttpError(409, ALREADY_DEACTIVATED);
    await tx
      .update(schema.users)
      .set({ deactivatedAt: now, tokenVersion: sql`${schema.users.tokenVersion} + 1`, updatedAt: now })
      .where(eq(schema.users.uuid, target.uuid));
    await tx
      .update(schema.deactivationRequests)
      .set({ status: "DEACTIVATED", resolvedBy: caller.user.uuid, resolvedAt: now })
      .where(
        and(eq(schema.deactivationRequests.userUuid, target.uuid), eq(schema.deactivationRequests.status, "PENDING")),
      );
    return target.uuid;
  });
}

export function reactivateAccount(db: Db, caller: Caller, userUuid: string, now: Date) {
  return moderate(db, caller, userUuid, async (tx, target) => {
    if (!target.deactivatedAt) throw new HttpError(409, NOT_DEACTIVATED);
    await tx
      .update(schema.users)
      .set({ deactivatedAt: null, updatedAt: now })
      .where(eq(schema.users.uuid, target.uuid));
  });
}
