import { createRoute, z } from "@hono/zod-openapi";
import { CrudQuerySchema, CrudSelectionSchema, crudPageSchema } from "../../lib/crud/index.ts";
import { bearer, errors, json, UuidParam } from "../../lib/openapi.ts";
import { OwnProfileSchema, UserSchema } from "./schemas.ts";

const tags = ["Admin"];

const AdminUserSchema = UserSchema.omit({ profile: true })
  .extend({ nickname: z.string().nullable(), profile: OwnProfileSchema.partial().optional() })
  .partial()
  .openapi("AdminUser");

export const listUsers = createRoute({
  method: "get",
  path: "/admin/users",
  tags,
  summary: "Users, in the nestjsx/crud query syntax (staff and above)",
  security: bearer,
  request: { query: CrudQuerySchema },
  responses: { 200: json(crudPageSchema(AdminUserSchema).openapi("AdminUserPage")), ...errors(400, 401, 403) },
});

export const getUser = createRoute({
  method: "get",
  path: "/admin/users/{id}",
  tags,
  summary: "One user, with the same fields and join options (staff and above)",
  security: bearer,
  request: { params: UuidParam, query: CrudSelectionSchema },
  responses: { 200: json(AdminUserSchema), ...errors(400, 401, 403, 404) },
});
