import type { Schema } from "@booth/sdk";
import { userMessage } from "../../lib/errors.server.ts";
import type { Booth } from "../../lib/sdk.server.ts";
import { ROOM_PAGE, type RoomTab } from "./tabs.ts";

export type Room = Schema<"room", "Room">;

export interface CommunityRooms {
  id: string;
  name: string;
  rooms: Room[];
}

/** The rooms of one tab; the signed-in tabs answer empty for guests. */
export async function loadRoomTab(booth: Booth, tab: RoomTab, signedIn: boolean, page: number, request: Request) {
  const out: { promoted: Room[]; rooms: Room[]; total: number; communities: CommunityRooms[]; error?: string } = {
    promoted: [],
    rooms: [],
    total: 0,
    communities: [],
  };
  try {
    if (tab === "discover") {
      const [promoted, publicRooms] = await Promise.all([
        booth.room.GET("/rooms/promoted-rooms", {}),
        booth.room.GET("/rooms/public", { params: { query: { limit: ROOM_PAGE, offset: page * ROOM_PAGE } } }),
      ]);
      out.promoted = promoted.data ?? [];
      out.rooms = publicRooms.data?.data ?? [];
      out.total = publicRooms.data?.total ?? 0;
    } else if (!signedIn) {
      return out;
    } else if (tab === "mine") {
      out.rooms = (await booth.room.GET("/rooms/mine/list", {})).data ?? [];
    } else if (tab === "recent") {
      out.rooms = (await booth.room.GET("/rooms/recent", { params: { query: { limit: 50 } } })).data ?? [];
    } else if (tab === "favorites") {
      out.rooms =
        (await booth.room.GET("/rooms/favorites", { params: { query: { includePrivate: "true" } } })).data ?? [];
    } else if (tab === "communities") {
      const mine = (await booth.room.GET("/user-communities", {})).data?.data ?? [];
      out.communities = await Promise.all(
        mine.slice(0, 20).map(async (c) => {
          const rooms = await booth.room.GET("/communities/{id}/rooms", {
            params: { path: { id: c.id }, query: { limit: 24 } },
          });
          return { id: c.id, name: c.name, rooms: rooms.data?.data ?? [] };
        }),
      );
    }
  } catch (error) {
    out.error = userMessage(error, request);
  }
  if (out.total === 0) out.total = out.rooms.length;
  return out;
}

/** Where the viewer's friends and followed DJs are; nothing when the edge does not answer (the lists still show). */
export async function loadFriendsActivity(booth: Booth) {
  try {
    return (await booth.room.GET("/rooms/friends-activity", {})).data ?? [];
  } catch {
    return [];
  }
}

/** Favourite or unfavourite a room. */
export async function setFavorite(booth: Booth, roomUuid: string, favorite: boolean) {
  if (favorite) await booth.room.POST("/api/v1/room-favorites", { body: { roomUuid } });
  else await booth.room.DELETE("/api/v1/room-favorites/{id}", { params: { path: { id: roomUuid } } });
}

/** How far a fresh instance's demo songs have loaded; null when the edge cannot say (nothing is shown then). */
export async function loadDemoProgress(booth: Booth) {
  try {
    const { data } = await booth.upload.GET("/demo/progress", {});
    return data ?? null;
  } catch {
    return null;
  }
}
