import { AvatarAssignmentType, AvatarStatus, values } from "@booth/db/schema";
import { z } from "@hono/zod-openapi";
import { adminContracts } from "../../lib/admin-resource.ts";
import { contracts, created, Int, json, jsonBody, noContentOr, ok, uuidParams } from "../../lib/openapi.ts";

const { authed, route } = contracts(["Avatars"]);

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

const catalogueAt = <const Path extends string>(path: Path) =>
  adminContracts({
    tags: ["Avatars"],
    path,
    item: AvatarSchema,
    body: AvatarBody,
    patch: AvatarBody.omit({ slug: true }).partial(),
    key: SlugParam,
  });
const catalogue = catalogueAt("/avatars");
const admin = catalogueAt("/admin/avatars");

export const createAvatar = catalogue.create("Create an avatar (admins)", 409);

export const wearableAvatars = authed("get", "/avatars", {
  summary: "The avatars the caller may wear: public ones and those assigned to them",
  responses: ok(z.array(AvatarSchema), 401, 403),
});

const publicList = (path: "/all-avatars" | "/avatars/subscriber", summary: string) =>
  route("get", path, { summary, responses: { 200: json(z.array(AvatarSchema)) } });
export const visibleAvatars = publicList("/all-avatars", "Every avatar that is not private");
export const subscriberAvatars = publicList("/avatars/subscriber", "The avatars subscribers may wear");

export const avatarImages = route("get", "/avatar-images", {
  summary: "The picture of every avatar that has one, by slug (not in the spec: the web draws people with it)",
  responses: {
    200: json(z.object({ images: z.record(z.string(), z.string()) }).openapi("AvatarImages")),
  },
});

export const getAvatar = catalogue.get("One avatar (private ones to staff only)");

export const mayWear = route("get", "/avatars/{slug}/{uuid}", {
  summary: "Whether user {uuid} may wear avatar {slug}",
  request: { params: SlugParam.extend(uuidParams("uuid").shape) },
  responses: ok(
    z
      .object({
        slug: z.string(),
        userUuid: z.uuid(),
        allowed: z.boolean(),
        assignment: AssignmentSchema.nullable(),
      })
      .openapi("AvatarAllowed"),
    400,
    404,
  ),
});

export const updateAvatar = catalogue.update("Change an avatar (admins)");
const DELETE_AVATAR = "Delete an avatar and its assignments (admins)";
export const deleteAvatar = catalogue.remove("delete", DELETE_AVATAR);
export const adminDeleteAvatar = admin.remove("delete", DELETE_AVATAR);
export const adminListAvatars = admin.staffList("Every avatar, private ones included (staff)");
export const adminGetAvatar = admin.staffGet("One avatar (staff)");

export const serviceGetAvatar = authed("get", "/service/avatar/{avatarSlug}", {
  summary: "One avatar (services)",
  tags: ["Service"],
  request: { params: z.object({ avatarSlug: Slug.openapi({ param: { name: "avatarSlug", in: "path" } }) }) },
  responses: ok(AvatarSchema, 400, 401, 403, 404),
});

// ---- assignments

export const assignAvatar = authed("post", "/avatar-assignment/{slug}", {
  summary: "Give a user an avatar (admins or services)",
  request: {
    params: SlugParam,
    ...jsonBody(
      z.object({ userUuid: z.uuid(), assignmentType: z.enum(values(AvatarAssignmentType)).default("MANUAL") }),
    ),
  },
  responses: created(AssignmentSchema, 400, 401, 403, 404, 409),
});

export const removeAssignment = authed("delete", "/avatar-assignment/{avatarAssignmentId}", {
  summary: "Take an avatar back (admins)",
  request: {
    params: uuidParams("avatarAssignmentId"),
  },
  responses: noContentOr(400, 401, 403, 404),
});

// ---- season awards

export const handleSeasonPoints = authed("post", "/points/season/admin/handle-points", {
  summary: "Close an ended season: award its avatars to those who earned them (admins; once per season)",
  tags: ["Seasons"],
  request: jsonBody(z.object({ seasonId: z.uuid() })),
  responses: ok(
    z.object({ seasonId: z.uuid(), awarded: z.number().int() }).openapi("SeasonHandled"),
    400,
    401,
    403,
    404,
    409,
  ),
});

export const backfillSeasonAvatars = authed("post", "/points/backfill-achieved-avatars/{seasonId}", {
  summary: "Give a season's award avatars to those who have reached them and lack them (admins)",
  tags: ["Seasons"],
  request: {
    params: uuidParams("seasonId"),
    query: z.object({ limit: z.coerce.number().int().min(1).max(10_000).default(1000) }),
  },
  responses: ok(
    z.object({ seasonId: z.uuid(), awarded: z.number().int() }).openapi("AvatarsBackfilled"),
    400,
    401,
    403,
    404,
  ),
});
