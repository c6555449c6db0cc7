import { AvatarAssignmentType, AvatarStatus, values } from "@booth/db/schema";
import { createRoute, z } from "@hono/zod-openapi";
import { bearer, errors, Int, json, jsonBody, noContent } from "../../lib/openapi.ts";

const tags = ["Avatars"];

const AvatarSchema = z
  .object({
    slug: z.string(),
    name: z.string(),
    avatarStatus: z.enum(values(AvatarStatus)),
    seasonId: z.uuid().nullable(),
    minPoints: z.number().int().nullable(),
    discordOnly: z.boolean(),
    imageUrl: z.string().nullable(),
    createdAt: z.string(),
  })
  .openapi("Avatar");
const AssignmentSchema = z
  .object({
    id: z.uuid(),
    avatarSlug: z.string(),
    userUuid: z.uuid(),
    assignmentType: z.enum(values(AvatarAssignmentType)),
    createdAt: z.string(),
  })
  .openapi("AvatarAssignment");

const Slug = z.string().regex(/^[a-z0-9][a-z0-9-]{0,62}$/, "lower-case letters, digits and '-'");
const SlugParam = z.object({ slug: Slug.openapi({ param: { name: "slug", in: "path" } }) });
const AvatarBody = z.object({
  slug: Slug,
  name: z.string().trim().min(1).max(100),
  avatarStatus: z.enum(values(AvatarStatus)).default("PUBLIC"),
  seasonId: z.uuid().nullable().optional(),
  minPoints: Int.min(1).nullable().optional(),
  discordOnly: z.boolean().default(false),
  fileId: z.uuid().nullable().optional(),
});

export const createAvatar = createRoute({
  method: "post",
  path: "/avatars",
  tags,
  summary: "Create an avatar (admins)",
  security: bearer,
  request: jsonBody(AvatarBody),
  responses: { 201: json(AvatarSchema, "Created"), ...errors(400, 401, 403, 409) },
});

export const wearableAvatars = createRoute({
  method: "get",
  path: "/avatars",
  tags,
  summary: "The avatars the caller may wear: public ones and those assigned to them",
  security: bearer,
  responses: { 200: json(z.array(AvatarSchema)), ...errors(401, 403) },
});

const publicList = (path: "/all-avatars" | "/avatars/subscriber", summary: string) =>
  createRoute({ method: "get", path, tags, summary, responses: { 200: json(z.array(AvatarSchema)) } });
export const visibleAvatars = publicList("/all-avatars", "Every avatar that is not private");
export const subscriberAvatars = publicList("/avatars/subscriber", "The avatars subscribers may wear");

export const avatarImages = createRoute({
  method: "get",
  path: "/avatar-images",
  tags,
  summary: "The picture of every avatar that has one, by slug (not in the spec: the web draws people with it)",
  responses: {
    200: json(z.object({ images: z.record(z.string(), z.string()) }).openapi("AvatarImages")),
  },
});

export const getAvatar = createRoute({
  method: "get",
  path: "/avatars/{slug}",
  tags,
  summary: "One avatar (private ones to staff only)",
  request: { params: SlugParam },
  responses: { 200: json(AvatarSchema), ...errors(400, 404) },
});

export const mayWear = createRoute({
  method: "get",
  path: "/avatars/{slug}/{uuid}",
  tags,
  summary: "Whether user {uuid} may wear avatar {slug}",
  request: { params: SlugParam.extend({ uuid: z.uuid().openapi({ param: { name: "uuid", in: "path" } }) }) },
  responses: {
    200: json(
      z
        .object({
          slug: z.string(),
          userUuid: z.uuid(),
          allowed: z.boolean(),
          assignment: AssignmentSchema.nullable(),
        })
        .openapi("AvatarAllowed"),
    ),
    ...errors(400, 404),
  },
});

