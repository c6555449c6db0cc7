import { type Brand, DEFAULT_BRAND } from "@booth/sdk/brand";
import type { NowPlaying } from "@booth/sdk/live";
import { createContext, type ReactNode, useCallback, useContext, useEffect, useMemo, useRef, useState } from "react";
import { type LiveRoom, useLiveRoom } from "../live/use-live-room.ts";
import { useLiveToken } from "../live/use-live-token.ts";
import type { AudioQuality } from "../playback/player.ts";
import { DEFAULT_PLAYER_SCRIPTS, type PlayerScripts } from "../playback/scripts.ts";
import { usePlayback } from "../playback/use-playback.ts";
import styles from "./room-session.module.css";

/** The room a person is in, as the room page hands it to the app shell. */
export interface RoomTicket {
  room: { uuid: string; slug: string; name: string; ownerUuid: string };
  liveToken: string;
  liveTokenExpiresAt: string | undefined;
  quality: AudioQuality;
  /** What the person entered at the room's password prompt (rooms/$slug/password-gate.tsx), kept in memory only. */
  password?: string;
  guestPassword?: string;
  /** What the room played when the page was rendered, for the player to start on while the live socket joins. */
  early?: EarlyPlay | null;
}

/**
 * The room's song as the page's server render found it, so the first sound need not wait for the live join (issue
 * #20). The join's state replaces it at once: another song, a skip or silence is followed from there on, and its clock
 * offset replaces this estimate (the player steers the difference away, playback/drift.ts).
 */
export interface EarlyPlay {
  nowPlaying: NowPlaying;
  /** Server time minus local time, in ms, estimated from when the server read the room and the page received it. */
  clockOffset: number;
  /** The edge already answers this listener the song (a guest the render admitted); else the live join admits them. */
  admitted: boolean;
}

/** A guess is worth playing while the song has at least this long left (ms): else the join's next song is near. */
const EARLY_MARGIN_MS = 1000;

interface Session {
  room: RoomTicket["room"];
  password?: string | undefined;
  guestPassword?: string | undefined;
  /** The viewer who entered (null: a guest): another viewer (signing in or out) leaves the room. */
  viewerUuid: string | null;
  early: EarlyPlay | null;
}

export interface RoomSession {
  /** The room the person is in, or null. */
  room: Session["room"] | null;
  live: LiveRoom;
  playback: ReturnType<typeof usePlayback>;
  quality: AudioQuality;
  setQuality: (quality: AudioQuality) => void;
  /** Enters a room (the room page, on arrival): the same room keeps its connection, another replaces it. */
  enter: (ticket: RoomTicket) => void;
  /** Leaves the room: the connection closes and the music stops. */
  leave: () => void;
}

const RoomSessionContext = createContext<RoomSession | null>(null);

/**
 * The live room and its player in the app shell (root.tsx's layout), so they outlive client-side navigation: the
 * person stays in the room (a DJ keeps their seat) and the music plays on while they browse the crates or the shop.
 * A full page load starts without a room; the room page enters one.
 */
