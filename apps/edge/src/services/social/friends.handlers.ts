import { hasAnyRole, requireUser, STAFF } from "../../lib/auth.ts";
import { forbidden, found, notFound } from "../../lib/errors.ts";
import type { AppRouteHandler } from "../../lib/openapi.ts";
import type * as routes from "./friends.routes.ts";
import * as friendships from "./friendships.ts";

// ---- invitations

export const invite: AppRouteHandler<typeof routes.invite> = async (c) => {
  const { user } = await requireUser(c);
  const { userUuid } = c.req.valid("json");
  const { db, clock } = c.var.deps;
  const row = await friendships.invite(db, user.uuid, userUuid, clock.now());
  return c.json(friendships.invitationView(row), 201);
};

export const userInvitations: AppRouteHandler<typeof routes.userInvitations> = async (c) => {
  const { user } = await requireUser(c);
  const { id } = c.req.valid("param");
  if (id !== user.uuid && !hasAnyRole(user.roles, STAFF)) throw forbidden();
  const rows = await friendships.pendingInvitationsOf(c.var.deps.db, id);
  return c.json(rows.map(friendships.invitationView), 200);
};

const ownInvitations =
  (side: "toUuid" | "fromUuid"): AppRouteHandler<typeof routes.invitationsReceived> =>
  async (c) => {
    const { user } = await requireUser(c);
    const rows = await friendships.pendingInvitations(c.var.deps.db, side, user.uuid);
    return c.json(rows.map(friendships.invitationView), 200);
  };
export const invitationsReceived = ownInvitations("toUuid");
export const invitationsSent = ownInvitations("fromUuid");

export const deleteInvitation: AppRouteHandler<typeof routes.deleteInvitation> = async (c) => {
  const { user } = await requireUser(c);
  await friendships.deleteInvitation(c.var.deps.db, c.req.valid("param").id, user.uuid);
  return c.body(null, 204);
};

export const handleInvitation: AppRouteHandler<typeof routes.handleInvitation> = async (c) => {
  const { user } = await requireUser(c);
  const { invitationId, status } = c.req.valid("json");
  const { db, clock } = c.var.deps;
  const handled = await friendships.handleInvitation(db, invitationId, user.uuid, status, clock.now());
  return c.json(friendships.invitationView(handled), 200);
};

// ---- friends

export const friendsOf: AppRouteHandler<typeof routes.friendsOf> = async (c) => {
  await requireUser(c, { types: ["user", "bot"] });
  const { id } = c.req.valid("param");
  const { skip, take } = c.req.valid("query");
  return c.json(await friendships.friendsPage(c.var.deps.db, id, skip, take), 200);
};

export const friendUuids: AppRouteHandler<typeof routes.friendUuids> = async (c) => {
  if (c.var.auth?.type !== "service") await requireUser(c, { types: ["user", "bot"] });
  return c.json(await friendships.friendUuids(c.var.deps.db, c.req.valid("param").id), 200);
};

export const friendship: AppRouteHandler<typeof routes.friendship> = async (c) => {
  const { user } = await requireUser(c);
  const row = found(
    await friendships.friendshipOf(c.var.deps.db, user.uuid, c.req.valid("param").id),
    friendships.NOT_FRIENDS,
  );
  return c.json(friendships.friendshipView(row), 200);
};

export const unfriend: AppRouteHandler<typeof routes.unfriend> = async (c) => {
  const { user } = await requireUser(c);
  const deleted = await friendships.removeFriendship(c.var.deps.db, user.uuid, c.req.valid("param").id);
  if (deleted === 0) throw notFound(friendships.NOT_FRIENDS);
  return c.body(null, 204);
};
