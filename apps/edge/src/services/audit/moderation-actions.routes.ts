import { ModerationActionType, RoomRole, UserRole, values } from "@booth/db/schema";
import { z } from "@hono/zod-openapi";
import { CrudQuerySchema, CrudSelectionSchema, crudPageSchema } from "../../lib/crud/index.ts";
import { contracts, created, DateTime, jsonBody, noContentOr, ok, UuidParam } from "../../lib/openapi.ts";
import { MAX_BULK } from "./moderation-actions.ts";
import { cleanText, FreeData, ModerationActionSchema } from "./views.ts";

const { authed } = contracts(["Moderation actions"]);

const ProfileRef = z
  .object({ uuid: z.uuid(), nickname: z.string(), avatarId: z.string(), color: z.string() })
  .partial()
  .openapi("ModerationActionUser");
const ModerationActionItem = ModerationActionSchema.partial()
  .extend({ target: ProfileRef.nullable().optional(), moderator: ProfileRef.nullable().optional() })
  .openapi("ModerationActionItem");

// ---------------------------------------------------------------------------------------------------------------
// Input

const ROLES = [...new Set([...values(UserRole), ...values(RoomRole)])] as [string, ...string[]];
const Editable = z.object({
  actionType: z.enum(values(ModerationActionType)),
  targetUuid: z.uuid(),
  roomUuid: z.uuid().nullable().optional().openapi({ description: "The room, for an action taken in one" }),
  role: z.enum(ROLES).nullable().optional().openapi({ description: "The role granted or removed" }),
  reason: cleanText(1000).nullable().optional(),
  expiresAt: DateTime.nullable().optional(),
  metadata: FreeData.nullable().optional(),
});
const CreateBody = Editable.extend({
  moderatorUuid: z.uuid().nullable().optional().openapi({
    description: "Who took the action: the caller by default; only a service may name someone else",
  }),
})
  .strict()
  .openapi("ModerationActionInput");
const ReplaceBody = Editable.strict().openapi("ModerationActionReplace");
const PatchBody = Editable.partial()
  .strict()
  .refine((body) => Object.keys(body).length > 0, { message: "Nothing to change" })
  .openapi("ModerationActionPatch");
const BulkBody = z.object({ bulk: z.array(CreateBody).min(1).max(MAX_BULK) }).strict();

// ---------------------------------------------------------------------------------------------------------------
// Routes

export const listActions = authed("get", "/moderation-actions", {
  summary: "The moderation log, in the nestjsx/crud query syntax (moderators and above, services)",
  request: { query: CrudQuerySchema },
  responses: ok(crudPageSchema(ModerationActionItem).openapi("ModerationActionPage"), 400, 401, 403),
});

export const getAction = authed("get", "/moderation-actions/{id}", {
  summary: "One moderation action, with the same fields and join options (moderators and above, services)",
  request: { params: UuidParam, query: CrudSelectionSchema },
  responses: ok(ModerationActionItem, 400, 401, 403, 404),
});

export const recordAction = authed("post", "/moderation-actions", {
  summary: "Record a moderation action taken elsewhere (staff and above, services)",
  description:
    "Moderation done through the user service's routes is logged there, in the same transaction; this records " +
    "actions taken by other means (the live rooms, by hand).",
  request: jsonBody(CreateBody),
  responses: created(ModerationActionSchema, 400, 401, 403, 404),
});

export const recordActions = authed("post", "/moderation-actions/bulk", {
  summary: `Record up to ${MAX_BULK} moderation actions at once, all or none (staff and above, services)`,
  request: jsonBody(BulkBody.openapi("ModerationActionBulk")),
  responses: created(z.array(ModerationActionSchema), 400, 401, 403, 404),
});

export const patchAction = authed("patch", "/moderation-actions/{id}", {
  summary: "Correct some fields of a moderation action (staff and above, services)",
  request: { params: UuidParam, ...jsonBody(PatchBody) },
  responses: ok(ModerationActionSchema, 400, 401, 403, 404),
});

export const replaceAction = authed("put", "/moderation-actions/{id}", {
  summary: "Replace a moderation action's editable fields (staff and above, services)",
  description: "The moderator and the creation time stay; optional fields left out become null.",
  request: { params: UuidParam, ...jsonBody(ReplaceBody) },
  responses: ok(ModerationActionSchema, 400, 401, 403, 404),
});

export const eraseAction = authed("delete", "/moderation-actions/{id}", {
  summary: "Erase a moderation action from the log (admins)",
  request: { params: UuidParam },
  responses: noContentOr(400, 401, 403, 404),
});