export function RoomSessionProvider({
  partyUrl,
  apiUrl,
  viewerUuid,
  players,
  brand,
  children,
}: {
  partyUrl: string;
  apiUrl: string;
  viewerUuid: string | null;
  /** The providers' player scripts (the web server's settings). */
  players: PlayerScripts | undefined;
  /** This Booth's brand (BOOTH_BRAND): the player plays only the sources it offers. */
  brand?: Brand | undefined;
  children: ReactNode;
}) {
  const [session, setSession] = useState<Session | null>(null);
  const [ticketToken, setTicketToken] = useState<{ token: string; expiresAt: string | undefined } | null>(null);
  const [quality, setQuality] = useState<AudioQuality>("medium");
  const audioRef = useRef<HTMLAudioElement>(null);
  const mountRef = useRef<HTMLDivElement>(null);
  // The root's data comes again with every navigation: the same settings keep the same player.
  const scriptsKey = JSON.stringify(players ?? DEFAULT_PLAYER_SCRIPTS);
  const scripts = useMemo(() => JSON.parse(scriptsKey) as PlayerScripts, [scriptsKey]);

  const enter = useCallback(
    (ticket: RoomTicket) => {
      setSession((current) =>
        current?.room.uuid === ticket.room.uuid &&
        current.viewerUuid === viewerUuid &&
        current.room.name === ticket.room.name &&
        current.room.slug === ticket.room.slug &&
        (ticket.password === undefined || current.password === ticket.password) &&
        (ticket.guestPassword === undefined || current.guestPassword === ticket.guestPassword)
          ? current
          : {
              room: ticket.room,
              viewerUuid,
              password: ticket.password ?? (current?.room.uuid === ticket.room.uuid ? current.password : undefined),
              guestPassword:
                ticket.guestPassword ?? (current?.room.uuid === ticket.room.uuid ? current.guestPassword : undefined),
              early: ticket.early ?? null,
            },
      );
      setTicketToken((current) =>
        current?.token === ticket.liveToken
          ? current
          : { token: ticket.liveToken, expiresAt: ticket.liveTokenExpiresAt },
      );
      setQuality(ticket.quality);
    },
    [viewerUuid],
  );
  const leave = useCallback(() => {
    setSession(null);
    setTicketToken(null);
  }, []);

  // Signing in or out (without a full page load) is someone else: they leave the room the other one was in.
  useEffect(() => {
    if (session && session.viewerUuid !== viewerUuid) leave();
  }, [session, viewerUuid, leave]);

  const token = useLiveToken(session ? ticketToken : null);
  const live = useLiveRoom({
    partyUrl,
    roomUuid: session?.room.uuid ?? null,
    token: token.fresh,
    password: session?.password,
    guestPassword: session?.guestPassword,
  });
  const room = session?.room ?? null;
  // Until the join's state arrives the player may start on what the page's render saw; never after a refusal or a
  // kick (the connection is no longer connecting), nor on a song about to end.
  const early =
    session?.early &&
    live.connection === "connecting" &&
    live.state === null &&
    !live.kicked &&
    session.early.nowPlaying.endTime - (Date.now() + session.early.clockOffset) > EARLY_MARGIN_MS
      ? session.early
      : null;
  const playbackRoom = useMemo(() => ({ slug: room?.slug ?? "", ownerUuid: room?.ownerUuid ?? "" }), [room]);
  const playback = usePlayback({
    audioRef,
    mountRef,
    scripts,
    signedIn: viewerUuid !== null,
    // Someone removed from the room hears nothing more of it.
    nowPlaying: live.kicked ? null : (live.state?.nowPlaying ?? early?.nowPlaying ?? null),
    fromRoom: live.state !== null,
    admitted: live.state !== null || early?.admitted === true,
    djUuid: live.state?.nowPlaying?.byRoom ? null : (live.state?.djs[0]?.uuid ?? null),
    clockOffset: early ? early.clockOffset : live.clockOffset,
    apiUrl,
    brand: brand ?? DEFAULT_BRAND,
    token: token.current,
    quality,
    room: playbackRoom,
  });

  const value: RoomSession = { room, live, playback, quality, setQuality, enter, leave };
  return (
    <RoomSessionContext.Provider value={value}>
      {children}
      {/* biome-ignore lint/a11y/useMediaCaption: live music has no captions */}
      <audio ref={audioRef} data-testid="room-audio" preload="auto" />
      {/* The providers' players (YouTube's video, SoundCloud's widget) draw here, over the corner of any page. */}
      <div ref={mountRef} className={styles.embed} data-testid="room-embed" data-kind={playback.kind ?? undefined} />
    </RoomSessionContext.Provider>
  );
}

/** The app shell's room session (inside RoomSessionProvider). */
export function useRoomSession() {
  const session = useContext(RoomSessionContext);
  if (!session) throw new Error("useRoomSession outside RoomSessionProvider");
  return session;
}
