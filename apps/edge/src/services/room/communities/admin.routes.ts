import { z } from "@hono/zod-openapi";
import { adminCrudItem, adminCrudList, removal } from "../../../lib/contract-families.ts";
import { contracts, created, jsonBody, ok, UuidParam } from "../../../lib/openapi.ts";
import { AdminCommunitySchema, CommunityInput, CommunityPatch } from "./schemas.ts";

/** Communities as staff manage them: nestjsx/crud lists, creation, changes. */
const { authed } = contracts(["Admin"]);

export const adminList = adminCrudList(
  authed,
  "/admin/communities",
  "Communities, in the nestjsx/crud query syntax (staff and above)",
  AdminCommunitySchema,
  "AdminCommunityPage",
);

export const adminCreate = authed("post", "/admin/communities", {
  summary: "Create a community (admins); createdBy (default: the caller) becomes its admin",
  request: jsonBody(CommunityInput),
  responses: created(AdminCommunitySchema, 400, 401, 403, 404),
});

export const adminBulkCreate = authed("post", "/admin/communities/bulk", {
  summary: "Create several communities at once, all or none (admins)",
  request: jsonBody(z.object({ bulk: z.array(CommunityInput).min(1).max(100) }).strict()),
  responses: created(z.array(AdminCommunitySchema), 400, 401, 403, 404),
});

export const adminGet = adminCrudItem(
  authed,
  "/admin/communities/{id}",
  "One community, with the same fields option (staff and above)",
  AdminCommunitySchema,
);

export const adminPatch = authed("patch", "/admin/communities/{id}", {
  summary: "Change some of a community's fields (admins)",
  request: { params: UuidParam, ...jsonBody(CommunityPatch) },
  responses: ok(AdminCommunitySchema, 400, 401, 403, 404),
});

export const adminReplace = authed("put", "/admin/communities/{id}", {
  summary:
    "Replace a community (admins): the body is checked as on creation and laid over the stored community, as nestjsx/crud does",
  request: { params: UuidParam, ...jsonBody(CommunityInput) },
  responses: ok(AdminCommunitySchema, 400, 401, 403, 404),
});

export const adminDelete = removal(
  authed,
  "/admin/communities/{id}",
  "Delete a community with its memberships and room list (admins); the rooms stay",
);
