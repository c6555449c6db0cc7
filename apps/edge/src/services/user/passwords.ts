import { type Db, schema } from "@booth/db";
import { eq, sql } from "drizzle-orm";
import { errorMessage } from "../../lib/error-codes.ts";
import { hashPassword } from "../../lib/password.ts";

export const CANNOT_RESET = errorMessage("PASSWORD_RESET_REFUSED");
export const RESET_SENT = "If this email is registered, a link to reset the password has been sent to it.";
export const WRONG_CURRENT_PASSWORD = errorMessage("WRONG_CURRENT_PASSWORD");
export const RESET_TTL = 3600;

/** Sets a new password and revokes every token issued before; answers the updated user (null if none). */
export async function changePassword(db: Db, userUuid: string, password: string, now: Date) {
  const [updated] = await db
    .update(schema.users)
    .set({
      passwordHash: await hashPassword(password),
      tokenVersion: sql`${schema.users.tokenVersion} + 1`,
      updatedAt: now,
    })
    .where(eq(schema.users.uuid, userUuid))
    .returning();
  return updated ?? null;
}
