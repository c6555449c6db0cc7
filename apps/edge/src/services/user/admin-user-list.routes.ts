import { z } from "@hono/zod-openapi";
import { adminCrudItem, adminCrudList } from "../../lib/contract-families.ts";
import { contracts } from "../../lib/openapi.ts";
import { OwnProfileSchema, UserSchema } from "./schemas.ts";

const { authed } = contracts(["Admin"]);

const AdminUserSchema = UserSchema.omit({ profile: true })
  .extend({ nickname: z.string().nullable(), profile: OwnProfileSchema.partial().optional() })
  .partial()
  .openapi("AdminUser");

export const listUsers = adminCrudList(
  authed,
  "/admin/users",
  "Users, in the nestjsx/crud query syntax (staff and above)",
  AdminUserSchema,
  "AdminUserPage",
);

export const getUser = adminCrudItem(
  authed,
  "/admin/users/{id}",
  "One user, with the same fields and join options (staff and above)",
  AdminUserSchema,
);
