import { createRoute, z } from "@hono/zod-openapi";
import { bearer, errors, json, jsonBody, noContent, PageQuery } from "../../../lib/openapi.ts";
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

// Lists of communities -------------------------------------------------------------------------------------------

export const userCommunities = createRoute({
  method: "get",
  path: "/user-communities",
  tags,
  summary: "The communities the caller belongs to or runs, the latest joined first (signed in, bots too)",
  security: bearer,
  request: { query: PageQuery },
  responses: { 200: json(CommunityPage), ...errors(400, 401, 403) },
});

export const roomCommunities = createRoute({
  method: "get",
  path: "/room-communities/{roomId}",
  tags,
  summary: "The communities a room is in (anyone; private communities only to their members and admins)",
  request: { params: z.object({ roomId: roomKey }) },
  responses: { 200: json(z.array(CommunitySchema).openapi("CommunityList")), ...errors(400, 401, 403, 404) },
});

// One community ----------------------------------------------------------------------------------------------------

export const getCommunity = createRoute({
  method: "get",
  path: "/communities/{id}",
  tags,
  summary: "A community by id or slug (anyone; a private one only to its members and admins)",
  request: { params: CommunityKeyParam },
  responses: { 200: json(CommunitySchema), ...errors(400, 401, 403, 404) },
});

export const members = createRoute({
  method: "get",
  path: "/communities/{id}/users",
  tags,
  summary: "A community's members, the earliest first (as the community: anyone, or its members and admins)",
  request: { params: CommunityKeyParam, query: PageQuery },
  responses: {
    200: json(z.object({ data: z.array(MemberSchema), total: z.number().int() }).openapi("CommunityMemberPage")),
    ...errors(400, 401, 403, 404),
  },
});

export const join = createRoute({
  method: "post",
  path: "/communities/{id}/join",
  tags,
  summary: "Join a public community (signed in, bots too); joining again changes nothing",
  security: bearer,
  request: { params: CommunityKeyParam },
  responses: { 200: json(CommunitySchema), ...errors(400, 401, 403, 404) },
});

export const leave = createRoute({
  method: "post",
  path: "/communities/{id}/leave",
  tags,
  summary: "Leave a community (signed in, bots too); leaving one the caller is not in changes nothing",
  security: bearer,
  request: { params: CommunityKeyParam },
  responses: { ...noContent, ...errors(400, 401, 403, 404) },
});

export const addMany = createRoute({
  method: "post",
  path: "/communities/{id}/add",
  tags,
  summary:
    "Add rooms and members at once, all or none (rooms: as PUT /communities/{id}/rooms/{roomId}; members: the community's admins, or the caller themselves in a public one)",
  security: bearer,
  request: { params: CommunityKeyParam, ...jsonBody(ChangeBody) },
  responses: { 200: json(CommunitySchema), ...errors(400, 401, 403, 404) },
});

export const removeMany = createRoute({
  method: "post",
  path: "/communities/{id}/remove",
  tags,
  summary:
    "Take rooms and members out at once, all or none (rooms: as DELETE /communities/{id}/rooms/{roomId}; members: the community's admins, or the caller themselves); ones not in it are skipped",
  security: bearer,
  request: { params: CommunityKeyParam, ...jsonBody(ChangeBody) },
  responses: { 200: json(CommunitySchema), ...errors(400, 401, 403, 404) },
});

export const addMember = createRoute({
  method: "put",
  path: "/communities/{id}/users/{userId}",
  tags,
  summary: "Add a member (the community's admins: its creator, staff); adding a member again changes nothing",
  security: bearer,
  request: { params: CommunityUserParams },
  responses: { 200: json(MembershipSchema), ...errors(400, 401, 403, 404) },
});

export const removeMember = createRoute({
  method: "delete",
  path: "/communities/{id}/users/{userId}",
  tags,
  summary: "Remove a member (the community's admins; members may remove themselves)",
  security: bearer,
  request: { params: CommunityUserParams },
  responses: { ...noContent, ...errors(400, 401, 403, 404) },
});

export const rooms = createRoute({
  method: "get",
  path: "/communities/{id}/rooms",
  tags,
  summary:
    "A community's rooms, the busiest first: public listed ones, plus the private or unlisted ones the caller helps run (staff and global moderators: all)",
  request: { params: CommunityKeyParam, query: PageQuery },
  responses: {
    200: json(z.object({ data: z.array(RoomSchema), total: z.number().int() }).openapi("CommunityRoomPage")),
    ...errors(400, 401, 403, 404),
  },
});

const addRoomDoc = {
  tags,
  summary:
    "Put a room into a community (the room's owner or co-owners: into a public community, or one they run); putting it in again answers 200",
  security: bearer,
  request: { params: CommunityRoomParams },
  responses: {
    200: json(CommunityRoomSchema),
    201: json(CommunityRoomSchema, "Created"),
    ...errors(400, 401, 403, 404),
  },
};
const removeRoomDoc = {
  tags,
  summary: "Take a room out of a community (the community's admins, or the room's owner or co-owners)",
  security: bearer,
  request: { params: CommunityRoomParams },
  responses: { ...noContent, ...errors(400, 401, 403, 404) },
};

export const addRoom = createRoute({ method: "put", path: "/communities/{id}/rooms/{roomId}", ...addRoomDoc });

export const removeRoom = createRoute({ method: "delete", path: "/communities/{id}/rooms/{roomId}", ...removeRoomDoc });

// The spec's short forms of the two above; registered last so /join, /leave, /add and /remove win.
export const addRoomShort = createRoute({ method: "post", path: "/communities/{id}/{roomId}", ...addRoomDoc });

export const removeRoomShort = createRoute({ method: "delete", path: "/communities/{id}/{roomId}", ...removeRoomDoc });
