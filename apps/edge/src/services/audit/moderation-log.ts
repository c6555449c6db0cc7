import { schema, type Tx } from "@booth/db";
import type { ModerationActionType } from "@booth/db/schema";
import { orNull } from "../../lib/or-null.ts";

/** Every global moderation step is also written to the audit service's moderation log, in the same transaction. */
export const logModeration = (
  tx: Tx,
  entry: { actionType: ModerationActionType; moderatorUuid: string; targetUuid: string; now: Date } & Partial<{
    role: string;
    reason: string | null;
    expiresAt: Date | null;
    roomUuid: string;
  }>,
) =>
  tx.insert(schema.moderationActions).values({
    actionType: entry.actionType,
    moderatorUuid: entry.moderatorUuid,
    targetUuid: entry.targetUuid,
    ...orNull(entry, "roomUuid", "role", "reason", "expiresAt"),
    createdAt: entry.now,
    updatedAt: entry.now,
  });
