import { schema } from "@booth/db";
import { ModerationActionType, values } from "@booth/db/schema";
import { z } from "@hono/zod-openapi";
import { columnSchemas } from "../../lib/column-schemas.ts";
import { isoOrNull } from "../../lib/json-rows.ts";
import { Timestamps } from "../../lib/openapi.ts";
import { EventStream } from "./event-names.ts";

export const AnalyticsEventSchema = z
  .object({
    id: z.uuid(),
    topic: z.string().openapi({ description: "The event's name, one of the user or socket event names" }),
    stream: z.enum(Object.values(EventStream)).openapi({ description: "user-events or socket-events" }),
    userUuid: z.uuid().nullable(),
    data: z.record(z.string(), z.unknown()).nullable(),
    createdAt: z.string(),
  })
  .openapi("AnalyticsEvent");

type EventRow = typeof schema.analyticsEvents.$inferSelect;
/** `analytics_events.name` is the event (the spec's "topic"); `analytics_events.topic` is its stream. */
export const eventView = (row: EventRow): z.infer<typeof AnalyticsEventSchema> => ({
  id: row.id,
  topic: row.name,
  stream: row.topic === EventStream.socket ? EventStream.socket : EventStream.user,
  userUuid: row.userUuid,
  data: (row.payload as Record<string, unknown> | null) ?? null,
  createdAt: row.createdAt.toISOString(),
});

export const ModerationActionSchema = z
  .object({
    id: z.uuid(),
    actionType: z.enum(values(ModerationActionType)),
    ...columnSchemas(schema.moderationActions, "moderatorUuid", "targetUuid", "roomUuid", "role", "reason"),
    expiresAt: z.string().nullable(),
    metadata: z.record(z.string(), z.unknown()).nullable(),
    ...Timestamps,
  })
  .openapi("ModerationAction");

type ActionRow = typeof schema.moderationActions.$inferSelect;
export const moderationActionView = (row: ActionRow): z.infer<typeof ModerationActionSchema> => ({
  id: row.id,
  actionType: row.actionType,
  moderatorUuid: row.moderatorUuid,
  targetUuid: row.targetUuid,
  roomUuid: row.roomUuid,
  role: row.role,
  reason: row.reason,
  expiresAt: isoOrNull(row.expiresAt),
  metadata: (row.metadata as Record<string, unknown> | null) ?? null,
  createdAt: row.createdAt.toISOString(),
  updatedAt: row.updatedAt.toISOString(),
});

/** A JSON object of free data (event data, action metadata), capped so one row stays small. */
export const MAX_DATA_CHARS = 16_384;
export const MAX_DATA_DEPTH = 16;

/** Postgres's jsonb refuses the NUL character, and deep nesting costs its parser stack: refuse both up front. */
function storableJson(value: unknown, depth = 0): boolean {
  if (depth > MAX_DATA_DEPTH) return false;
  if (typeof value === "string") return !value.includes("\u0000");
  if (Array.isArray(value)) return value.every((item) => storableJson(item, depth + 1));
  if (value && typeof value === "object")
    return Object.entries(value).every(([key, item]) => !key.includes("\u0000") && storableJson(item, depth + 1));
  return true;
}

export const FreeData = z
  .record(z.string(), z.unknown())
  .refine((value) => JSON.stringify(value).length <= MAX_DATA_CHARS, {
    message: `at most ${MAX_DATA_CHARS} characters of JSON`,
  })
  .refine((value) => storableJson(value), {
    message: `nested at most ${MAX_DATA_DEPTH} levels deep, without NUL characters`,
  });

/** Text for a Postgres text column, which cannot hold the NUL character. */
export const cleanText = (max: number) =>
  z
    .string()
    .trim()
    .max(max)
    .refine((s) => !s.includes("\u0000"), { message: "must not contain NUL characters" });
