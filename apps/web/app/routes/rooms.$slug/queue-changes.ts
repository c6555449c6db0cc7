import type { Schema } from "@booth/sdk";
import { useCallback, useRef, useState } from "react";
import type { QueueAnswer } from "./room.server.ts";

type CrateSong = Schema<"playlist", "CrateSong">;

/** A change the DJ asked of their queue: a song of the catalogue to add, or a queued one to take out. */
export type QueueChange = { songId: string } | { crateSongUuid: string };

const keyOf = (change: QueueChange) => ("songId" in change ? change.songId : change.crateSongUuid);

/**
 * The DJ panel's queue and its changes (`/queue`, routes/queue/route.ts). The changes go to the web one after
 * another, in the order they were asked, so five songs clicked in a row are queued in that order; each answer is the
 * queue after its change, shown at once. Only the song on its way is busy: every other button stays usable. A change
 * that fails says why (`failed`, by song) and leaves its button usable again. Of the page's queue (`loaded`, read at
 * `loadedAt`: the page's load, or a new song's) and the last answer, the later read shows: a read that began before
 * an add was made (a new song starting while the DJ adds) must not hide it, and one made after the answers replaces
 * them (a new song advanced the queue).
 */
export function useQueueChanges(loaded: CrateSong[], loadedAt: number, failedText: string) {
  const [answered, setAnswered] = useState<{ queue: CrateSong[]; readAt: number } | null>(null);
  const [busy, setBusy] = useState<ReadonlySet<string>>(new Set());
  const [failed, setFailed] = useState<Readonly<Record<string, string>>>({});
  const line = useRef(Promise.resolve());

  const ask = useCallback(
    (change: QueueChange) => {
      const key = keyOf(change);
      setBusy((keys) => new Set(keys).add(key));
      setFailed(({ [key]: _, ...rest }) => rest);
      const send = async () => {
        let error = failedText;
        try {
          const res = await fetch("/queue", {
            method: "POST",
            headers: { accept: "application/json" },
            body: new URLSearchParams(change),
          });
          const answer = (await res.json().catch(() => null)) as QueueAnswer | null;
          if (answer && "queue" in answer) {
            setAnswered({ queue: answer.queue, readAt: answer.readAt });
            return;
          }
          if (answer?.error) error = answer.error;
        } catch {
          // Not answered (offline, the server restarting): the generic text says to try again.
        }
        setFailed((texts) => ({ ...texts, [key]: error }));
      };
      line.current = line.current.then(send).finally(() => {
        setBusy((keys) => {
          const rest = new Set(keys);
          rest.delete(key);
          return rest;
        });
      });
    },
    [failedText],
  );

  // The later read shows; on a tie the answer, which was read after its change was made.
  const queue = answered && answered.readAt >= loadedAt ? answered.queue : loaded;
  return { queue, ask, busy, failed };
}
