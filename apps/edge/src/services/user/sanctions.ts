import { type Db, schema } from "@booth/db";
import { type AnyColumn, and, eq, gt, isNull, or } from "drizzle-orm";
import { firstRow } from "../../lib/rows.ts";

/** A sanction that bans while in force: permanent, or temporary and not yet expired, and not lifted. */
export const banInForce = (now: Date) =>
  and(
    isNull(schema.sanctions.liftedAt),
    or(
      eq(schema.sanctions.type, "ban"),
      and(eq(schema.sanctions.type, "temporaryBan"), gt(schema.sanctions.expiresAt, now)),
    ),
  );

/** A ban in force on the user. */
export const activeBanCondition = (userUuid: string | AnyColumn, now: Date) =>
  and(eq(schema.sanctions.userUuid, userUuid), banInForce(now));

export async function activeBan(db: Db, userUuid: string, now: Date) {
  return firstRow(db, schema.sanctions, activeBanCondition(userUuid, now));
}
