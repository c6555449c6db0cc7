import { index, jsonb, pgTable, text, timestamp, uuid } from "drizzle-orm/pg-core";
import { ModerationActionType, values } from "./enums.ts";

const createdAt = () => timestamp({ withTimezone: true }).notNull().defaultNow();

/** Analytics events posted by clients and services (`POST /kinesis`). */
export const analyticsEvents = pgTable(
  "analytics_events",
  {
    id: uuid().primaryKey().defaultRandom(),
    /** The stream the event belongs to: `user-events` or `socket-events`. */
    topic: text().notNull(),
    /** The event itself (the API's `topic`): pageView, likedTrack, playedSong... */
    name: text().notNull(),
    userUuid: uuid(),
    payload: jsonb(),
    createdAt: createdAt(),
  },
  (t) => [
    index("analytics_events_name_idx").on(t.name, t.createdAt),
    index("analytics_events_user_idx").on(t.userUuid, t.createdAt),
  ],
);

/** The moderation log: every kick, ban, role change, globally or in a room. */
export const moderationActions = pgTable(
  "moderation_actions",
  {
    id: uuid().primaryKey().defaultRandom(),
    actionType: text({ enum: values(ModerationActionType) }).notNull(),
    moderatorUuid: uuid(),
    targetUuid: uuid().notNull(),
    roomUuid: uuid(),
    role: text(),
    reason: text(),
    expiresAt: timestamp({ withTimezone: true }),
    metadata: jsonb(),
    createdAt: createdAt(),
    updatedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index("moderation_actions_target_idx").on(t.targetUuid, t.createdAt)],
);

/** Errors reported through the error-reporting port when no provider is configured. */
export const errorReports = pgTable("error_reports", {
  id: uuid().primaryKey().defaultRandom(),
  service: text().notNull(),
  message: text().notNull(),
  stack: text(),
  context: jsonb(),
  createdAt: createdAt(),
});
