import { sql } from "drizzle-orm";
import { boolean, index, integer, jsonb, pgTable, text, timestamp, uniqueIndex, uuid } from "drizzle-orm/pg-core";
import { cascadeRef, createdAt, id, storedFile, timestamps } from "./columns.ts";
import {
  AuthChannel,
  Badge,
  Capability,
  CodePurpose,
  DeactivationStatus,
  EmailStatus,
  EmailType,
  IdentityChannel,
  ImageType,
  LinkedProvider,
  OutboxChannel,
  PhoneValidationStatus,
  SanctionType,
  UserRole,
  VoucherStatus,
  values,
} from "./enums.ts";

export const users = pgTable(
  "users",
  {
    uuid: id(),
    // The login email, lower-cased. Null for bots and phone-only accounts.
    email: text(),
    passwordHash: text(),
    roles: text({ enum: values(UserRole) })
      .array()
      .notNull()
      .default(sql`'{user}'::text[]`),
    badges: text({ enum: values(Badge) })
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
    capabilities: text({ enum: values(Capability) })
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
    botOwnerUuid: uuid(),
    // Bumped to invalidate every token issued before (password change, global kick, bot token rotation).
    tokenVersion: integer().notNull().default(0),
    verifiedAt: timestamp({ withTimezone: true }),
    deactivatedAt: timestamp({ withTimezone: true }),
    lastLoginAt: timestamp({ withTimezone: true }),
    ...timestamps(),
  },
  (t) => [uniqueIndex("users_email_key").on(t.email)],
);
/** A user's row, as the edge reads it. */
export type UserRow = typeof users.$inferSelect;

export const profiles = pgTable(
  "profiles",
  {
    userUuid: uuid()
      .primaryKey()
      .references(() => users.uuid, { onDelete: "cascade" }),
    nickname: text().notNull(),
    color: text().notNull().default("#8B5CF6"),
    avatarId: text().notNull().default("default"),
    firstName: text(),
    lastName: text(),
    pronoun: text(),
    displayPronouns: boolean().notNull().default(false),
    songOfTheWeek: text(),
    zodiac: text(),
    bio: text(),
    profilePicture: text(),
    coverPicture: text(),
    facebook: text(),
    instagram: text(),
    twitter: text(),
    snapchat: text(),
    tiktok: text(),
    priceForGig: integer(),
    allowExplicitAudio: boolean().notNull().default(false),
    musicProviders: text().array().notNull().default(sql`'{}'::text[]`),
    ...timestamps(),
  },
  (t) => [uniqueIndex("profiles_nickname_key").on(sql`lower(${t.nickname})`)],
);

