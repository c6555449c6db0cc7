import { type Db, schema, type Tx } from "@booth/db";
import { desc, eq } from "drizzle-orm";
import { eventView, moderationActionView } from "./views.ts";

/** The spec's label for a 401 on this call, to the letter. */
export const UNAUTHORIZED_ACTION = "Unauthorized to perform action";

/**
 * A user's recent actions: their analytics events and the moderation actions taken on them, newest first, `limit` of
 * each; who moderated is left out unless `showModerators`.
 */
export async function recentActions(db: Db | Tx, userUuid: string, limit: number, showModerators: boolean) {
  const [events, actions] = await Promise.all([
    db
      .select()
      .from(schema.analyticsEvents)
      .where(eq(schema.analyticsEvents.userUuid, userUuid))
      .orderBy(desc(schema.analyticsEvents.createdAt), desc(schema.analyticsEvents.id))
      .limit(limit),
    db
      .select()
      .from(schema.moderationActions)
      .where(eq(schema.moderationActions.targetUuid, userUuid))
      .orderBy(desc(schema.moderationActions.createdAt), desc(schema.moderationActions.id))
      .limit(limit),
  ]);
  return {
    userUuid,
    events: events.map(eventView),
    moderationActions: actions.map((row) => ({
      ...moderationActionView(row),
      moderatorUuid: showModerators ? row.moderatorUuid : null,
    })),
  };
}
