import { z } from "@hono/zod-openapi";
import { contracts, created, jsonBody, noContentOr, Offset, ok, UuidParam } from "../../lib/openapi.ts";
import { PublicProfileSchema } from "../../lib/profiles.ts";

const { authed } = contracts(["Friends"]);

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

export const invite = authed("post", "/friend-invitations", "Invite a user to be friends", {
  request: jsonBody(z.object({ userUuid: z.uuid() })),
  responses: created(InvitationSchema, 400, 401, 403, 404, 409),
});

export const userInvitations = authed(
  "get",
  "/friend-invitations/user-invitations/{id}",
  "Pending invitations to and from user {id} (the user themselves, or staff)",
  { request: { params: UuidParam }, responses: ok(z.array(InvitationSchema), 400, 401, 403) },
);

/** The caller's own pending invitations, received or sent. */
const ownInvitations = (path: string, summary: string) =>
  authed("get", path, summary, { responses: ok(z.array(InvitationSchema), 401, 403) });
export const invitationsReceived = ownInvitations(
  "/friend-invitations/user-invitations-for",
  "Pending invitations the caller has received",
);
export const invitationsSent = ownInvitations(
  "/friend-invitations/user-invitations-from",
  "Pending invitations the caller has sent",
);

export const deleteInvitation = authed(
  "delete",
  "/friend-invitations/{id}",
  "Withdraw (sender) or dismiss (recipient) an invitation",
  { request: { params: UuidParam }, responses: noContentOr(400, 401, 403, 404) },
);

export const handleInvitation = authed(
  "post",
  "/friend-invitations/handle-friend",
  "Accept or reject an invitation (its recipient); accepting makes you friends",
  {
    request: jsonBody(z.object({ invitationId: z.uuid(), status: z.enum(["accepted", "rejected"]) })),
    responses: ok(InvitationSchema, 400, 401, 403, 404, 409),
  },
);

// ---- friends

const SkipTake = z.object({
  skip: Offset,
  take: z.coerce.number().int().min(1).max(500).default(100),
});

export const friendsOf = authed("get", "/friends/{id}", "Friends of user {id}, as profiles, newest friendship first", {
  request: { params: UuidParam, query: SkipTake },
  responses: ok(
    z.object({ data: z.array(PublicProfileSchema), total: z.number().int() }).openapi("FriendPage"),
    400,
    401,
    403,
  ),
});

export const friendUuids = authed(
  "get",
  "/friends/list/{id}",
  "The uuids of user {id}'s friends (e.g. to mark friends in a room)",
  { request: { params: UuidParam }, responses: ok(z.array(z.uuid()), 400, 401, 403) },
);

export const friendship = authed("get", "/friends/single-friend/{id}", "The caller's friendship with user {id}", {
  request: { params: UuidParam },
  responses: ok(FriendSchema, 400, 401, 403, 404),
});

export const unfriend = authed("delete", "/friends/{id}", "Stop being friends with user {id}", {
  request: { params: UuidParam },
  responses: noContentOr(400, 401, 403, 404),
});
