import { type Db, schema, type Tx } from "@booth/db";
import { and, desc, eq } from "drizzle-orm";
import { uniqueOr } from "../../lib/db-errors.ts";
import { eitherWay } from "../../lib/either-way.ts";
import { conflict, found, USER_NOT_FOUND } from "../../lib/errors.ts";
import { deleteFound, firstRow, returnedRow } from "../../lib/rows.ts";
import { profilesOf } from "../user/public.ts";
import { removeFriendship } from "./friendships.ts";
import { socialTarget } from "./relations.ts";

export const ALREADY_BLOCKED = "You have already blocked this user.";
export const NOT_BLOCKED = "You have not blocked this user.";

type Block = typeof schema.blockedUsers.$inferSelect;
type Profile = Awaited<ReturnType<typeof profilesOf>>[number];
const blockView = (row: Block, profile: Profile | undefined) => ({
  id: row.id,
  blockedUuid: row.blockedUuid,
  createdAt: row.createdAt.toISOString(),
  profile: profile ?? null,
});

/** Blocks a user: it ends any friendship, invitation and follow between them, in one transaction. */
export async function block(db: Db, blockerUuid: string, blockedUuid: string, now: Date) {
  await socialTarget(db, blockerUuid, blockedUuid, {
    self: "You cannot block yourself.",
    missing: USER_NOT_FOUND,
    blocked: null,
  });
  const row = await uniqueOr(
    () =>
      db.transaction(async (tx) => {
        const created = await returnedRow(
          "block insert",
          tx.insert(schema.blockedUsers).values({ blockerUuid, blockedUuid, createdAt: now }).returning(),
        );
        await removeFriendship(tx, blockerUuid, blockedUuid);
        await tx
          .delete(schema.friendInvitations)
          .where(
            eitherWay(schema.friendInvitations.fromUuid, schema.friendInvitations.toUuid, blockerUuid, blockedUuid),
          );
        await tx
          .delete(schema.djFans)
          .where(eitherWay(schema.djFans.fanUuid, schema.djFans.djUuid, blockerUuid, blockedUuid));
        return created;
      }),
    () => conflict(ALREADY_BLOCKED),
  );
  const [profile] = await profilesOf(db, [blockedUuid]);
  return blockView(row, profile);
}

/** The users someone has blocked, newest first, with their profiles. */
export async function blocksOf(db: Db | Tx, blockerUuid: string) {
  const rows = await db
    .select()
    .from(schema.blockedUsers)
    .where(eq(schema.blockedUsers.blockerUuid, blockerUuid))
    .orderBy(desc(schema.blockedUsers.createdAt));
  const profiles = new Map(
    (
      await profilesOf(
        db,
        rows.map((r) => r.blockedUuid),
      )
    ).map((p) => [p.uuid, p]),
  );
  return rows.map((r) => blockView(r, profiles.get(r.blockedUuid)));
}

/** Someone's block of one user, with that user's profile; a 404 when there is none. */
export async function blockOf(db: Db | Tx, blockerUuid: string, blockedUuid: string) {
  const row = await firstRow(
    db,
    schema.blockedUsers,
    and(eq(schema.blockedUsers.blockerUuid, blockerUuid), eq(schema.blockedUsers.blockedUuid, blockedUuid)),
  );
  const existing = found(row, NOT_BLOCKED);
  const [profile] = await profilesOf(db, [blockedUuid]);
  return blockView(existing, profile);
}

/** Lifts a block; a 404 when there was none. */
export async function unblock(db: Db | Tx, blockerUuid: string, blockedUuid: string) {
  const where = and(eq(schema.blockedUsers.blockerUuid, blockerUuid), eq(schema.blockedUsers.blockedUuid, blockedUuid));
  await deleteFound(db, schema.blockedUsers, where, NOT_BLOCKED);
}
