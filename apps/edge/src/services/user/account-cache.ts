import { type Db, schema } from "@booth/db";
import { and, eq, getTableColumns, isNull, sql } from "drizzle-orm";
import type { User } from "../../lib/auth.ts";
import type { Cache } from "../../ports/cache.ts";

/**
 * How long an account's entry lives in the shared cache. Every change the edge makes to an account, its profile or
 * its sanctions forgets the entry at once (forgetAccount); the expiry bounds what no such call sees: a change made in
 * the database by hand, or a read that refilled the entry with the row as it was just before a change committed.
 */
export const ACCOUNT_CACHE_SECONDS = 60;

const key = (uuid: string) => `account:${uuid}`;

interface Entry {
  /** The account as a signed-in request sees it (lib/auth.ts User): its row without the password hash. */
  user: User;
  /** The user's fields that are dates (JSON carries them as strings). */
  dates: string[];
  /** A permanent ban in force. */
  banned: boolean;
  /** The latest end of a temporary ban not lifted, in ms since the epoch (compared with the clock at each request). */
  banUntil: number | null;
}

const { passwordHash: _, ...accountColumns } = getTableColumns(schema.users);

/** The account and where its bans stand, in one round trip. */
async function loadAccount(db: Db, uuid: string): Promise<Entry | null> {
  const notLifted = (type: "ban" | "temporaryBan") =>
    and(
      eq(schema.sanctions.userUuid, schema.users.uuid),
      isNull(schema.sanctions.liftedAt),
      eq(schema.sanctions.type, type),
    );
  const [row] = await db
    .select({
      ...accountColumns,
      banned: sql<boolean>`exists (${db.select({ one: sql`1` }).from(schema.sanctions).where(notLifted("ban"))})`,
      banUntil: sql<string | null>`(${db
        .select({ until: sql`extract(epoch from max(${schema.sanctions.expiresAt}))` })
        .from(schema.sanctions)
        .where(notLifted("temporaryBan"))})`,
    })
    .from(schema.users)
    .where(eq(schema.users.uuid, uuid))
    .limit(1);
  if (!row) return null;
  const { banned, banUntil, ...user } = row;
  const dates = Object.entries(user)
    .filter(([, value]) => value instanceof Date)
    .map(([name]) => name);
  return { user, dates, banned: !!banned, banUntil: banUntil === null ? null : Number(banUntil) * 1000 };
}

function revive(json: string): Entry {
  const entry = JSON.parse(json) as Entry;
  const user = entry.user as unknown as Record<string, unknown>;
  for (const name of entry.dates) user[name] = new Date(user[name] as string);
  return entry;
}

/**
 * The account `uuid` names and whether a ban is in force on it now, from the shared cache when it is there (every edge
 * instance reads the same entry, and every change forgets it), else from the database. Null for no such account.
 */
export async function readAccount(deps: { db: Db; cache: Cache }, uuid: string, now: Date) {
  const cached = await deps.cache.get(key(uuid));
  let entry = cached ? revive(cached) : null;
  if (!entry) {
    entry = await loadAccount(deps.db, uuid);
    if (!entry) return null;
    await deps.cache.set(key(uuid), JSON.stringify(entry), ACCOUNT_CACHE_SECONDS);
  }
  const banned = entry.banned || (entry.banUntil !== null && entry.banUntil > now.getTime());
  return { user: entry.user, banned };
}

/**
 * Forgets what the cache holds of an account: call it after every change to the account's row, its profile or its
 * sanctions has committed (a ban, a role, a deactivation, a new password, a token revocation), so the next request
 * on any edge instance reads the change.
 */
export async function forgetAccount(cache: Cache, uuid: string) {
  await cache.del(key(uuid));
}
