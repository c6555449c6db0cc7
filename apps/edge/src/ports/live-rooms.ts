import type { LiveRoomEvent } from "@booth/sdk/live/edge-events";
import { HttpError } from "../lib/errors.ts";
import { currentRequestId } from "../lib/request-id.ts";
import { answered, fetchProvider, type ProviderHttp } from "./provider-post.ts";

/** What the edge tells a live room after a change made over REST: the room's own contract (`@booth/sdk/live`). */
export type { LiveRoomEvent };

/** The live rooms (apps/rooms-party, a Worker with a Durable Object per room), seen from the edge. */
export interface LiveRooms {
  /** Tells a room about a change; a room that is not running has nothing to update, and that is fine. */
  notify(roomUuid: string, event: LiveRoomEvent): Promise<void>;
  /** The room's current public state, or null when nobody is in it. */
  state(roomUuid: string): Promise<unknown | null>;
}

/**
 * The rooms' Worker (`wrangler dev` locally, Cloudflare when deployed): `{baseUrl}/parties/main/{roomUuid}`, called
 * with a service token of a minute, signed per call with the edge's key (its `kid` names it in the JWKS the rooms
 * check it against).
 */
export function partyLiveRooms(
  options: ProviderHttp & { baseUrl: string; serviceToken: () => Promise<string> },
): LiveRooms {
  const fetch = options.fetch ?? globalThis.fetch;
  const base = options.baseUrl.replace(/\/+$/, "");
  async function call(roomUuid: string, init: RequestInit) {
    const headers: Record<string, string> = {
      authorization: `Bearer ${await options.serviceToken()}`,
      "content-type": "application/json",
    };
    // The room logs its side of the request under the same id.
    const requestId = currentRequestId();
    if (requestId) headers["x-request-id"] = requestId;
    return fetchProvider(
      `${base}/parties/main/${roomUuid}`,
      { ...init, headers },
      {
        fetch,
        timeoutMs: options.timeoutMs ?? 5000,
        unreachable: (err) => new HttpError(502, `The live room did not answer (${base}): ${err.message}`),
      },
    );
  }
  return {
    async notify(roomUuid, event) {
      const res = await call(roomUuid, { method: "POST", body: JSON.stringify(event) });
      await res.body?.cancel();
      if (!res.ok) throw new HttpError(502, `The live room refused the update (${res.status}).`);
    },
    async state(roomUuid) {
      const res = await call(roomUuid, { method: "GET" });
      if (res.status === 404) {
        await res.body?.cancel();
        return null;
      }
      if (!res.ok) {
        await res.body?.cancel();
        throw new HttpError(502, `${answered("The live room", res.status)}.`);
      }
      return res.json();
    },
  };
}

/** Keeps what it was told, for tests and for an edge running without live rooms. */
export function recordingLiveRooms(states = new Map<string, unknown>()) {
  const events: { roomUuid: string; event: LiveRoomEvent }[] = [];
  const rooms: LiveRooms & { events: typeof events; states: Map<string, unknown> } = {
    events,
    states,
    async notify(roomUuid, event) {
      events.push({ roomUuid, event });
    },
    async state(roomUuid) {
      return states.get(roomUuid) ?? null;
    },
  };
  return rooms;
}

/** Rooms that never answer (a party that is down), for tests of what a REST change does then. */
export function unreachableLiveRooms(): LiveRooms {
  return {
    async notify() {
      throw new Error("the party is down");
    },
    async state() {
      return null;
    },
  };
}

/** A failed notification is logged, never fails the REST change that caused it: the room rereads on its next start. */
export function notifyingQuietly(rooms: LiveRooms, log: (entry: Record<string, unknown>) => void): LiveRooms {
  return {
    state: (roomUuid) => rooms.state(roomUuid),
    async notify(roomUuid, event) {
      try {
        await rooms.notify(roomUuid, event);
      } catch (err) {
        log({ level: "warn", msg: "live room not notified", roomUuid, event: event.type, error: String(err) });
      }
    },
  };
}
