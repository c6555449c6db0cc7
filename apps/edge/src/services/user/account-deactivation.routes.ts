import { z } from "@hono/zod-openapi";
import { contracts, created, jsonBody, noContentOr, ok, PageQuery, UuidParam } from "../../lib/openapi.ts";

const { authed } = contracts(["Deactivation"]);

const RequestSchema = z
  .object({
    id: z.uuid(),
    userUuid: z.uuid(),
    email: z.string().nullable(),
    nickname: z.string().nullable(),
    reason: z.string().nullable(),
    status: z.enum(["PENDING", "CANCELLED", "DEACTIVATED"]),
    createdAt: z.string(),
  })
  .openapi("DeactivationRequest");

export const requestDeactivation = authed("post", "/users/request-deactivate", {
  summary: "Ask for the caller's account to be deactivated",
  request: jsonBody(z.object({ reason: z.string().trim().max(1000).optional() })),
  responses: created(RequestSchema, 400, 401, 403, 409),
});

export const listDeactivationRequests = authed("get", "/users/list-deactivate", {
  summary: "Pending deactivation requests, oldest first (moderators)",
  request: {
    query: PageQuery,
  },
  responses: ok(z.array(RequestSchema), 400, 401, 403),
});

export const cancelDeactivation = authed("post", "/users/cancel-requested-deactivate", {
  summary: "Cancel a user's pending deactivation request (moderators)",
  request: jsonBody(z.object({ userUuid: z.uuid() })),
  responses: noContentOr(400, 401, 403, 404),
});

export const deactivate = authed("delete", "/users/deactivate/{id}", {
  summary:
    "Deactivate an account (admins): it cannot log in, its profile is hidden and the live rooms it is in close its sockets",
  request: { params: UuidParam },
  responses: noContentOr(400, 401, 403, 404, 409),
});

export const reactivate = authed("post", "/users/reactivate/{id}", {
  summary: "Reactivate a deactivated account (admins)",
  request: { params: UuidParam },
  responses: noContentOr(400, 401, 403, 404, 409),
});
