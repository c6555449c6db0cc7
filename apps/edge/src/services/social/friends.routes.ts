import { createRoute, z } from "@hono/zod-openapi";
import { bearer, errors, json, jsonBody, noContent, Offset, UuidParam } from "../../lib/openapi.ts";
import { PublicProfileSchema } from "../../lib/profiles.ts";

const tags = ["Friends"];

const InvitationSchema = z
  .object({
    id: z.uuid(),
    fromUuid: z.uuid(),
    toUuid: z.uuid(),
    status: z.enum(["pending", "accepted", "rejected"]),
    handledAt: z.string().nullable(),
    createdAt: z.string(),
  })
  .openapi("FriendInvitation");
const FriendSchema = z.object({ userUuid: z.uuid(), friendUuid: z.uuid(), since: z.string() }).openapi("Friendship");

// ---- invitations

export const invite = createRoute({
  method: "post",
  path: "/friend-invitations",
  tags,
  summary: "Invite a user to be friends",
  security: bearer,
  request: jsonBody(z.object({ userUuid: z.uuid() })),
  responses: { 201: json(InvitationSchema, "Created"), ...errors(400, 401, 403, 404, 409) },
});

export const userInvitations = createRoute({
  method: "get",
  path: "/friend-invitations/user-invitations/{id}",
  tags,
  summary: "Pending invitations to and from user {id} (the user themselves, or staff)",
  security: bearer,
  request: { params: UuidParam },
  responses: { 200: json(z.array(InvitationSchema)), ...errors(400, 401, 403) },
});

/** The caller's own pending invitations, received or sent. */
const ownInvitations = (path: string, summary: string) =>
  createRoute({
    method: "get",
    path,
    tags,
    summary,
    security: bearer,
    responses: { 200: json(z.array(InvitationSchema)), ...errors(401, 403) },
  });
export const invitationsReceived = ownInvitations(
  "/friend-invitations/user-invitations-for",
  "Pending invitations the caller has received",
);
export const invitationsSent = ownInvitations(
  "/friend-invitations/user-invitations-from",
  "Pending invitations the caller has sent",
);

export const deleteInvitation = createRoute({
  method: "delete",
  path: "/friend-invitations/{id}",
  tags,
  summary: "Withdraw (sender) or dismiss (recipient) an invitation",
  security: bearer,
  request: { params: UuidParam },
  responses: { ...noContent, ...errors(400, 401, 403, 404) },
});

export const handleInvitation = createRoute({
  method: "post",
  path: "/friend-invitations/handle-friend",
  tags,
  summary: "Accept or reject an invitation (its recipient); accepting makes you friends",
  security: bearer,
  request: jsonBody(z.object({ invitationId: z.uuid(), status: z.enum(["accepted", "rejected"]) })),
  responses: { 200: json(InvitationSchema), ...errors(400, 401, 403, 404, 409) },
});

// ---- friends

const SkipTake = z.object({
  skip: Offset,
  take: z.coerce.number().int().min(1).max(500).default(100),
});

export const friendsOf = createRoute({
  method: "get",
  path: "/friends/{id}",
  tags,
  summary: "Friends of user {id}, as profiles, newest friendship first",
  security: bearer,
  request: { params: UuidParam, query: SkipTake },
  responses: {
    200: json(z.object({ data: z.array(PublicProfileSchema), total: z.number().int() }).openapi("FriendPage")),
    ...errors(400, 401, 403),
  },
});

export const friendUuids = createRoute({
  method: "get",
  path: "/friends/list/{id}",
  tags,
  summary: "The uuids of user {id}'s friends (e.g. to mark friends in a room)",
  security: bearer,
  request: { params: UuidParam },
  responses: { 200: json(z.array(z.uuid())), ...errors(400, 401, 403) },
});

export const friendship = createRoute({
  method: "get",
  path: "/friends/single-friend/{id}",
  tags,
  summary: "The caller's friendship with user {id}",
  security: bearer,
  request: { params: UuidParam },
  responses: { 200: json(FriendSchema), ...errors(400, 401, 403, 404) },
});

export const unfriend = createRoute({
  method: "delete",
  path: "/friends/{id}",
  tags,
  summary: "Stop being friends with user {id}",
  security: bearer,
  request: { params: UuidParam },
  responses: { ...noContent, ...errors(400, 401, 403, 404) },
});
