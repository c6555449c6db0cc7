import { z } from "@hono/zod-openapi";
import { oneItem, removal } from "../../../lib/contract-families.ts";
import { contracts, errors, json, jsonBody, noContentOr, ok, PageQuery, pageSchema } from "../../../lib/openapi.ts";
import { RoomSchema } from "../rooms.ts";
import {
  ChangeBody,
  CommunityKeyParam,
  CommunityPage,
  CommunityRoomParams,
  CommunityRoomSchema,
  CommunitySchema,
  CommunityUserParams,
  MemberSchema,
  MembershipSchema,
  roomKey,
} from "./schemas.ts";

const tags = ["Communities"];
const { authed, route } = contracts(tags);

// Lists of communities -------------------------------------------------------------------------------------------

export const userCommunities = authed("get", "/user-communities", {
  summary: "The communities the caller belongs to or runs, the latest joined first (signed in, bots too)",
  request: { query: PageQuery },
  responses: ok(CommunityPage, 400, 401, 403),
});

export const roomCommunities = route("get", "/room-communities/{roomId}", {
  summary: "The communities a room is in (anyone; private communities only to their members and admins)",
  request: { params: z.object({ roomId: roomKey }) },
  responses: ok(z.array(CommunitySchema).openapi("CommunityList"), 400, 401, 403, 404),
});

// One community ----------------------------------------------------------------------------------------------------

export const getCommunity = oneItem(
  route,
  "/communities/{id}",
  "A community by id or slug (anyone; a private one only to its members and admins)",
  CommunitySchema,
  CommunityKeyParam,
);

export const members = route("get", "/communities/{id}/users", {
  summary: "A community's members, the earliest first (as the community: anyone, or its members and admins)",
  request: { params: CommunityKeyParam, query: PageQuery },
  responses: ok(pageSchema(MemberSchema, "CommunityMemberPage"), 400, 401, 403, 404),
});

export const join = authed("post", "/communities/{id}/join", {
  summary: "Join a public community (signed in, bots too); joining again changes nothing",
  request: { params: CommunityKeyParam },
  responses: ok(CommunitySchema, 400, 401, 403, 404),
});

export const leave = authed("post", "/communities/{id}/leave", {
  summary: "Leave a community (signed in, bots too); leaving one the caller is not in changes nothing",
  request: { params: CommunityKeyParam },
  responses: noContentOr(400, 401, 403, 404),
});

export const addMany = authed("post", "/communities/{id}/add", {
  summary:
    "Add rooms and members at once, all or none (rooms: as PUT /communities/{id}/rooms/{roomId}; members: the community's admins, or the caller themselves in a public one)",
  request: { params: CommunityKeyParam, ...jsonBody(ChangeBody) },
  responses: ok(CommunitySchema, 400, 401, 403, 404),
});

export const removeMany = authed("post", "/communities/{id}/remove", {
  summary:
    "Take rooms and members out at once, all or none (rooms: as DELETE /communities/{id}/rooms/{roomId}; members: the community's admins, or the caller themselves); ones not in it are skipped",
  request: { params: CommunityKeyParam, ...jsonBody(ChangeBody) },
  responses: ok(CommunitySchema, 400, 401, 403, 404),
});

export const addMember = authed("put", "/communities/{id}/users/{userId}", {
  summary: "Add a member (the community's admins: its creator, staff); adding a member again changes nothing",
  request: { params: CommunityUserParams },
  responses: ok(MembershipSchema, 400, 401, 403, 404),
});

export const removeMember = removal(
  authed,
  "/communities/{id}/users/{userId}",
  "Remove a member (the community's admins; members may remove themselves)",
  CommunityUserParams,
);

export const rooms = route("get", "/communities/{id}/rooms", {
  summary:
    "A community's rooms, the busiest first: public listed ones, plus the private or unlisted ones the caller helps run (staff and global moderators: all)",
  request: { params: CommunityKeyParam, query: PageQuery },
  responses: ok(pageSchema(RoomSchema, "CommunityRoomPage"), 400, 401, 403, 404),
});

/** Puts a room into a community: one contract for each of its two paths. */
const roomAddition = <M extends "put" | "post", P extends string>(method: M, path: P) =>
  authed(method, path, {
    summary:
      "Put a room into a community (the room's owner or co-owners: into a public community, or one they run); putting it in again answers 200",
    request: { params: CommunityRoomParams },
    responses: {
      200: json(CommunityRoomSchema),
      201: json(CommunityRoomSchema, "Created"),
      ...errors(400, 401, 403, 404),
    },
  });
/** Takes a room out of a community: one contract for each of its two paths. */
const roomRemoval = <P extends string>(path: P) =>
  removal(
    authed,
    path,
    "Take a room out of a community (the community's admins, or the room's owner or co-owners)",
    CommunityRoomParams,
  );

export const addRoom = roomAddition("put", "/communities/{id}/rooms/{roomId}");

export const removeRoom = roomRemoval("/communities/{id}/rooms/{roomId}");

// The spec's short forms of the two above; registered last so /join, /leave, /add and /remove win.
export const addRoomShort = roomAddition("post", "/communities/{id}/{roomId}");

export const removeRoomShort = roomRemoval("/communities/{id}/{roomId}");
