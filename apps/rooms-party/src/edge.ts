import { createBoothClient } from "@booth/sdk";
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
   * The room crate's songs from crate position `from` on, wrapping around (service): the edge reads which crate from
   * the room, and answers none when it is not (or no longer) one of the owner's playlists.
   */
  roomCrate(roomUuid: string, from: number): Promise<{ crateId: string | null; songs: LiveSong[] }>;
  /**
   * A song a DJ or a chatter names, as the catalogue has it, with the edge's own stream addresses; the crate entry
   * only when it is one of the user's. A song that does not exist or cannot be heard yet: EdgeError 404.
   */
  song(userUuid: string, ref: SongRef): Promise<LiveSong>;
  advanceQueue(userUuid: string, crateSongUuid: string): Promise<LiveSong[]>;
  addToLikes(userUuid: string, songId: string): Promise<void>;
  /** A grab: the song into one of the user's crates (a uuid, `queue` or `likes`); false when it was there already. */
  addToCrate(userUuid: string, crate: string, songId: string): Promise<{ added: boolean }>;
  /** A DJ started `song`: their fans are notified, and a guild's channel told (when the room is a guild's that chose one). */
  notifyDjFans(djUuid: string, roomUuid: string, song: LiveSong): Promise<void>;
  /** What plays and how many DJs sit, with the messages received from clients since the last report. */
  reportLiveState(
    roomUuid: string,
    state: { nowPlaying: LiveSong | null; numberOfActiveDjs: number; messagesReceived?: number },
  ): Promise<void>;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** What a typed call answers (openapi-fetch's result), as far as the room reads it. */
type Answer = { data?: unknown; error?: unknown; response: Response };

/**
 * The edge over HTTP, through the generated SDK: `baseUrl` is the gateway (BOOTH_EDGE_URL); service calls carry a
 * token from `serviceToken` (a short one, signed per minute with the shared secret), the join the user's own.
 */
export function httpEdge(options: {
  baseUrl: string;
  serviceToken: () => Promise<string>;
  fetch?: typeof fetch;
  timeoutMs?: number;
}): Edge {
  const timeoutMs = options.timeoutMs ?? 8000;
  const doFetch = options.fetch ?? ((input: RequestInfo | URL, init?: RequestInit) => fetch(input, init));
  // Every call gives up after timeoutMs; a network failure is the edge not answering.
  const timedFetch = (async (input: RequestInfo | URL, init?: RequestInit) => {
    try {
      const request = new Request(input, init);
      return await doFetch(request, { signal: AbortSignal.timeout(timeoutMs) });
    } catch (err) {
      throw new EdgeError(502, `The edge did not answer: ${(err as Error).message}`);
    }
  }) as typeof fetch;
  const api = createBoothClient({ baseUrl: options.baseUrl, fetch: timedFetch, throwOnError: false });
  const bearer = (token: string) => ({ authorization: `Bearer ${token}` });
  const service = async () => {
    try {
      return bearer(await options.serviceToken());
    } catch (err) {
      if (err instanceof EdgeError) throw err;
      throw new EdgeError(503, `The rooms cannot sign their calls to the edge: ${(err as Error).message}`);
    }
  };

  /** The answer's data; a refusal becomes an EdgeError with the edge's first message. */
  async function answer(call: Promise<Answer>): Promise<unknown> {
    let result: Answer;
    try {
      result = await call;
    } catch (err) {
      if (err instanceof EdgeError) throw err;
      throw new EdgeError(502, `The edge did not answer: ${(err as Error).message}`);
    }
    if (!result.response.ok) {
      const message = (result.error as { message?: unknown } | null | undefined)?.message;
      const first = Array.isArray(message) ? message[0] : message;
      throw new EdgeError(
        result.response.status,
        typeof first === "string" ? first : `The edge answered ${result.response.status}.`,
      );
    }
    return result.data ?? null;
  }

  const settings = (json: unknown) => {
    const parsed = RoomSettingsSchema.safeParse(json);
    if (!parsed.success) throw new EdgeError(502, "The edge answered room settings this room cannot read.");
    return parsed.data;
  };
  const songs = (json: unknown) => ((json as { songs?: LiveSong[] } | null)?.songs ?? []) as LiveSong[];

  return {
    async roomSettings(roomUuid) {
      const headers = await service();
      return settings(
        await answer(api.room.GET("/rooms/service/room/{id}", { params: { path: { id: roomUuid } }, headers })),
      );
    },
    async join(roomUuid, userToken, body) {
      return settings(
        await answer(
          api.room.POST("/rooms/{slug}/join", {
            params: { path: { slug: roomUuid } },
            body,
            headers: bearer(userToken),
          }),
        ),
      );
    },
    async profile(userUuid) {
      try {
        const headers = await service();
        return (await answer(
          api.user.GET("/profile/{id}/service", { params: { path: { id: userUuid } }, headers }),
        )) as Record<string, unknown>;
      } catch (err) {
        if (err instanceof EdgeError && err.status === 404) return null;
        throw err;
      }
    },
    async presenceJoined(roomUuid, userUuid) {
      const headers = await service();
      await answer(
        api.room.PATCH("/rooms/user/{user}", { params: { path: { user: userUuid } }, body: { roomUuid }, headers }),
      );
    },
    async presenceLeft(roomUuid, userUuid) {
      const headers = await service();
      await answer(
        api.room.DELETE("/rooms/user/{user}", { params: { path: { user: userUuid }, query: { roomUuid } }, headers }),
      );
    },
    async recordPlay(roomSlug, play) {
      const headers = await service();
      const body = { ...play, djUuid: UUID.test(play.djUuid) ? play.djUuid : null };
      return (await answer(
        api.room.POST("/rooms/{slug}/recent-songs", {
          params: { path: { slug: roomSlug } },
          body,
          headers,
        }),
      )) as { id: string };
    },
    async awardPoints(award) {
      const headers = await service();
      await answer(api.merch.POST("/points/service", { body: award, headers }));
    },
    async upcomingQueue(userUuid) {
      const headers = await service();
      return songs(
        await answer(
          api.playlist.GET("/crate/service/user/{userUuid}/queue/upcoming", {
            params: { path: { userUuid }, query: { limit: 2 } },
            headers,
          }),
        ),
      );
    },
    async roomCrate(roomUuid, from) {
      const headers = await service();
      const body = (await answer(
        api.room.GET("/rooms/service/room/{id}/crate", {
          params: { path: { id: roomUuid }, query: { from, limit: 3 } },
          headers,
        }),
      )) as { crateId?: string | null } | null;
      return { crateId: body?.crateId ?? null, songs: songs(body) };
    },
    async song(userUuid, ref) {
      const headers = await service();
      const query = ref.crateSongUuid ? { crateSongUuid: ref.crateSongUuid } : {};
      return (await answer(
        api.playlist.GET("/crate/service/user/{userUuid}/songs/{songId}", {
          params: { path: { userUuid, songId: ref.songId }, query },
          headers,
        }),
      )) as LiveSong;
    },
    async advanceQueue(userUuid, crateSongUuid) {
      const headers = await service();
      return songs(
        await answer(
          api.playlist.POST("/crate/service/user/{userUuid}/queue/advance", {
            params: { path: { userUuid } },
            body: { crateSongUuid },
            headers,
          }),
        ),
      );
    },
    async addToLikes(userUuid, songId) {
      const headers = await service();
      await answer(
        api.playlist.POST("/crate/service/user/{userUuid}/likes/songs", {
          params: { path: { userUuid } },
          body: { songId },
          headers,
        }),
      );
    },
    async addToCrate(userUuid, crate, songId) {
      const headers = await service();
      const body = (await answer(
        api.playlist.POST("/crate/service/user/{userUuid}/crates/{crate}/songs", {
          params: { path: { userUuid, crate } },
          body: { songId },
          headers,
        }),
      )) as { added?: boolean };
      return { added: body?.added === true };
    },
    async notifyDjFans(djUuid, roomUuid, song) {
      const headers = await service();
      const started = { trackName: song.trackName, artistName: song.artistName };
      await answer(api.social.POST("/notifications/dj-fans", { body: { djUuid, roomUuid, song: started }, headers }));
    },
    async reportLiveState(roomUuid, state) {
      const headers = await service();
      await answer(
        api.room.PATCH("/rooms/live-state/{id}/infrastructure", {
          params: { path: { id: roomUuid } },
          body: state,
          headers,
        }),
      );
    },
  };
}
