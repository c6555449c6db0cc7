import { Capability, values } from "@booth/db/schema";
import { createRoute, z } from "@hono/zod-openapi";
import { bearer, DateTime, errors, json, jsonBody, UuidParam } from "../../lib/openapi.ts";
import type { Sanction } from "./moderation.ts";
import { RoleSchema, UserSchema } from "./schemas.ts";

const tags = ["Moderation"];

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

export const unban = createRoute({
  method: "post",
  path: "/users/unban",
  tags,
  summary: "Lift every ban in force on a user",
  security: bearer,
  request: jsonBody(z.object({ userUuid: z.uuid() })),
  responses: {
    200: json(z.object({ lifted: z.number().int() }).openapi("Unbanned")),
    ...errors(400, 401, 403, 404, 409),
  },
});

export const addRole = createRoute({
  method: "post",
  path: "/users/add-role",
  tags,
  summary: "Grant a global role (admins; only a superUser grants admin or superUser)",
  security: bearer,
  request: jsonBody(z.object({ userUuid: z.uuid(), role: RoleSchema })),
  responses: { 200: json(UserSchema), ...errors(400, 401, 403, 404) },
});

export const addGlobalModeratorRole = createRoute({
  method: "post",
  path: "/users/add-global-moderator-role",
  tags,
  summary: "Grant the globalModerator role (staff and above)",
  security: bearer,
  request: jsonBody(z.object({ userUuid: z.uuid() })),
  responses: { 200: json(UserSchema), ...errors(400, 401, 403, 404) },
});

const CapabilityParams = z.object({
  id: z.uuid().openapi({ param: { name: "id", in: "path" } }),
  capability: z.enum(values(Capability)).openapi({ param: { name: "capability", in: "path" } }),
});

export const addCapability = createRoute({
  method: "put",
  path: "/users/{id}/capabilities/{capability}",
  tags,
  summary: "Give a user a capability (uploadMusic, promoteRoom)",
  security: bearer,
  request: { params: CapabilityParams },
  responses: { 200: json(UserSchema), ...errors(400, 401, 403, 404) },
});

export const removeCapability = createRoute({
  method: "delete",
  path: "/users/{id}/capabilities/{capability}",
  tags,
  summary: "Take a capability away from a user",
  security: bearer,
  request: { params: CapabilityParams },
  responses: { 200: json(UserSchema), ...errors(400, 401, 403, 404) },
});

const CommentSchema = z
  .object({ id: z.uuid(), userUuid: z.uuid(), authorUuid: z.uuid(), comment: z.string(), createdAt: z.string() })
  .openapi("ModerationComment");

export const addComment = createRoute({
  method: "post",
  path: "/moderation-comments",
  tags,
  summary: "A moderator's note about a user",
  security: bearer,
  request: jsonBody(z.object({ userUuid: z.uuid(), comment: z.string().trim().min(1).max(2000) })),
  responses: { 201: json(CommentSchema, "Created"), ...errors(400, 401, 403, 404) },
});

export const listComments = createRoute({
  method: "get",
  path: "/moderation-comments/{id}",
  tags,
  summary: "The moderators' notes about user {id}, newest first",
  security: bearer,
  request: { params: UuidParam },
  responses: { 200: json(z.array(CommentSchema)), ...errors(400, 401, 403) },
});
