import { z } from "@hono/zod-openapi";
import { callersOwn, oneItem, relationTo, removal } from "../../lib/contract-families.ts";
import { contracts } from "../../lib/openapi.ts";
import { PublicProfileSchema } from "../user/public.ts";

const { authed } = contracts(["Blocked users"]);

const BlockSchema = z
  .object({ id: z.uuid(), blockedUuid: z.uuid(), createdAt: z.string(), profile: PublicProfileSchema.nullable() })
  .openapi("BlockedUser");

export const block = relationTo(
  authed,
  "/blocked-users",
  "Block a user: it ends any friendship, invitation and follow between you, and stops new ones",
  "userUuid",
  BlockSchema,
);

export const blockedUsers = callersOwn(
  authed,
  "/blocked-users",
  "The users the caller has blocked",
  z.array(BlockSchema),
);

export const blockedUser = oneItem(
  authed,
  "/blocked-users/{id}",
  "Whether the caller has blocked user {id}",
  BlockSchema,
);

export const unblock = removal(authed, "/blocked-users/{id}", "Unblock user {id}");