export const emails = pgTable(
  "emails",
  {
    id: id(),
    userUuid: cascadeRef(() => users.uuid),
    email: text().notNull(),
    type: text({ enum: values(EmailType) }).notNull(),
    status: text({ enum: values(EmailStatus) }).notNull(),
    verifiedAt: timestamp({ withTimezone: true }),
    lastSentAt: timestamp({ withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex("emails_live_email_key").on(t.email).where(sql`${t.status} <> 'DELETED'`),
    index("emails_user_idx").on(t.userUuid),
  ],
);

// A user's verified contact channels. A phone identity is a user identity on the sms channel.
export const userIdentities = pgTable(
  "user_identities",
  {
    id: id(),
    userUuid: cascadeRef(() => users.uuid),
    channel: text({ enum: values(IdentityChannel) }).notNull(),
    value: text().notNull(),
    verified: boolean().notNull().default(false),
    verifiedAt: timestamp({ withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex("user_identities_user_value_key").on(t.userUuid, t.channel, t.value),
    index("user_identities_value_idx").on(t.channel, t.value),
  ],
);

export const phoneWhitelist = pgTable("phone_whitelist", {
  id: id(),
  phone: text().notNull().unique(),
  note: text(),
  createdBy: uuid(),
  createdAt: createdAt(),
});

export const phoneValidations = pgTable(
  "phone_validations",
  {
    id: id(),
    phone: text().notNull(),
    status: text({ enum: values(PhoneValidationStatus) }).notNull(),
    country: text(),
    lineType: text(),
    userUuid: uuid(),
    createdAt: createdAt(),
  },
  (t) => [index("phone_validations_created_idx").on(t.createdAt)],
);

export const images = pgTable("images", {
  id: id(),
  userUuid: cascadeRef(() => users.uuid),
  type: text({ enum: values(ImageType) }).notNull(),
  ...storedFile(),
  createdAt: createdAt(),
});

export const deactivationRequests = pgTable(
  "deactivation_requests",
  {
    id: id(),
    userUuid: cascadeRef(() => users.uuid),
    reason: text(),
    status: text({ enum: values(DeactivationStatus) }).notNull(),
    resolvedBy: uuid(),
    resolvedAt: timestamp({ withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex("deactivation_requests_pending_key").on(t.userUuid).where(sql`${t.status} = 'PENDING'`)],
);

export const sanctions = pgTable(
  "sanctions",
  {
    id: id(),
    userUuid: cascadeRef(() => users.uuid),
    type: text({ enum: values(SanctionType) }).notNull(),
    reason: text(),
    expiresAt: timestamp({ withTimezone: true }),
    createdBy: uuid(),
    liftedAt: timestamp({ withTimezone: true }),
    liftedBy: uuid(),
    createdAt: createdAt(),
  },
  (t) => [index("sanctions_user_idx").on(t.userUuid)],
);

export const moderationComments = pgTable(
  "moderation_comments",
  {
    id: id(),
    userUuid: cascadeRef(() => users.uuid),
    authorUuid: uuid().notNull(),
    comment: text().notNull(),
    createdAt: createdAt(),
  },
  (t) => [index("moderation_comments_user_idx").on(t.userUuid)],
);

export const vouchers = pgTable("vouchers", {
  id: id(),
  code: text().notNull().unique(),
  status: text({ enum: values(VoucherStatus) })
    .notNull()
    .default("PENDING"),
  note: text(),
  createdBy: uuid(),
  redeemedBy: uuid(),
  redeemedAt: timestamp({ withTimezone: true }),
  revokedAt: timestamp({ withTimezone: true }),
  createdAt: createdAt(),
});

// One-time codes: only a hash is stored; a code is used at most once and expires.
export const codes = pgTable(
  "codes",
  {
    id: id(),
    purpose: text({ enum: values(CodePurpose) }).notNull(),
    // What the code proves control of: an email address, a phone number, or a user uuid.
    target: text().notNull(),
    userUuid: uuid(),
    channel: text({ enum: values(AuthChannel) }),
    codeHash: text().notNull(),
    attempts: integer().notNull().default(0),
    expiresAt: timestamp({ withTimezone: true }).notNull(),
    usedAt: timestamp({ withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [index("codes_lookup_idx").on(t.purpose, t.target)],
);

// Outgoing email and SMS when no provider is configured; tests and the CLI read it.
export const outbox = pgTable(
  "outbox",
  {
    id: id(),
    channel: text({ enum: values(OutboxChannel) }).notNull(),
    to: text().notNull(),
    subject: text(),
    body: text().notNull(),
    payload: jsonb(),
    createdAt: createdAt(),
  },
  (t) => [index("outbox_to_idx").on(t.to)],
);

// One row per user and provider. Tokens are the user's own: only the user and service tokens ever read them.
export const providerAccounts = pgTable(
  "provider_accounts",
  {
    id: id(),
    userUuid: cascadeRef(() => users.uuid),
    provider: text({ enum: values(LinkedProvider) }).notNull(),
    // The account's id at the provider (Discord user id, Spotify user id), when the provider tells it.
    providerUserId: text(),
    displayName: text(),
    refreshToken: text(),
    accessToken: text(),
    accessTokenExpiresAt: timestamp({ withTimezone: true }),
    scope: text(),
    // Provider-specific extras (the Apple Music storefront).
    details: jsonb().$type<Record<string, unknown>>().notNull().default({}),
    ...timestamps(),
  },
  (t) => [
    uniqueIndex("provider_accounts_user_provider_key").on(t.userUuid, t.provider),
    // A Discord account signs in to one Booth account only.
    uniqueIndex("provider_accounts_discord_key").on(t.providerUserId).where(sql`${t.provider} = 'discord'`),
  ],
);
