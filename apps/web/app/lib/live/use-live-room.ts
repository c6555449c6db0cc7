// The client from the package's main entry: `@booth/sdk/live` also carries the protocol's zod schemas, which the
// browser does not need. Loaded when a room is entered (lib/lazy.ts): the app shell holds this hook on every page.
import type { LiveRoomClient } from "@booth/sdk";
import type { ChatMessage, JoinResult, LiveState, RoomRole, StatelessServerMessage } from "@booth/sdk/live";
import { useCallback, useEffect, useRef, useState } from "react";
import { loadSdk } from "../lazy.ts";
import { CHAT_CAP, mergeChat } from "./chat.ts";

export interface Animation {
  id: number;
  userUuid: string;
  animation: "emoji" | "jump";
  emoji?: string;
}

export type Connection = "connecting" | "live" | "reconnecting" | "closed";

/**
 * One live room (the app shell's, `lib/player/room-session.tsx`): without a room (`roomUuid` null) nothing connects;
 * a new room (or none) closes the old connection and starts from nothing. Connects with the given token, keeps the state the patches build, the chat (capped at
 * 300), the clock offset from the join's serverTime, and the one-time animations as they come.
 */
export function useLiveRoom(options: {
  partyUrl: string;
  roomUuid: string | null;
  /** The token, or a function answering a fresh one for each connection (keep its identity: it is a dependency). */
  token: string | (() => string | Promise<string>);
  /** The room's password (or, for guests, its guest password) the person entered, when the room asks for one. */
  password?: string | undefined;
  guestPassword?: string | undefined;
}) {
  const { partyUrl, roomUuid, token, password, guestPassword } = options;
  const clientRef = useRef<LiveRoomClient | null>(null);
  const [state, setState] = useState<LiveState | null>(null);
  const [chat, setChat] = useState<ChatMessage[]>([]);
  const [connection, setConnection] = useState<Connection>("connecting");
  const [error, setError] = useState<string | null>(null);
  const [kicked, setKicked] = useState<string | null>(null);
  const [animations, setAnimations] = useState<Animation[]>([]);
  /** Server time minus local time, in ms: add it to Date.now() for the room's clock. */
  const [clockOffset, setClockOffset] = useState(0);
  const [seq, setSeq] = useState(0);
  const [lastEvent, setLastEvent] = useState<string | null>(null);
  /** The sanctions in force this client may see: all of them for a moderator, their own for anyone else. */
  const [sanctions, setSanctions] = useState<RoomRole[]>([]);
  /** When this DJ leaves the booth for being idle, once the room warned them (epoch ms); null otherwise. */
  const [idleUntil, setIdleUntil] = useState<number | null>(null);

  useEffect(() => {
    // Nothing of another room (or of none) stays on screen.
    setState(null);
    setChat([]);
    setError(null);
    setKicked(null);
    setAnimations([]);
    setSanctions([]);
    setSeq(0);
    setLastEvent(null);
    if (!roomUuid) {
      setConnection("closed");
      return;
    }
    setConnection("connecting");
    let left = false;
    let current: LiveRoomClient | null = null;
    let offs: (() => void)[] = [];
    const join = ({ LiveRoomClient, LiveRoomError }: Awaited<ReturnType<typeof loadSdk>>) => {
      if (left) return;
      const client = new LiveRoomClient({
        url: partyUrl,
        roomUuid,
        token,
        ...(password !== undefined ? { password } : {}),
        ...(guestPassword !== undefined ? { guestPassword } : {}),
        backoff: { initialMs: 300, maxMs: 8000 },
      });
      current = client;
      clientRef.current = client;
      let animationIds = 0;
      offs = [
        client.on("joined", (result: JoinResult) => {
          // For the time to first sound (bench/web.bench.ts): when the room's state arrived.
          performance.mark("booth:joined");
          setClockOffset(result.serverTime - Date.now());
          setChat(result.chatMessages.slice(-CHAT_CAP));
          setSanctions(result.sanctions ?? []);
          setConnection("live");
          setError(null);
        }),
        client.on("state", (next, name) => {
          setState(next);
          setSeq(client.seq);
          setLastEvent(name);
        }),
        client.on("event", (message: StatelessServerMessage) => {
          if (message.name === "chatMessage") setChat((list) => mergeChat(list, message.params.message));
          else if (message.name === "chatMessageUpdated")
            setChat((list) => list.map((m) => (m.id === message.params.message.id ? message.params.message : m)));
          else if (message.name === "chatMessageDeleted")
            setChat((list) => list.filter((m) => m.id !== message.params.id));
          else if (message.name === "chatCleared") setChat([]);
          else if (message.name === "updatedSanctions") setSanctions(message.params.sanctions);
          else if (message.name === "idleWarning") setIdleUntil(message.params.removeAt);
          else if (message.name === "playedOneTimeAnimation") {
            const id = ++animationIds;
            setAnimations((list) => [...list, { id, ...message.params }]);
            setTimeout(() => setAnimations((list) => list.filter((a) => a.id !== id)), 2500);
          }
        }),
        client.on("kicked", (reason) => {
          setKicked(reason || "kicked");
          setConnection("closed");
        }),
        client.on("reset", () => setState(null)),
        client.on("disconnected", ({ willReconnect }) => setConnection(willReconnect ? "reconnecting" : "closed")),
        client.on("error", (e) => setError(e.message)),
      ];
      client.connect().catch((e: Error) => {
        setError(e instanceof LiveRoomError ? e.message : "The room could not be reached.");
        setConnection("closed");
      });
    };
    loadSdk().then(join, () => {
      if (left) return;
      setError("The room could not be reached.");
      setConnection("closed");
    });
    return () => {
      left = true;
      for (const off of offs) off();
      current?.close();
      clientRef.current = null;
    };
  }, [partyUrl, roomUuid, token, password, guestPassword]);

  /** Runs a room action; a refusal comes back as its message (and is shown by the caller). */
  const act = useCallback(async <T>(run: (client: LiveRoomClient) => Promise<T>): Promise<string | null> => {
    const client = clientRef.current;
    if (!client) return "Not connected to the room.";
    try {
      await run(client);
      return null;
    } catch (e) {
      return e instanceof Error ? e.message : String(e);
    }
  }, []);

  // Any action of theirs answers the warning (the room resets their idle clock).
  const actAndStay = useCallback(
    async <T>(run: (client: LiveRoomClient) => Promise<T>) => {
      setIdleUntil(null);
      return act(run);
    },
    [act],
  );
  return {
    state,
    chat,
    setChat,
    connection,
    error,
    kicked,
    animations,
    clockOffset,
    seq,
    lastEvent,
    sanctions,
    idleUntil,
    act: actAndStay,
  };
}
export type LiveRoom = ReturnType<typeof useLiveRoom>;
