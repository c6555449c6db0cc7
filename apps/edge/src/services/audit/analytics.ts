import { type Db, schema, type Tx } from "@booth/db";
import { desc, eq } from "drizzle-orm";
import { badRequest, found } from "../../lib/errors.ts";
import { returnedRow } from "../../lib/rows.ts";
import { EVENT_NAMES, type EventName, streamOf } from "./event-names.ts";

export const SOCKET_EVENTS_ONLY_FROM_SERVICES = "Socket events are recorded by the live rooms only.";
export const OWN_EVENTS_ONLY = "You can only record your own events.";
/** Events one account, guest or service may post per minute. */
export const POST_LIMIT = 600;

/** Records an analytics event (its stream follows from its name). */
export async function recordEvent(
  db: Db | Tx,
  event: { name: EventName; userUuid: string | null; data: Record<string, unknown> | null },
  now: Date,
) {
  return returnedRow(
    "analytics event insert",
    db
      .insert(schema.analyticsEvents)
      .values({
        topic: streamOf(event.name),
        name: event.name,
        userUuid: event.userUuid,
        payload: event.data,
        createdAt: now,
      })
      .returning(),
  );
}

const KNOWN = new Set<string>(EVENT_NAMES);

/** The last recorded event of a name: a 400 for a name that is not an event's, a 404 when none was recorded. */
export async function lastEvent(db: Db | Tx, name: string) {
  if (!KNOWN.has(name))
    throw badRequest(
      `name: "${name.slice(0, 60)}" is not a known event name (see /info-admin/user-events-names and /info-admin/socket-events-names).`,
    );
  const [row] = await db
    .select()
    .from(schema.analyticsEvents)
    .where(eq(schema.analyticsEvents.name, name as EventName))
    .orderBy(desc(schema.analyticsEvents.createdAt), desc(schema.analyticsEvents.id))
    .limit(1);
  return found(row, `No ${name} event has been recorded.`);
}
