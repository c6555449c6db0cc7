import type { Schema } from "@booth/sdk";
import { createContext, type ReactNode, useContext, useEffect, useRef, useState } from "react";

/** What the social service's event stream tells (apps/edge/src/services/social/direct-messages.ts). */
export type DirectMessage = Schema<"social", "DirectMessage">;
export type DirectMessageEvent =
  | { type: "message"; message: DirectMessage; unreadTotal: number }
  | { type: "read"; conversationId: string; unreadTotal: number }
  | { type: "reconnected"; unreadTotal: number };

interface Live {
  /** Unread direct messages over all conversations, as the stream last said (the root loader's before it spoke). */
  unreadTotal: number;
  /** Listens to the events; returns the function that stops listening. */
  listen(listener: (event: DirectMessageEvent) => void): () => void;
}

const LiveMessages = createContext<Live>({ unreadTotal: 0, listen: () => () => {} });

/** After the stream failed for good (the web or the edge away), it is opened again this long after. */
const RETRY_MS = 10_000;

/**
 * The viewer's direct messages, live: one EventSource per tab on the web's `/direct-message-events` (which passes on
 * the edge's stream with the session's token), from the layout, so the header's count follows on every page. The
 * browser reconnects by itself after a dropped stream (the edge ends each one after a few minutes); a reconnection
 * tells the pages to load again, since what happened meanwhile was not heard.
 */
export function DirectMessagesProvider({
  viewerUuid,
  initialUnread,
  children,
}: {
  viewerUuid: string | null;
  initialUnread: number;
  children: ReactNode;
}) {
  // The stream's count once it has spoken: every change publishes the new total, in order, so it is never older than
  // a page's (a page's loader may have counted before a read the stream already told).
  const [streamed, setUnreadTotal] = useState<number | null>(null);
  const unreadTotal = streamed ?? initialUnread;
  const listeners = useRef(new Set<(event: DirectMessageEvent) => void>());
  const [live] = useState(() => ({
    listen(listener: (event: DirectMessageEvent) => void) {
      listeners.current.add(listener);
      return () => {
        listeners.current.delete(listener);
      };
    },
  }));

  useEffect(() => {
    // Another person signed in in this tab: the page's count until their stream speaks.
    setUnreadTotal(null);
    if (!viewerUuid || typeof EventSource === "undefined") return;
    let source: EventSource | null = null;
    let retry: ReturnType<typeof setTimeout> | undefined;
    let opened = 0;
    const tell = (event: DirectMessageEvent) => {
      setUnreadTotal(event.unreadTotal);
      for (const listener of [...listeners.current]) listener(event);
    };
    const open = () => {
      source = new EventSource("/direct-message-events");
      source.addEventListener("unread", (e) => {
        const { unreadTotal } = JSON.parse((e as MessageEvent<string>).data) as { unreadTotal: number };
        // A later connection follows a gap in which events may have been missed: the pages load again.
        if (opened++ === 0) setUnreadTotal(unreadTotal);
        else tell({ type: "reconnected", unreadTotal });
      });
      for (const name of ["message", "read"] as const)
        source.addEventListener(name, (e) => tell(JSON.parse((e as MessageEvent<string>).data) as DirectMessageEvent));
      source.onerror = () => {
        // CLOSED: the answer was not a stream (signed out, the edge away); the browser will not try again by itself.
        if (source?.readyState === EventSource.CLOSED) {
          source.close();
          retry = setTimeout(open, RETRY_MS);
        }
      };
    };
    open();
    return () => {
      clearTimeout(retry);
      source?.close();
    };
  }, [viewerUuid]);

  return <LiveMessages.Provider value={{ unreadTotal, listen: live.listen }}>{children}</LiveMessages.Provider>;
}

/** The viewer's unread direct messages, live. */
export const useUnreadMessages = () => useContext(LiveMessages).unreadTotal;

/** Calls `listener` at each direct-message event of the viewer while the component is on the page. */
export function useDirectMessageEvents(listener: (event: DirectMessageEvent) => void) {
  const { listen } = useContext(LiveMessages);
  const latest = useRef(listener);
  latest.current = listener;
  useEffect(() => listen((event) => latest.current(event)), [listen]);
}
