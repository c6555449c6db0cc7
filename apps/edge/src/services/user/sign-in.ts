import { type Db, schema } from "@booth/db";
import { and, eq } from "drizzle-orm";
import type { User } from "../../lib/auth.ts";
import { errorMessage } from "../../lib/error-codes.ts";

export const INCORRECT_LOGIN = errorMessage("INCORRECT_LOGIN");

export const MAGIC_LINK_SENT = "If this email is registered, a sign-in link has been sent to it.";

export const MAGIC_LINK_INVALID = errorMessage("MAGIC_LINK_INVALID");

export const MAGIC_LINK_TTL = 15 * 60;

/**
 * Password guesses: any address tries 50 logins per 15 minutes; one address guesses one account's password 10 times
 * per 15 minutes; all addresses together 100 times an hour, so a stranger cannot lock the owner out from elsewhere.
 */
export const LOGIN_LIMITS = {
  perAddressOverall: [50, 15 * 60],
  perAddress: [10, 15 * 60],
  perAccount: [100, 60 * 60],
} as const;

/** Sign-in links: 5 an hour asked from one address for one email, 20 an hour for that email from anywhere. */
export const MAGIC_LINK_LIMITS = { perAddress: [5, 60 * 60], perAccount: [20, 60 * 60] } as const;

/** Notes a sign-in; answers the updated user (null if it vanished meanwhile). */
export async function recordLogin(db: Db, userUuid: string, now: Date) {
  const [updated] = await db
    .update(schema.users)
    .set({ lastLoginAt: now })
    .where(eq(schema.users.uuid, userUuid))
    .returning();
  return updated ?? null;
}

/** A sign-in link followed proves the login address: the account and its pending email row become verified. */
export async function verifyLoginEmail(db: Db, user: User, now: Date) {
  await db.update(schema.users).set({ verifiedAt: now }).where(eq(schema.users.uuid, user.uuid));
  await db
    .update(schema.emails)
    .set({ status: "VERIFIED", verifiedAt: now })
    .where(
      and(
        eq(schema.emails.userUuid, user.uuid),
        eq(schema.emails.email, user.email ?? ""),
        eq(schema.emails.status, "PENDING_VERIFICATION"),
      ),
    );
}
