import { createRoute, z } from "@hono/zod-openapi";
import {
  adminCrudItem,
  adminCrudList,
  publicItem,
  relationTo,
  removal,
  skipTake,
} from "../../lib/contract-families.ts";
import { contracts, errors, json, ok, pageSchema, UuidParam } from "../../lib/openapi.ts";
import { PublicProfileSchema } from "../user/public.ts";
import { FANS_PAGE } from "./fans.ts";

const tags = ["DJ fans"];
const { authed, route } = contracts(tags);

const FanLinkSchema = z
  .object({ id: z.uuid(), fanUuid: z.uuid(), djUuid: z.uuid(), createdAt: z.string() })
  .openapi("DjFan");

const SkipTake = skipTake(100, FANS_PAGE);
const ProfilePage = pageSchema(PublicProfileSchema, "ProfilePageOfFans");

export const follow = relationTo(authed, "/dj-fans", "Follow a DJ", "djUuid", FanLinkSchema);

export const followedDjs = authed("get", "/dj-fans", {
  summary: "The DJs the caller follows (optionally just whether they follow one DJ)",
  request: { query: z.object({ djUuid: z.uuid().optional() }) },
  responses: ok(z.array(FanLinkSchema), 400, 401, 403),
});

export const fansOfDj = route("get", "/dj-fans/dj-fans-paginated/{id}", {
  summary: `Fans of DJ {id}, newest first (${FANS_PAGE} a page by default)`,
  request: { params: UuidParam, query: SkipTake },
  responses: ok(ProfilePage, 400),
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

export const djsFollowed = route("get", "/dj-fans/{id}/djs-followed", {
  summary: "DJs that user {id} follows, newest first",
  request: { params: UuidParam, query: SkipTake },
  responses: ok(ProfilePage, 400),
});

export const fanCounts = route("get", "/dj-fans/count/{id}", {
  summary: "How many fans user {id} has and how many DJs they follow",
  request: { params: UuidParam },
  responses: ok(z.object({ fans: z.number().int(), following: z.number().int() }).openapi("FanCounts"), 400),
});

export const fanLink = publicItem(route, "/dj-fans/dj-fan/{id}", "One fan link by its id", FanLinkSchema);

export const adminFanLinks = authed("get", "/dj-fans/admin/{id}", {
  summary: "Every fan link of user {id}, both ways (staff)",
  tags: ["Admin"],
  request: { params: UuidParam },
  responses: ok(
    z.object({ fans: z.array(FanLinkSchema), following: z.array(FanLinkSchema) }).openapi("FanLinksOfUser"),
    400,
    401,
    403,
  ),
});

export const unfollow = removal(authed, "/dj-fans/{id}", "Unfollow DJ {id}");

export const fanDevices = authed("get", "/dj-fans/devices/list", {
  summary: "The push devices of a DJ's fans (services)",
  tags: ["Service"],
  request: { query: z.object({ djUuid: z.uuid() }) },
  responses: ok(
    z.array(z.object({ userUuid: z.uuid(), token: z.string(), platform: z.string() })).openapi("FanDevices"),
    400,
    401,
    403,
  ),
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

export const adminDjs = adminCrudList(
  authed,
  "/admin/djs",
  "DJs with their fan counts, in the nestjsx/crud query syntax (staff)",
  AdminDjSchema,
  "AdminDjPage",
);

export const adminDj = adminCrudItem(authed, "/admin/djs/{id}", "One DJ with their fan count (staff)", AdminDjSchema);
