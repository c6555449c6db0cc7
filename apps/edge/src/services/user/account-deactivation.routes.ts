import { createRoute, z } from "@hono/zod-openapi";
import { bearer, errors, json, jsonBody, noContent, PageQuery, UuidParam } from "../../lib/openapi.ts";

const tags = ["Deactivation"];

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

export const requestDeactivation = createRoute({
  method: "post",
  path: "/users/request-deactivate",
  tags,
  summary: "Ask for the caller's account to be deactivated",
  security: bearer,
  request: jsonBody(z.object({ reason: z.string().trim().max(1000).optional() })),
  responses: { 201: json(RequestSchema, "Created"), ...errors(400, 401, 403, 409) },
});

export const listDeactivationRequests = createRoute({
  method: "get",
  path: "/users/list-deactivate",
  tags,
  summary: "Pending deactivation requests, oldest first (moderators)",
  security: bearer,
  request: {
    query: PageQuery,
  },
  responses: { 200: json(z.array(RequestSchema)), ...errors(400, 401, 403) },
});

export const cancelDeactivation = createRoute({
  method: "post",
  path: "/users/cancel-requested-deactivate",
  tags,
  summary: "Cancel a user's pending deactivation request (moderators)",
  security: bearer,
  request: jsonBody(z.object({ userUuid: z.uuid() })),
  responses: { ...noContent, ...errors(400, 401, 403, 404) },
});

export const deactivate = createRoute({
  method: "delete",
  path: "/users/deactivate/{id}",
  tags,
  summary:
    "Deactivate an account (admins): it cannot log in, its profile is hidden and the live rooms it is in close its sockets",
  security: bearer,
  request: { params: UuidParam },
  responses: { ...noContent, ...errors(400, 401, 403, 404, 409) },
});

export const reactivate = createRoute({
  method: "post",
  path: "/users/reactivate/{id}",
  tags,
  summary: "Reactivate a deactivated account (admins)",
  security: bearer,
  request: { params: UuidParam },
  responses: { ...noContent, ...errors(400, 401, 403, 404, 409) },
});
