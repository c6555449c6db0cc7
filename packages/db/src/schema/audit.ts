import { index, jsonb, pgTable, text, timestamp, uuid } from "drizzle-orm/pg-core";
import { createdAt, id, timestamps } from "./columns.ts";
import { ModerationActionType, values } from "./enums.ts";

/** Analytics events posted by clients and services (`POST /kinesis`). */
export const analyticsEvents = pgTable(
  "analytics_events",
  {
    id: id(),
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
    id: id(),
    actionType: text({ enum: values(ModerationActionType) }).notNull(),
    moderatorUuid: uuid(),
    targetUuid: uuid().notNull(),
    roomUuid: uuid(),
    role: text(),
    reason: text(),
    expiresAt: timestamp({ withTimezone: true }),
    metadata: jsonb(),
    ...timestamps(),
  },
  (t) => [index("moderation_actions_target_idx").on(t.targetUuid, t.createdAt)],
);

/** Errors reported through the error-reporting port when no provider is configured. */
export const errorReports = pgTable("error_reports", {
  id: id(),
  service: text().notNull(),
  message: text().notNull(),
  stack: text(),
  context: jsonb(),
  createdAt: createdAt(),
});
