import type { Schema } from "@booth/sdk";
import type { NowPlaying } from "@booth/sdk/live";
import { ROOM_RANK, roomRank } from "@booth/sdk/live/permissions";
import { data } from "@remix-run/node";
import { userMessage } from "../../lib/errors.server.ts";
import { isApiError } from "../../lib/errors.ts";
import { field } from "../../lib/forms.ts";
import { hlsChunk } from "../../lib/hls-chunk.server.ts";
import { currentRoomRoles, roomBySlug } from "../../lib/rooms.server.ts";
import { sdkFor } from "../../lib/sdk.server.ts";
import {
  AUDIO_QUALITIES,
  commitSession,
  getSession,
  liveToken,
  readSession,
  requireViewer,
} from "../../lib/session.server.ts";

/**
 * Which password the viewer must give before the room admits them, as the edge's join decides: a guest the guest
 * password (when the room has one), someone signed in the room's password unless they co-own it or rank above.
 */
async function passwordAsked(
  booth: ReturnType<typeof sdkFor>,
  room: Schema<"room", "Room">,
  viewer: { uuid: string; roles: string[] } | null,
  guest: boolean,
): Promise<"password" | "guestPassword" | null> {
  if (guest || !viewer) return room.isGuestPasswordProtected ? "guestPassword" : null;
  if (!room.isPasswordProtected) return null;
  const roles = await currentRoomRoles(booth, room, viewer);
  return roomRank(room, viewer.uuid, viewer.roles, roles) >= ROOM_RANK.coOwner ? null : "password";
}

/**
 * The password prompt's check: the edge's own join (`POST /rooms/{slug}/join`) with the session's token, a guest's
 * too, so a wrong password is refused in its words (and counted by its limit) before the live room is asked.
 */
export async function checkRoomPassword(request: Request, slug: string) {
  const form = await request.formData();
  const password = typeof form.get("password") === "string" ? (form.get("password") as string) : "";
  const kind = field(form, "kind") === "guestPassword" ? "guestPassword" : "password";
  const { token } = await readSession(request);
  const callerToken = token ?? (await getSession(request)).get("guestToken") ?? null;
  if (!password) return data({ error: "Enter the password.", kind }, { status: 400 });
  try {
    await sdkFor(callerToken).room.POST("/rooms/{slug}/join", {
      params: { path: { slug: slug.toLowerCase() } },
      body: { [kind]: password },
    });
  } catch (error) {
    return data({ error: userMessage(error, request), kind }, { status: 400 });
  }
  return { ok: "enter" as const, kind, password };
}

/** A now-playing entry of the room's public state, checked as far as the player relies on it. */
function nowPlayingOf(state: Record<string, unknown> | undefined): NowPlaying | null {
  const np = state?.nowPlaying as Partial<NowPlaying> | null | undefined;
  if (!np || typeof np.startTime !== "number" || typeof np.endTime !== "number") return null;
  if (typeof np.song !== "object" || np.song === null) return null;
  return np as NowPlaying;
}

/**
 * What the room plays as its page renders, so the page can start the song while its live socket joins (issue #20):
 * the live room's public state through the edge, read only when the edge's record says a song plays, and the
 * server's clock when it was read. The edge answers the song's playlist only to someone a room playing it admitted:
 * a guest is admitted by the edge's own join with their token, the call the live room makes for them too, so it is
 * made here; a signed-in person is admitted by the live room's join and their player waits for it. Nothing (null)
 * for a room behind a password, a private one the caller may not read, or one the edge refuses the guest.
 */
async function playingAtRender(
  booth: ReturnType<typeof sdkFor>,
  room: Schema<"room", "Room">,
  /** A guest's token (their join is made with it), or null for someone signed in. */
  guestToken: string | null,
): Promise<{ nowPlaying: NowPlaying; serverTime: number; admitted: boolean } | null> {
  if (!room.song || room.isPasswordProtected || room.isGuestPasswordProtected) return null;
  const [state, admitted] = await Promise.all([
    booth.room
      .GET("/rooms/room-state/{id}", { params: { path: { id: room.uuid } } })
      .then((r) => r.data?.state)
      .catch(() => undefined),
    guestToken
      ? sdkFor(guestToken)
          .room.POST("/rooms/{slug}/join", { params: { path: { slug: room.slug } }, body: {} })
          .then((r) => r.response.ok)
          .catch(() => false)
      : false,
  ]);
  const nowPlaying = nowPlayingOf(state);
  if (!nowPlaying || (guestToken && !admitted)) return null;
  return { nowPlaying, serverTime: Date.now(), admitted };
}

