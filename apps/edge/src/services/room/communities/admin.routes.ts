import { createRoute, z } from "@hono/zod-openapi";
import { CrudQuerySchema, CrudSelectionSchema, crudPageSchema } from "../../../lib/crud/index.ts";
import { bearer, errors, json, jsonBody, noContent, UuidParam } from "../../../lib/openapi.ts";
import { AdminCommunitySchema, CommunityInput, CommunityPatch } from "./schemas.ts";

/** Communities as staff manage them: nestjsx/crud lists, creation, changes. */
const adminTags = ["Admin"];

export const adminList = createRoute({
  method: "get",
  path: "/admin/communities",
  tags: adminTags,
  summary: "Communities, in the nestjsx/crud query syntax (staff and above)",
  security: bearer,
  request: { query: CrudQuerySchema },
  responses: {
    200: json(crudPageSchema(AdminCommunitySchema).openapi("AdminCommunityPage")),
    ...errors(400, 401, 403),
  },
});

export const adminCreate = createRoute({
  method: "post",
  path: "/admin/communities",
  tags: adminTags,
  summary: "Create a community (admins); createdBy (default: the caller) becomes its admin",
  security: bearer,
  request: jsonBody(CommunityInput),
  responses: { 201: json(AdminCommunitySchema, "Created"), ...errors(400, 401, 403, 404) },
});

export const adminBulkCreate = createRoute({
  method: "post",
  path: "/admin/communities/bulk",
  tags: adminTags,
  summary: "Create several communities at once, all or none (admins)",
  security: bearer,
  request: jsonBody(z.object({ bulk: z.array(CommunityInput).min(1).max(100) }).strict()),
  responses: { 201: json(z.array(AdminCommunitySchema), "Created"), ...errors(400, 401, 403, 404) },
});

export const adminGet = createRoute({
  method: "get",
  path: "/admin/communities/{id}",
  tags: adminTags,
  summary: "One community, with the same fields option (staff and above)",
  security: bearer,
  request: { params: UuidParam, query: CrudSelectionSchema },
  responses: { 200: json(AdminCommunitySchema), ...errors(400, 401, 403, 404) },
});

export const adminPatch = createRoute({
  method: "patch",
  path: "/admin/communities/{id}",
  tags: adminTags,
  summary: "Change some of a community's fields (admins)",
  security: bearer,
  request: { params: UuidParam, ...jsonBody(CommunityPatch) },
  responses: { 200: json(AdminCommunitySchema), ...errors(400, 401, 403, 404) },
});

export const adminReplace = createRoute({
  method: "put",
  path: "/admin/communities/{id}",
  tags: adminTags,
  summary:
    "Replace a community (admins): the body is checked as on creation and laid over the stored community, as nestjsx/crud does",
  security: bearer,
  request: { params: UuidParam, ...jsonBody(CommunityInput) },
  responses: { 200: json(AdminCommunitySchema), ...errors(400, 401, 403, 404) },
});

export const adminDelete = createRoute({
  method: "delete",
  path: "/admin/communities/{id}",
  tags: adminTags,
  summary: "Delete a community with its memberships and room list (admins); the rooms stay",
  security: bearer,
  request: { params: UuidParam },
  responses: { ...noContent, ...errors(400, 401, 403, 404) },
});
