import { createContext, type ReactNode, useCallback, useContext, useEffect, useMemo, useRef, useState } from "react";
import { type LiveRoom, useLiveRoom } from "../live/use-live-room.ts";
import { useLiveToken } from "../live/use-live-token.ts";
import type { AudioQuality } from "../playback/player.ts";
import { usePlayback } from "../playback/use-playback.ts";

/** The room a person is in, as the room page hands it to the app shell. */
export interface RoomTicket {
  room: { uuid: string; slug: string; name: string; ownerUuid: string };
  liveToken: string;
  liveTokenExpiresAt: string | undefined;
  quality: AudioQuality;
}

interface Session {
  room: RoomTicket["room"];
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
  children,
}: {
  partyUrl: string;
  apiUrl: string;
  viewerUuid: string | null;
  children: ReactNode;
}) {
  const [session, setSession] = useState<Session | null>(null);
  const [ticketToken, setTicketToken] = useState<{ token: string; expiresAt: string | undefined } | null>(null);
  const [quality, setQuality] = useState<AudioQuality>("medium");
  const audioRef = useRef<HTMLAudioElement>(null);

  const enter = useCallback(
    (ticket: RoomTicket) => {
      setSession((current) =>
        current?.room.uuid === ticket.room.uuid &&
        current.viewerUuid === viewerUuid &&
        current.room.name === ticket.room.name &&
        current.room.slug === ticket.room.slug
          ? current
          : { room: ticket.room, viewerUuid },
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
  const live = useLiveRoom({ partyUrl, roomUuid: session?.room.uuid ?? null, token: token.fresh });
  const room = session?.room ?? null;
  const playbackRoom = useMemo(() => ({ slug: room?.slug ?? "", ownerUuid: room?.ownerUuid ?? "" }), [room]);
  const playback = usePlayback({
    audioRef,
    // Someone removed from the room hears nothing more of it.
    nowPlaying: live.kicked ? null : (live.state?.nowPlaying ?? null),
    djUuid: live.state?.djs[0]?.uuid ?? null,
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
    </RoomSessionContext.Provider>
  );
}

/** The app shell's room session (inside RoomSessionProvider). */
export function useRoomSession() {
  const session = useContext(RoomSessionContext);
  if (!session) throw new Error("useRoomSession outside RoomSessionProvider");
  return session;
}