/**
 * Whether the browser is opening the room's page (a document), where its player starts before the live join. Not a
 * data request: every song change revalidates the room page, and reading the live state there would ask the room's
 * Durable Object for its whole state once per listener and song; a client-side navigation starts on the join.
 */
const openedAsPage = (request: Request) => request.headers.get("sec-fetch-dest") === "document";

/** The room's recently played songs. */
const recentSongs = (booth: ReturnType<typeof sdkFor>, slug: string) =>
  booth.room
    .GET("/rooms/{slug}/recent-songs", { params: { path: { slug }, query: { limit: 10 } } })
    .then((r) => r.data?.data ?? []);

/** The viewer's queue, as the room's DJ panel lists it. */
const queueOf = (booth: ReturnType<typeof sdkFor>) =>
  booth.playlist.GET("/crate/special/queue/songs", { params: { query: { limit: 100 } } }).then((r) => r.data ?? []);

/**
 * When a queue was read (this server's clock, just before asking): of two reads of the queue, the page shows the later
 * one. A page load or a new song's read that began before an add had been made must not hide that add (queue-changes.ts).
 */
const readNow = () => Date.now();

/**
 * What a new song changes on the room's page (`/rooms/{slug}/after-song`): the song before it joined the recently
 * played, and a DJ's queue advanced. Every listener asks at the same moment, the song's start, so this is all they
 * ask for, not the whole page again (the page's data took six calls to the edge per listener and song). A queue the
 * edge did not answer is null: the page keeps the one it has. The edge's refusal of the room's songs (no such room)
 * is thrown.
 */
export async function afterSong(request: Request, slug: string) {
  const { token, viewer } = await readSession(request);
  const booth = sdkFor(token);
  const queueReadAt = readNow();
  const [recent, queue] = await Promise.all([
    recentSongs(booth, slug.toLowerCase()),
    viewer ? queueOf(booth).catch(() => null) : [],
  ]);
  return { recent, queue, queueReadAt };
}

/** The room, the token its live socket connects with (the viewer's, or a guest's), and the viewer's queue. */
export async function loadRoom(request: Request, slug: string) {
  const session = await liveToken(request);
  const booth = sdkFor(session.token);
  const room = await roomBySlug(booth, slug);
  const [recent, playing] = await Promise.all([
    // None when the edge does not answer them: the room opens all the same.
    recentSongs(booth, room.slug).catch(() => []),
    openedAsPage(request) ? playingAtRender(booth, room, session.guest ? session.liveToken : null) : null,
  ]);
  const queueReadAt = readNow();
  const [queue, crates] = session.viewer
    ? await Promise.all([
        queueOf(booth),
        // Where a grab can go: the viewer's playlists (their queue and likes are offered besides).
        booth.playlist
          .GET("/crate/user", { params: { query: { limit: 100 } } })
          .then((r) =>
            (r.data?.data ?? [])
              .filter((c) => c.kind === "default")
              .map((c) => ({ crateUuid: c.crateUuid, crateName: c.crateName })),
          )
          .catch(() => []),
      ])
    : [[], []];
  const asked = await passwordAsked(booth, room, session.viewer, session.guest);
  if (session.viewer) {
    // The room lists' "recent" tab; a failure here must not keep anyone out of the room.
    await booth.room.POST("/rooms/recent", { body: { roomUuid: room.uuid } }).catch(() => undefined);
  }
  return data(
    {
      room,
      queue,
      queueReadAt,
      crates,
      recent,
      liveToken: session.liveToken,
      liveTokenExpiresAt: session.liveTokenExpiresAt,
      guest: session.guest,
      viewer: session.viewer,
      audioQuality: session.audioQuality,
      passwordAsked: asked,
      playing,
      // Its player is what the first sound waits for once the page has hydrated.
      hlsScript: (playing?.nowPlaying.song as { streamUrls?: { hls?: string } } | undefined)?.streamUrls?.hls
        ? hlsChunk()
        : null,
    },
    { headers: session.setCookie ? { "set-cookie": session.setCookie } : {} },
  );
}

const MODERATION_ROLES = ["kicked", "banned", "chatDisabled", "djDisabled", "moderator", "dj"] as const;

/** What the queue's changes answer: the queue after the change, or why it was refused (in the page's language). */
export type QueueAnswer = { queue: Awaited<ReturnType<typeof queueOf>>; readAt: number } | { error: string };

