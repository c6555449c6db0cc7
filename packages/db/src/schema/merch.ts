import { sql } from "drizzle-orm";
import { boolean, check, index, integer, pgTable, text, timestamp, uniqueIndex, uuid } from "drizzle-orm/pg-core";
import { cascadeRef, createdAt, id, storedFile, timestamps, updatedAt } from "./columns.ts";
import {
  AvatarAssignmentType,
  AvatarStatus,
  ConsumableDisplayType,
  TokenAccountStatus,
  TokenTransactionType,
  values,
} from "./enums.ts";
import { users } from "./user.ts";

/**
 * A user's tokens. `balance` is what they may spend; `held` is set aside by holds until committed or voided. Both are
 * changed only by the ledger, in transactions that lock this row, and can never go negative.
 */
export const tokenAccounts = pgTable(
  "token_accounts",
  {
    id: id(),
    userUuid: cascadeRef(() => users.uuid).unique(),
    balance: integer().notNull().default(0),
    held: integer().notNull().default(0),
    status: text({ enum: values(TokenAccountStatus) })
      .notNull()
      .default("active"),
    ...timestamps(),
  },
  (t) => [
    check("token_accounts_balance_nonnegative", sql`${t.balance} >= 0`),
    check("token_accounts_held_nonnegative", sql`${t.held} >= 0`),
  ],
);

/** The ledger: every change to an account is one row. A hold is resolved by at most one commit or void row. */
export const tokenTransactions = pgTable(
  "token_transactions",
  {
    id: id(),
    accountId: cascadeRef(() => tokenAccounts.id),
    type: text({ enum: values(TokenTransactionType) }).notNull(),
    amount: integer().notNull(),
    /** For commit and voided rows: the hold they resolve. */
    holdId: uuid(),
    reason: text(),
    referenceType: text(),
    referenceId: text(),
    idempotencyKey: text(),
    balanceAfter: integer().notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    check("token_transactions_amount_positive", sql`${t.amount} > 0`),
    uniqueIndex("token_transactions_hold_resolved_key").on(t.holdId).where(sql`${t.holdId} is not null`),
    uniqueIndex("token_transactions_idempotency_key")
      .on(t.accountId, t.idempotencyKey)
      .where(sql`${t.idempotencyKey} is not null`),
    index("token_transactions_account_idx").on(t.accountId, t.createdAt),
  ],
);

/** Stored files of the merch service (consumable art, bundle thumbnails). */
export const merchFiles = pgTable("merch_files", {
  id: id(),
  ...storedFile(),
  createdAt: createdAt(),
});

export const consumables = pgTable(
  "consumables",
  {
    id: id(),
    name: text().notNull(),
    description: text(),
    tokenCost: integer().notNull(),
    displayType: text({ enum: values(ConsumableDisplayType) })
      .notNull()
      .default("small"),
    fileId: uuid().references(() => merchFiles.id, { onDelete: "set null" }),
    ...timestamps(),
  },
  (t) => [check("consumables_cost_positive", sql`${t.tokenCost} > 0`)],
);

export const consumablePurchases = pgTable(
  "consumable_purchases",
  {
    id: id(),
    accountId: cascadeRef(() => tokenAccounts.id),
    userUuid: uuid().notNull(),
    consumableId: uuid()
      .notNull()
      .references(() => consumables.id, { onDelete: "restrict" }),
    roomUuid: uuid().notNull(),
    tokenCost: integer().notNull(),
    holdId: uuid().notNull(),
    createdAt: createdAt(),
  },
  (t) => [index("consumable_purchases_room_idx").on(t.roomUuid, t.createdAt)],
);

export const tokenBundles = pgTable("token_bundles", {
  id: id(),
  productId: text().notNull().unique(),
  name: text().notNull(),
  tokens: integer().notNull(),
  thumbnailFileId: uuid().references(() => merchFiles.id, { onDelete: "set null" }),
  ...timestamps(),
});

/** A ranking season: points earned between start and end count for it. */
export const seasons = pgTable(
  "seasons",
  {
    id: id(),
    name: text().notNull().unique(),
    start: timestamp({ withTimezone: true }).notNull(),
    end: timestamp({ withTimezone: true }).notNull(),
    /** When the season's points were handled (its awards given). */
    handledAt: timestamp({ withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [check("seasons_start_before_end", sql`${t.start} < ${t.end}`), index("seasons_start_idx").on(t.start)],
);

/** A user's points in a season. */
export const rankingStatuses = pgTable(
  "ranking_statuses",
  {
    id: id(),
    userUuid: cascadeRef(() => users.uuid),
    seasonId: cascadeRef(() => seasons.id),
    balance: integer().notNull().default(0),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex("ranking_statuses_user_season_key").on(t.userUuid, t.seasonId),
    index("ranking_statuses_season_idx").on(t.seasonId, t.balance),
  ],
);

/** Each award of points; a play's points are awarded once (the key). */
export const pointAwards = pgTable(
  "point_awards",
  {
    id: id(),
    userUuid: uuid().notNull(),
    seasonId: cascadeRef(() => seasons.id),
    points: integer().notNull(),
    reason: text(),
    roomUuid: uuid(),
    awardKey: text(),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex("point_awards_key").on(t.awardKey).where(sql`${t.awardKey} is not null`)],
);

export const avatars = pgTable("avatars", {
  slug: text().primaryKey(),
  name: text().notNull(),
  status: text({ enum: values(AvatarStatus) })
    .notNull()
    .default("PUBLIC"),
  /** For SEASON_AWARD avatars: the season, and the points it takes to earn it there. */
  seasonId: uuid().references(() => seasons.id, { onDelete: "set null" }),
  minPoints: integer(),
  discordOnly: boolean().notNull().default(false),
  fileId: uuid().references(() => merchFiles.id, { onDelete: "set null" }),
  ...timestamps(),
});

export const avatarAssignments = pgTable(
  "avatar_assignments",
  {
    id: id(),
    avatarSlug: text()
      .notNull()
      .references(() => avatars.slug, { onDelete: "cascade", onUpdate: "cascade" }),
    userUuid: cascadeRef(() => users.uuid),
    assignmentType: text({ enum: values(AvatarAssignmentType) }).notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex("avatar_assignments_pair_key").on(t.avatarSlug, t.userUuid),
    index("avatar_assignments_user_idx").on(t.userUuid),
  ],
);
