import type { Schema } from "@booth/sdk";
import { data } from "@remix-run/node";
import { foundOr404, userMessage } from "../../lib/errors.server.ts";
import { isApiError } from "../../lib/errors.ts";
import { field } from "../../lib/forms.ts";
import { ADMIN_ROLES, hasRole, STAFF_ROLES } from "../../lib/roles.ts";
import { type Booth, sdkFor } from "../../lib/sdk.server.ts";
import { readSession, requireViewer } from "../../lib/session.server.ts";

type Community = Schema<"room", "Community">;
type Room = Schema<"room", "Room">;
type Member = Schema<"room", "CommunityMember">;

function communityOf(booth: Booth, id: string): Promise<Community> {
  return foundOr404("Community", booth.room.GET("/communities/{id}", { params: { path: { id } } }));
}

/**
 * What the viewer may do here, as the edge decides it: join a public community, leave one they are in; its admins
 * (whoever created it, and staff) take rooms and members out; a room's owners and co-owners put their rooms into a
 * public community (or one they run); only the platform's admins change its name and description
 * (`PATCH /admin/communities/{id}`).
 */
function permissionsOf(community: Community, viewer: { uuid: string; roles: string[] } | null) {
  const runs = !!viewer && (community.createdBy === viewer.uuid || hasRole(viewer, STAFF_ROLES));
  return {
    join: !!viewer && !community.joined && community.isPublic,
    leave: !!viewer && community.joined,
    manage: runs,
    runsIt: !!viewer && community.createdBy === viewer.uuid,
    addRoom: !!viewer && (community.isPublic || runs),
    edit: hasRole(viewer, ADMIN_ROLES),
  };
}

/** The community, its rooms and members, and (signed in) the rooms the viewer runs, for adding one. */
export async function loadCommunity(request: Request, id: string) {
  const { token, viewer } = await readSession(request);
  const booth = sdkFor(token);
  let community: Community;
  try {
    community = await communityOf(booth, id);
  } catch (error) {
    // A private community the viewer is not in: the edge's words, not a crash.
    if (isApiError(error, 403) || isApiError(error, 401))
      return { refused: userMessage(error, request), community: null, rooms: [], members: [], myRooms: [], may: null };
    throw error;
  }
  const path = { params: { path: { id: community.id }, query: { limit: 100, offset: 0 } } };
  const [rooms, members, mine] = await Promise.all([
    booth.room.GET("/communities/{id}/rooms", path).then((r) => r.data?.data ?? ([] as Room[])),
    booth.room
      .GET("/communities/{id}/users", path)
      .then((r) => r.data?.data ?? ([] as Member[]))
      .catch(() => [] as Member[]),
    token
      ? booth.room
          .GET("/rooms/mine/list", {})
          .then((r) => r.data ?? ([] as Room[]))
          .catch(() => [] as Room[])
      : Promise.resolve([] as Room[]),
  ]);
  const inIt = new Set(rooms.map((r) => r.uuid));
  const may = permissionsOf(community, viewer);
  return {
    refused: null,
    community,
    rooms: rooms.map((r) => ({
      uuid: r.uuid,
      slug: r.slug,
      name: r.name,
      description: r.description,
      // The community's admins take any room out; a room's owners and co-owners their own (the edge checks the rank).
      removable: may.manage || mine.some((m) => m.uuid === r.uuid),
    })),
    members,
    myRooms: may.addRoom ? mine.filter((r) => !inIt.has(r.uuid)).map((r) => ({ uuid: r.uuid, name: r.name })) : [],
    may,
  };
}

type Notice = "joined" | "left" | "saved" | "roomAdded" | "roomRemoved" | "memberRemoved";
const done = (notice: Notice) => ({ error: null, notice });

/** Every change of the page, through the edge's route for it: the edge decides, and its refusals are shown. */
export async function changeCommunity(request: Request, id: string) {
  const { token } = await requireViewer(request);
  const booth = sdkFor(token);
  const form = await request.formData();
  const intent = field(form, "intent");
  try {
    const community = await communityOf(booth, id);
    const path = { params: { path: { id: community.id } } };
    switch (intent) {
      case "join":
        await booth.room.POST("/communities/{id}/join", path);
        return done("joined");
      case "leave":
        await booth.room.POST("/communities/{id}/leave", path);
        return done("left");
      case "edit":
        await booth.room.PATCH("/admin/communities/{id}", {
          ...path,
          body: {
            name: field(form, "name"),
            description: field(form, "description"),
            isPublic: form.get("isPublic") === "on",
          },
        });
        return done("saved");
      case "addRoom":
        await booth.room.PUT("/communities/{id}/rooms/{roomId}", {
          params: { path: { id: community.id, roomId: field(form, "roomUuid") } },
        });
        return done("roomAdded");
      case "removeRoom":
        await booth.room.DELETE("/communities/{id}/rooms/{roomId}", {
          params: { path: { id: community.id, roomId: field(form, "roomUuid") } },
        });
        return done("roomRemoved");
      case "removeMember":
        await booth.room.DELETE("/communities/{id}/users/{userId}", {
          params: { path: { id: community.id, userId: field(form, "userUuid") } },
        });
        return done("memberRemoved");
    }
  } catch (error) {
    if (error instanceof Response) return data({ error: "Community not found.", notice: null }, { status: 404 });
    return data({ error: userMessage(error, request), notice: null }, { status: 400 });
  }
  return data({ error: userMessage(null, request), notice: null }, { status: 400 });
}
