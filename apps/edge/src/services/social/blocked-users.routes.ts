import { z } from "@hono/zod-openapi";
import { contracts, created, jsonBody, noContentOr, ok, UuidParam } from "../../lib/openapi.ts";
import { PublicProfileSchema } from "../../lib/profiles.ts";

const { authed } = contracts(["Blocked users"]);

const BlockSchema = z
  .object({ id: z.uuid(), blockedUuid: z.uuid(), createdAt: z.string(), profile: PublicProfileSchema.nullable() })
  .openapi("BlockedUser");

export const block = authed(
  "post",
  "/blocked-users",
  "Block a user: it ends any friendship, invitation and follow between you, and stops new ones",
  { request: jsonBody(z.object({ userUuid: z.uuid() })), responses: created(BlockSchema, 400, 401, 403, 404, 409) },
);

export const blockedUsers = authed("get", "/blocked-users", "The users the caller has blocked", {
  responses: ok(z.array(BlockSchema), 401, 403),
});

export const blockedUser = authed("get", "/blocked-users/{id}", "Whether the caller has blocked user {id}", {
  request: { params: UuidParam },
  responses: ok(BlockSchema, 400, 401, 403, 404),
});

export const unblock = authed("delete", "/blocked-users/{id}", "Unblock user {id}", {
  request: { params: UuidParam },
  responses: noContentOr(400, 401, 403, 404),
});
