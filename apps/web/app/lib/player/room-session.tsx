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
}

interface Session {
  room: RoomTicket["room"];
  password?: string | undefined;
  guestPassword?: string | undefined;
  /** The viewer who entered (null: a guest): another viewer (signing in or out) leaves the room. */
  viewerUuid: string | null;
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
  children,
}: {
  partyUrl: string;
  apiUrl: string;
  viewerUuid: string | null;
  /** The providers' player scripts (the web server's settings). */
  players: PlayerScripts | undefined;
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
  const playbackRoom = useMemo(() => ({ slug: room?.slug ?? "", ownerUuid: room?.ownerUuid ?? "" }), [room]);
  const playback = usePlayback({
    audioRef,
    mountRef,
    scripts,
    signedIn: viewerUuid !== null,
    // Someone removed from the room hears nothing more of it.
    nowPlaying: live.kicked ? null : (live.state?.nowPlaying ?? null),
    djUuid: live.state?.nowPlaying?.byRoom ? null : (live.state?.djs[0]?.uuid ?? null),
    clockOffset: live.clockOffset,
    apiUrl,
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
