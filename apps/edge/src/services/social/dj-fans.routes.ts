import { createRoute, z } from "@hono/zod-openapi";
import { CrudQuerySchema, CrudSelectionSchema, crudPageSchema } from "../../lib/crud/index.ts";
import { bearer, errors, json, jsonBody, noContent, Offset, UuidParam } from "../../lib/openapi.ts";
import { PublicProfileSchema } from "../../lib/profiles.ts";
import { FANS_PAGE } from "./fans.ts";

const tags = ["DJ fans"];

const FanLinkSchema = z
  .object({ id: z.uuid(), fanUuid: z.uuid(), djUuid: z.uuid(), createdAt: z.string() })
  .openapi("DjFan");

const SkipTake = z.object({
  skip: Offset,
  take: z.coerce.number().int().min(1).max(100).default(FANS_PAGE),
});
const ProfilePage = z
  .object({ data: z.array(PublicProfileSchema), total: z.number().int() })
  .openapi("ProfilePageOfFans");

export const follow = createRoute({
  method: "post",
  path: "/dj-fans",
  tags,
  summary: "Follow a DJ",
  security: bearer,
  request: jsonBody(z.object({ djUuid: z.uuid() })),
  responses: { 201: json(FanLinkSchema, "Created"), ...errors(400, 401, 403, 404, 409) },
});

export const followedDjs = createRoute({
  method: "get",
  path: "/dj-fans",
  tags,
  summary: "The DJs the caller follows (optionally just whether they follow one DJ)",
  security: bearer,
  request: { query: z.object({ djUuid: z.uuid().optional() }) },
  responses: { 200: json(z.array(FanLinkSchema)), ...errors(400, 401, 403) },
});

export const fansOfDj = createRoute({
  method: "get",
  path: "/dj-fans/dj-fans-paginated/{id}",
  tags,
  summary: `Fans of DJ {id}, newest first (${FANS_PAGE} a page by default)`,
  request: { params: UuidParam, query: SkipTake },
  responses: { 200: json(ProfilePage), ...errors(400) },
});

export const fansOfDjLegacy = createRoute({
  method: "get",
  path: "/dj-fans/dj-fans/{id}",
  tags,
  deprecated: true,
  summary: "Legacy: fans of DJ {id} as a plain list",
  request: { params: UuidParam, query: SkipTake },
  responses: { 200: json(z.array(PublicProfileSchema)), ...errors(400) },
});

export const djsFollowed = createRoute({
  method: "get",
  path: "/dj-fans/{id}/djs-followed",
  tags,
  summary: "DJs that user {id} follows, newest first",
  request: { params: UuidParam, query: SkipTake },
  responses: { 200: json(ProfilePage), ...errors(400) },
});

export const fanCounts = createRoute({
  method: "get",
  path: "/dj-fans/count/{id}",
  tags,
  summary: "How many fans user {id} has and how many DJs they follow",
  request: { params: UuidParam },
  responses: {
    200: json(z.object({ fans: z.number().int(), following: z.number().int() }).openapi("FanCounts")),
    ...errors(400),
  },
});

export const fanLink = createRoute({
  method: "get",
  path: "/dj-fans/dj-fan/{id}",
  tags,
  summary: "One fan link by its id",
  request: { params: UuidParam },
  responses: { 200: json(FanLinkSchema), ...errors(400, 404) },
});

export const adminFanLinks = createRoute({
  method: "get",
  path: "/dj-fans/admin/{id}",
  tags: ["Admin"],
  summary: "Every fan link of user {id}, both ways (staff)",
  security: bearer,
  request: { params: UuidParam },
  responses: {
    200: json(z.object({ fans: z.array(FanLinkSchema), following: z.array(FanLinkSchema) }).openapi("FanLinksOfUser")),
    ...errors(400, 401, 403),
  },
});

export const unfollow = createRoute({
  method: "delete",
  path: "/dj-fans/{id}",
  tags,
  summary: "Unfollow DJ {id}",
  security: bearer,
  request: { params: UuidParam },
  responses: { ...noContent, ...errors(400, 401, 403, 404) },
});

export const fanDevices = createRoute({
  method: "get",
  path: "/dj-fans/devices/list",
  tags: ["Service"],
  summary: "The push devices of a DJ's fans (services)",
  security: bearer,
  request: { query: z.object({ djUuid: z.uuid() }) },
  responses: {
    200: json(z.array(z.object({ userUuid: z.uuid(), token: z.string(), platform: z.string() })).openapi("FanDevices")),
    ...errors(400, 401, 403),
  },
});

// ---- admin DJ lists

const AdminDjSchema = z
  .object({
    uuid: z.uuid(),
    email: z.string().nullable(),
    nickname: z.string().nullable(),
    roles: z.array(z.string()),
    badges: z.array(z.string()),
    createdAt: z.string(),
    fans: z.number().int(),
  })
  .partial()
  .openapi("AdminDj");

export const adminDjs = createRoute({
  method: "get",
  path: "/admin/djs",
  tags: ["Admin"],
  summary: "DJs with their fan counts, in the nestjsx/crud query syntax (staff)",
  security: bearer,
  request: { query: CrudQuerySchema },
  responses: { 200: json(crudPageSchema(AdminDjSchema).openapi("AdminDjPage")), ...errors(400, 401, 403) },
});

export const adminDj = createRoute({
  method: "get",
  path: "/admin/djs/{id}",
  tags: ["Admin"],
  summary: "One DJ with their fan count (staff)",
  security: bearer,
  request: { params: UuidParam, query: CrudSelectionSchema },
  responses: { 200: json(AdminDjSchema), ...errors(400, 401, 403, 404) },
});
