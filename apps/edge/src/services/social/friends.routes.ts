import { z } from "@hono/zod-openapi";
import { callersOwn, oneItem, relationTo, removal, skipTake } from "../../lib/contract-families.ts";
import { contracts, jsonBody, ok, pageSchema, UuidParam } from "../../lib/openapi.ts";
import { PublicProfileSchema } from "../user/public.ts";

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

export const invite = relationTo(
  authed,
  "/friend-invitations",
  "Invite a user to be friends",
  "userUuid",
  InvitationSchema,
);

export const userInvitations = authed("get", "/friend-invitations/user-invitations/{id}", {
  summary: "Pending invitations to and from user {id} (the user themselves, or staff)",
  request: { params: UuidParam },
  responses: ok(z.array(InvitationSchema), 400, 401, 403),
});

/** The caller's own pending invitations, received or sent. */
const ownInvitations = (path: string, summary: string) => callersOwn(authed, path, summary, z.array(InvitationSchema));
export const invitationsReceived = ownInvitations(
  "/friend-invitations/user-invitations-for",
  "Pending invitations the caller has received",
);
export const invitationsSent = ownInvitations(
  "/friend-invitations/user-invitations-from",
  "Pending invitations the caller has sent",
);

export const deleteInvitation = removal(
  authed,
  "/friend-invitations/{id}",
  "Withdraw (sender) or dismiss (recipient) an invitation",
);

export const handleInvitation = authed("post", "/friend-invitations/handle-friend", {
  summary: "Accept or reject an invitation (its recipient); accepting makes you friends",
  request: jsonBody(z.object({ invitationId: z.uuid(), status: z.enum(["accepted", "rejected"]) })),
  responses: ok(InvitationSchema, 400, 401, 403, 404, 409),
});

// ---- friends

export const friendsOf = authed("get", "/friends/{id}", {
  summary: "Friends of user {id}, as profiles, newest friendship first",
  request: { params: UuidParam, query: skipTake(500, 100) },
  responses: ok(pageSchema(PublicProfileSchema, "FriendPage"), 400, 401, 403),
});

export const friendUuids = authed("get", "/friends/list/{id}", {
  summary: "The uuids of user {id}'s friends (e.g. to mark friends in a room)",
  request: { params: UuidParam },
  responses: ok(z.array(z.uuid()), 400, 401, 403),
});

export const friendship = oneItem(
  authed,
  "/friends/single-friend/{id}",
  "The caller's friendship with user {id}",
  FriendSchema,
);

export const unfriend = removal(authed, "/friends/{id}", "Stop being friends with user {id}");