export const updateAvatar = createRoute({
  method: "patch",
  path: "/avatars/{slug}",
  tags,
  summary: "Change an avatar (admins)",
  security: bearer,
  request: { params: SlugParam, ...jsonBody(AvatarBody.omit({ slug: true }).partial()) },
  responses: { 200: json(AvatarSchema), ...errors(400, 401, 403, 404) },
});

const deleteAt = (path: "/avatars/{slug}" | "/admin/avatars/{slug}") =>
  createRoute({
    method: "delete",
    path,
    tags,
    summary: "Delete an avatar and its assignments (admins)",
    security: bearer,
    request: { params: SlugParam },
    responses: { ...noContent, ...errors(400, 401, 403, 404) },
  });
export const deleteAvatar = deleteAt("/avatars/{slug}");
export const adminDeleteAvatar = deleteAt("/admin/avatars/{slug}");

export const adminListAvatars = createRoute({
  method: "get",
  path: "/admin/avatars",
  tags,
  summary: "Every avatar, private ones included (staff)",
  security: bearer,
  responses: { 200: json(z.array(AvatarSchema)), ...errors(401, 403) },
});

export const adminGetAvatar = createRoute({
  method: "get",
  path: "/admin/avatars/{slug}",
  tags,
  summary: "One avatar (staff)",
  security: bearer,
  request: { params: SlugParam },
  responses: { 200: json(AvatarSchema), ...errors(400, 401, 403, 404) },
});

export const serviceGetAvatar = createRoute({
  method: "get",
  path: "/service/avatar/{avatarSlug}",
  tags: ["Service"],
  summary: "One avatar (services)",
  security: bearer,
  request: { params: z.object({ avatarSlug: Slug.openapi({ param: { name: "avatarSlug", in: "path" } }) }) },
  responses: { 200: json(AvatarSchema), ...errors(400, 401, 403, 404) },
});

// ---- assignments

export const assignAvatar = createRoute({
  method: "post",
  path: "/avatar-assignment/{slug}",
  tags,
  summary: "Give a user an avatar (admins or services)",
  security: bearer,
  request: {
    params: SlugParam,
    ...jsonBody(
      z.object({ userUuid: z.uuid(), assignmentType: z.enum(values(AvatarAssignmentType)).default("MANUAL") }),
    ),
  },
  responses: { 201: json(AssignmentSchema, "Created"), ...errors(400, 401, 403, 404, 409) },
});

export const removeAssignment = createRoute({
  method: "delete",
  path: "/avatar-assignment/{avatarAssignmentId}",
  tags,
  summary: "Take an avatar back (admins)",
  security: bearer,
  request: {
    params: z.object({ avatarAssignmentId: z.uuid().openapi({ param: { name: "avatarAssignmentId", in: "path" } }) }),
  },
  responses: { ...noContent, ...errors(400, 401, 403, 404) },
});

// ---- season awards

export const handleSeasonPoints = createRoute({
  method: "post",
  path: "/points/season/admin/handle-points",
  tags: ["Seasons"],
  summary: "Close an ended season: award its avatars to those who earned them (admins; once per season)",
  security: bearer,
  request: jsonBody(z.object({ seasonId: z.uuid() })),
  responses: {
    200: json(z.object({ seasonId: z.uuid(), awarded: z.number().int() }).openapi("SeasonHandled")),
    ...errors(400, 401, 403, 404, 409),
  },
});

export const backfillSeasonAvatars = createRoute({
  method: "post",
  path: "/points/backfill-achieved-avatars/{seasonId}",
  tags: ["Seasons"],
  summary: "Give a season's award avatars to those who have reached them and lack them (admins)",
  security: bearer,
  request: {
    params: z.object({ seasonId: z.uuid().openapi({ param: { name: "seasonId", in: "path" } }) }),
    query: z.object({ limit: z.coerce.number().int().min(1).max(10_000).default(1000) }),
  },
  responses: {
    200: json(z.object({ seasonId: z.uuid(), awarded: z.number().int() }).openapi("AvatarsBackfilled")),
    ...errors(400, 401, 403, 404),
  },
});
