import { Capability, values } from "@booth/db/schema";
import { createRoute, z } from "@hono/zod-openapi";
import { bearer, contracts, created, DateTime, errors, json, jsonBody, ok, UuidParam } from "../../lib/openapi.ts";
import type { Sanction } from "./moderation.ts";
import { RoleSchema, UserSchema } from "./schemas.ts";

const tags = ["Moderation"];
const { authed } = contracts(tags);

const SanctionSchema = z
  .object({
    id: z.uuid(),
    userUuid: z.uuid(),
    type: z.enum(["kick", "ban", "temporaryBan"]),
    reason: z.string().nullable(),
    expiresAt: z.string().nullable(),
    createdBy: z.uuid().nullable(),
    createdAt: z.string(),
  })
  .openapi("Sanction");

const Reason = z.string().trim().max(1000).optional();

function sanctionRoute<B extends z.ZodType>(path: string, type: Sanction["type"], summary: string, body: B) {
  return createRoute({
    method: "post",
    path,
    tags,
    summary,
    security: bearer,
    request: jsonBody(body),
    responses: { 201: json(SanctionSchema, "Created"), ...errors(400, 401, 403, 404) },
    description: `Records a \`${type}\` sanction and ends every session of the user, live rooms included: each room they are in sends them \`kickedFromRoom\` and closes their sockets.`,
  });
}

const TargetBody = z.object({ userUuid: z.uuid(), reason: Reason });

export const kick = sanctionRoute(
  "/users/kick",
  "kick",
  "Kick a user off the platform: every session ends; they may log in again",
  TargetBody,
);

export const ban = sanctionRoute("/users/ban", "ban", "Ban a user until unbanned", TargetBody);

const TemporaryBanBody = TargetBody.extend({
  expiresAt: DateTime.optional(),
  durationMinutes: z.number().int().min(1).max(525_600).optional(),
}).refine((b) => (b.expiresAt === undefined) !== (b.durationMinutes === undefined), {
  message: "give either expiresAt or durationMinutes",
  path: ["expiresAt"],
});

export const temporaryBan = sanctionRoute(
  "/users/temporary-ban",
  "temporaryBan",
  "Ban a user until a time",
  TemporaryBanBody,
);

export const unban = authed("post", "/users/unban", {
  summary: "Lift every ban in force on a user",
  request: jsonBody(z.object({ userUuid: z.uuid() })),
  responses: ok(z.object({ lifted: z.number().int() }).openapi("Unbanned"), 400, 401, 403, 404, 409),
});

export const addRole = authed("post", "/users/add-role", {
  summary: "Grant a global role (admins; only a superUser grants admin or superUser)",
  request: jsonBody(z.object({ userUuid: z.uuid(), role: RoleSchema })),
  responses: ok(UserSchema, 400, 401, 403, 404),
});

export const addGlobalModeratorRole = authed("post", "/users/add-global-moderator-role", {
  summary: "Grant the globalModerator role (staff and above)",
  request: jsonBody(z.object({ userUuid: z.uuid() })),
  responses: ok(UserSchema, 400, 401, 403, 404),
});

const CapabilityParams = z.object({
  id: z.uuid().openapi({ param: { name: "id", in: "path" } }),
  capability: z.enum(values(Capability)).openapi({ param: { name: "capability", in: "path" } }),
});

export const addCapability = authed("put", "/users/{id}/capabilities/{capability}", {
  summary: "Give a user a capability (uploadMusic, promoteRoom)",
  request: { params: CapabilityParams },
  responses: ok(UserSchema, 400, 401, 403, 404),
});

export const removeCapability = authed("delete", "/users/{id}/capabilities/{capability}", {
  summary: "Take a capability away from a user",
  request: { params: CapabilityParams },
  responses: ok(UserSchema, 400, 401, 403, 404),
});

const CommentSchema = z
  .object({ id: z.uuid(), userUuid: z.uuid(), authorUuid: z.uuid(), comment: z.string(), createdAt: z.string() })
  .openapi("ModerationComment");

export const addComment = authed("post", "/moderation-comments", {
  summary: "A moderator's note about a user",
  request: jsonBody(z.object({ userUuid: z.uuid(), comment: z.string().trim().min(1).max(2000) })),
  responses: created(CommentSchema, 400, 401, 403, 404),
});

export const listComments = authed("get", "/moderation-comments/{id}", {
  summary: "The moderators' notes about user {id}, newest first",
  request: { params: UuidParam },
  responses: ok(z.array(CommentSchema), 400, 401, 403),
});
