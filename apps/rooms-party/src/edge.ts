import { type LiveSong, type RoomSettings, RoomSettingsSchema, type SongRef } from "@booth/sdk/live/protocol";

/** A refusal from the edge, with the status and message to pass on to the client. */
export class EdgeError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

export interface JoinBody {
  password?: string;
  guestPassword?: string;
}

/** Everything the live room asks of the edge. */
export interface Edge {
  /** The room's settings and roles in force (service). */
  roomSettings(roomUuid: string): Promise<RoomSettings>;
  /** Admission: the edge checks bans, kicks, passwords and the room's size with the joining user's own token. */
  join(roomUuid: string, userToken: string, body: JoinBody): Promise<RoomSettings>;
  /** The user's profile (service), or null for someone without one (guests). */
  profile(userUuid: string): Promise<Record<string, unknown> | null>;
  presenceJoined(roomUuid: string, userUuid: string): Promise<void>;
  presenceLeft(roomUuid: string, userUuid: string): Promise<void>;
  /** Records a play; answers the play's id. */
  recordPlay(
    roomSlug: string,
    play: {
      song: LiveSong;
      djUuid: string;
      voteCounts: { likes: number; dislikes: number; stars: number };
      playedAt: string;
    },
  ): Promise<{ id: string }>;
  awardPoints(award: { userUuid: string; points: number; roomUuid: string; awardKey: string }): Promise<void>;
  upcomingQueue(userUuid: string): Promise<LiveSong[]>;
  /**
   * A song a DJ or a chatter names, as the catalogue has it, with the edge's own stream addresses; the crate entry
   * only when it is one of the user's. A song that does not exist or cannot be heard yet: EdgeError 404.
   */
  song(userUuid: string, ref: SongRef): Promise<LiveSong>;
  advanceQueue(userUuid: string, crateSongUuid: string): Promise<LiveSong[]>;
  addToLikes(userUuid: string, songId: string): Promise<void>;
  notifyDjFans(djUuid: string, roomUuid: string): Promise<void>;
  reportLiveState(roomUuid: string, state: { nowPlaying: LiveSong | null; numberOfActiveDjs: number }): Promise<void>;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The edge over HTTP: `baseUrl` is the gateway (BOOTH_EDGE_URL); service calls carry BOOTH_SERVICE_TOKEN. */
export function httpEdge(options: {
  baseUrl: string;
  serviceToken: string;
  fetch?: typeof fetch;
  timeoutMs?: number;
}): Edge {
  const base = options.baseUrl.replace(/\/+$/, "");
  const doFetch = options.fetch ?? ((input, init) => fetch(input, init));

  async function call(method: string, path: string, body?: unknown, token = options.serviceToken) {
    let res: Response;
    try {
      res = await doFetch(`${base}${path}`, {
        method,
        headers: {
          authorization: `Bearer ${token}`,
          ...(body === undefined ? {} : { "content-type": "application/json" }),
        },
        body: body === undefined ? undefined : JSON.stringify(body),
        signal: AbortSignal.timeout(options.timeoutMs ?? 8000),
      });
    } catch (err) {
      throw new EdgeError(502, `The edge did not answer: ${(err as Error).message}`);
    }
    const text = await res.text();
    let json: unknown = null;
    try {
      json = text ? JSON.parse(text) : null;
    } catch {
      json = text;
    }
    if (!res.ok) {
      const message = (json as { message?: unknown } | null)?.message;
      const first = Array.isArray(message) ? message[0] : message;
      throw new EdgeError(res.status, typeof first === "string" ? first : `The edge answered ${res.status}.`);
    }
    return json;
  }

  const settings = (json: unknown) => {
    const parsed = RoomSettingsSchema.safeParse(json);
    if (!parsed.success) throw new EdgeError(502, "The edge answered room settings this room cannot read.");
    return parsed.data;
  };
  const songs = (json: unknown) => ((json as { songs?: LiveSong[] } | null)?.songs ?? []) as LiveSong[];

  return {
    async roomSettings(roomUuid) {
      return settings(await call("GET", `/api/room-service/rooms/service/room/${roomUuid}`));
    },
    async join(roomUuid, userToken, body) {
      return settings(await call("POST", `/api/room-service/rooms/${roomUuid}/join`, body, userToken));
    },
    async profile(userUuid) {
      try {
        return (await call("GET", `/api/user-service/profile/${userUuid}/service`)) as Record<string, unknown>;
      } catch (err) {
        if (err instanceof EdgeError && err.status === 404) return null;
        throw err;
      }
    },
    async presenceJoined(roomUuid, userUuid) {
      await call("PATCH", `/api/room-service/rooms/user/${userUuid}`, { roomUuid });
    },
    async presenceLeft(roomUuid, userUuid) {
      await call("DELETE", `/api/room-service/rooms/user/${userUuid}?roomUuid=${roomUuid}`);
    },
    async recordPlay(roomSlug, play) {
      const body = { ...play, djUuid: UUID.test(play.djUuid) ? play.djUuid : null };
      return (await call("POST", `/api/room-service/rooms/${encodeURIComponent(roomSlug)}/recent-songs`, body)) as {
        id: string;
      };
    },
    async awardPoints(award) {
      await call("POST", "/api/merch-service/points/service", award);
    },
    async upcomingQueue(userUuid) {
      return songs(await call("GET", `/api/playlist-service/crate/service/user/${userUuid}/queue/upcoming?limit=2`));
    },
    async song(userUuid, ref) {
      const query = ref.crateSongUuid ? `?crateSongUuid=${encodeURIComponent(ref.crateSongUuid)}` : "";
      const path = `/api/playlist-service/crate/service/user/${userUuid}/songs/${encodeURIComponent(ref.songId)}`;
      return (await call("GET", `${path}${query}`)) as LiveSong;
    },
    async advanceQueue(userUuid, crateSongUuid) {
      return songs(
        await call("POST", `/api/playlist-service/crate/service/user/${userUuid}/queue/advance`, { crateSongUuid }),
      );
    },
    async addToLikes(userUuid, songId) {
      await call("POST", `/api/playlist-service/crate/service/user/${userUuid}/likes/songs`, { songId });
    },
    async notifyDjFans(djUuid, roomUuid) {
      await call("POST", "/api/social-service/notifications/dj-fans", { djUuid, roomUuid });
    },
    async reportLiveState(roomUuid, state) {
      await call("PATCH", `/api/room-service/rooms/live-state/${roomUuid}/infrastructure`, state);
    },
  };
}

/** The edge's public key, for verifying tokens (`GET /api/user-service/auth/pub-key`). */
export async function fetchPublicKeyPem(baseUrl: string, doFetch: typeof fetch = fetch): Promise<string> {
  const res = await doFetch(`${baseUrl.replace(/\/+$/, "")}/api/user-service/auth/pub-key`, {
    signal: AbortSignal.timeout(8000),
  });
  if (!res.ok) throw new EdgeError(502, `The edge's public key could not be read (${res.status}).`);
  const body = (await res.json()) as { publicKey?: string };
  if (!body.publicKey) throw new EdgeError(502, "The edge answered no public key.");
  return body.publicKey;
}
