import { z } from "@hono/zod-openapi";
import { CrudQuerySchema, CrudSelectionSchema, crudPageSchema } from "../../lib/crud/index.ts";
import { contracts, ok, UuidParam } from "../../lib/openapi.ts";
import { OwnProfileSchema, UserSchema } from "./schemas.ts";

const { authed } = contracts(["Admin"]);

const AdminUserSchema = UserSchema.omit({ profile: true })
  .extend({ nickname: z.string().nullable(), profile: OwnProfileSchema.partial().optional() })
  .partial()
  .openapi("AdminUser");

export const listUsers = authed("get", "/admin/users", "Users, in the nestjsx/crud query syntax (staff and above)", {
  request: { query: CrudQuerySchema },
  responses: ok(crudPageSchema(AdminUserSchema).openapi("AdminUserPage"), 400, 401, 403),
});

export const getUser = authed(
  "get",
  "/admin/users/{id}",
  "One user, with the same fields and join options (staff and above)",
  { request: { params: UuidParam, query: CrudSelectionSchema }, responses: ok(AdminUserSchema, 400, 401, 403, 404) },
);