/**
 * A change to the viewer's queue from the room's DJ panel (the `/queue` resource route): a song added at its end
 * (`songId`) or one taken out (`crateSongUuid`). Answers the queue as it is after the change, so the panel shows it
 * without loading the room's page again; a refusal of the edge keeps its status and says why.
 */
export async function changeQueue(request: Request): Promise<Response> {
  const { token } = await readSession(request);
  const json = (answer: QueueAnswer, status = 200) =>
    Response.json(answer, { status, headers: { "cache-control": "no-store" } });
  const form = await request.formData().catch(() => null);
  const crateSongUuid = form ? field(form, "crateSongUuid") : "";
  if (!form || (!crateSongUuid && !field(form, "songId")))
    return json(
      { error: "Send a form with the song to add (songId) or the queued song to take out (crateSongUuid)." },
      400,
    );
  // The edge checks the caller and the ids: its refusal is the answer (a signed-out caller's 401, say).
  const booth = sdkFor(token);
  try {
    if (crateSongUuid)
      await booth.playlist.DELETE("/crate/special/queue/songs/{crateSongUuid}", {
        params: { path: { crateSongUuid } },
      });
    else await booth.playlist.POST("/crate/special/queue/songs", { body: { songIds: [field(form, "songId")] } });
    const readAt = readNow();
    return json({ queue: await queueOf(booth), readAt });
  } catch (error) {
    return json({ error: userMessage(error, request) }, isApiError(error) && error.status < 500 ? error.status : 502);
  }
}

/** The room's forms: favourite, audio quality, pinned messages and moderation. */
export async function roomAction(request: Request) {
  const { token, session } = await requireViewer(request);
  const form = await request.formData();
  const booth = sdkFor(token);
  const intent = field(form, "intent");
  const roomUuid = field(form, "roomUuid");
  try {
    switch (intent) {
      case "favorite":
        if (field(form, "favorite") === "true") await booth.room.POST("/api/v1/room-favorites", { body: { roomUuid } });
        else await booth.room.DELETE("/api/v1/room-favorites/{id}", { params: { path: { id: roomUuid } } });
        return { ok: intent };
      case "quality": {
        const quality = AUDIO_QUALITIES.find((q) => q === field(form, "quality")) ?? "medium";
        session.set("audioQuality", quality);
        return data({ ok: intent }, { headers: { "set-cookie": await commitSession(session) } });
      }
      case "pin": {
        // One message per line.
        const messages = field(form, "pins")
          .split("\n")
          .map((m) => m.trim())
          .filter(Boolean);
        await booth.room.POST("/rooms/{id}/pinned-messages", {
          params: { path: { id: roomUuid } },
          body: { pinnedMessages: messages },
        });
        return { ok: intent };
      }
      case "kick":
        await booth.room.POST("/roomUserRoles/kick-user-from-room", {
          body: { roomUuid, userUuid: field(form, "userUuid") },
        });
        return { ok: intent };
      case "role": {
        const role = MODERATION_ROLES.find((r) => r === field(form, "role"));
        if (!role) return data({ error: "Unknown role." }, { status: 400 });
        const minutes = Number(field(form, "minutes"));
        await booth.room.POST("/roomUserRoles/{room}", {
          params: { path: { room: roomUuid } },
          body: {
            userUuid: field(form, "userUuid"),
            role,
            ...(minutes > 0 ? { expirationTime: new Date(Date.now() + minutes * 60_000).toISOString() } : {}),
          },
        });
        return { ok: intent };
      }
      case "lift": {
        const role = MODERATION_ROLES.find((r) => r === field(form, "role"));
        if (!role) return data({ error: "Unknown role." }, { status: 400 });
        await booth.room.DELETE("/roomUserRoles/{room}", {
          params: { path: { room: roomUuid } },
          body: { userUuid: field(form, "userUuid"), role },
        });
        return { ok: intent };
      }
      case "room-crate": {
        // The owner's pick (the edge checks it is the owner and one of their playlists); empty: none.
        const crate = field(form, "roomCrateId");
        await booth.room.PATCH("/rooms/{id}", {
          params: { path: { id: roomUuid } },
          body: { roomCrateId: crate ? crate : null },
        });
        return { ok: intent };
      }
      case "clear-chat":
        await booth.room.DELETE("/rooms/conversation/{id}", { params: { path: { id: roomUuid } } });
        return { ok: intent };
      default:
        return data({ error: "Unknown action." }, { status: 400 });
    }
  } catch (error) {
    return data({ error: userMessage(error, request) }, { status: 400 });
  }
}
