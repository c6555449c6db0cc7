import type { Schema } from "@booth/sdk";
import type { LiveState, SongRef } from "@booth/sdk/live";
import { Link } from "@remix-run/react";
import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { askJson } from "../../lib/ask-json.ts";
import { formatDuration } from "../../lib/playback/position.ts";
import type { SongPickerAnswer } from "../song-picker/route.tsx";
import { useQueueChanges } from "./queue-changes.ts";
import styles from "./room.module.css";

type CrateSong = Schema<"playlist", "CrateSong">;

function SongPicker({
  queued,
  changes,
}: {
  queued: Set<string>;
  changes: Pick<ReturnType<typeof useQueueChanges>, "ask" | "busy" | "failed">;
}) {
  const { t } = useTranslation("room");
  const [found, setFound] = useState<SongPickerAnswer | null>(null);
  const [q, setQ] = useState("");
  // Debounced: one search 300 ms after the last key; a newer search cancels an older one still on its way.
  useEffect(() => {
    const asking = new AbortController();
    const id = setTimeout(() => {
      askJson<SongPickerAnswer>(`/song-picker?q=${encodeURIComponent(q)}`, asking.signal)
        .then((answer) => answer && setFound(answer))
        .catch(() => undefined);
    }, 300);
    return () => {
      clearTimeout(id);
      asking.abort();
    };
  }, [q]);
  return (
    <div className="stack">
      <input
        type="search"
        className={styles.search}
        placeholder={t("search")}
        value={q}
        onChange={(e) => setQ(e.target.value)}
        aria-label={t("search")}
        data-testid="song-search"
      />
      <ul className={`plain-list ${styles.songList}`} data-testid="song-results">
        {(found?.songs ?? []).map((s) => {
          const adding = changes.busy.has(s.songId);
          const failed = changes.failed[s.songId];
          return (
            <li key={s.songId} className={styles.songRow} data-testid="song-result" data-song-id={s.songId}>
              <span className={styles.songTitle}>
                <strong>{s.trackName}</strong>
                <span className="small muted">{s.artistName}</span>
                {failed ? (
                  <span className={`small ${styles.songError}`} role="alert" data-testid="queue-add-error">
                    {failed}
                  </span>
                ) : null}
              </span>
              <span className="small muted">{formatDuration(s.duration)}</span>
              <button
                type="button"
                className="btn btn-small"
                disabled={queued.has(s.songId) || adding}
                aria-busy={adding}
                onClick={() => changes.ask({ songId: s.songId })}
                data-testid="queue-add"
              >
                {queued.has(s.songId) ? t("added") : `+ ${t("add")}`}
              </button>
            </li>
          );
        })}
      </ul>
    </div>
  );
}

/** The DJ's side: take or leave a seat, skip, the queue (pick the next song, remove), and songs to add. */
export function DjPanel({
  state,
  viewer,
  guest,
  queue,
  queueReadAt,
  canModerate,
  onAct,
  onWaitlist,
}: {
  state: LiveState;
  viewer: { uuid: string } | null;
  guest: boolean;
  queue: CrateSong[];
  /** When the page read `queue` (its server's clock): of it and the DJ's changes' answers, the later read shows. */
  queueReadAt: number;
  canModerate: boolean;
  /** A song is named by its ids: the room looks it up in the catalogue. */
  onAct: (action: "addDj" | "removeDj" | "skipSong" | "updateNextSong", song?: SongRef | null) => void;
  /** The room's waitlist: line up, leave it; moderators move someone up a place or take them off. */
  onWaitlist: (action: "join" | "leave" | "moveUp", userUuid?: string, position?: number) => void;
}) {
  const { t } = useTranslation("room");
  const changes = useQueueChanges(queue, queueReadAt, t("queueChangeFailed"));
  // Open at first when the queue is empty; then as the DJ leaves it.
  const [pickerOpen, setPickerOpen] = useState(queue.length === 0);
  if (!viewer || guest)
    return (
      <section className="card">
        <Link to="/login" className="btn btn-primary btn-block">
          {t("signInToDj")}
        </Link>
      </section>
    );
  const me = state.allUsers.find((u) => u.uuid === viewer.uuid);
  const seat = state.djs.findIndex((d) => d.uuid === viewer.uuid);
  const onStage = seat >= 0;
  const playing = seat === 0 && state.nowPlaying !== null;
  const full = state.djs.length >= state.settings.numberOfDjs;
  const waitlistOn = state.settings.waitlistEnabled === true;
  const waitlist = state.waitlist ?? [];
  const place = waitlist.indexOf(viewer.uuid) + 1;
  // With a waitlist, a full booth (or anyone waiting) means lining up; the room seats people in turn.
  const lineUp = waitlistOn && (full || waitlist.length > 0);
  const nameOf = (uuid: string) =>
    (state.allUserData[uuid]?.userProfile as { nickname?: string } | undefined)?.nickname ?? uuid.slice(0, 8);
  const nextSong = onStage ? state.djs[seat]?.nextSong : null;
  return (
    <section className={`card stack ${styles.djPanel}`} data-testid="dj-panel">
      <div className="row">
        {onStage ? (
          <button type="button" className="btn" onClick={() => onAct("removeDj")} data-testid="leave-booth">
            {t("leaveBooth")}
          </button>
        ) : place > 0 ? (
          <button type="button" className="btn" onClick={() => onWaitlist("leave")} data-testid="leave-waitlist">
            {t("leaveWaitlist")}
          </button>
        ) : lineUp ? (
          <button
            type="button"
            className="btn btn-primary"
            disabled={me?.canDj === false}
            onClick={() => onWaitlist("join")}
            data-testid="join-waitlist"
          >
            ⏳ {t("joinWaitlist")}
          </button>
        ) : (
          <button
            type="button"
            className="btn btn-primary"
            disabled={full || me?.canDj === false}
            onClick={() => onAct("addDj")}
            data-testid="take-seat"
          >
            🎧 {t("takeSeat")}
          </button>
        )}
        {(playing || (canModerate && state.nowPlaying)) && (
          <button type="button" className="btn" onClick={() => onAct("skipSong")} data-testid="skip">
            ⏭ {t("skip")}
          </button>
        )}
        {!onStage && full && !lineUp ? <span className="small muted">{t("seatsFull")}</span> : null}
        {place > 0 ? (
          <span className="small" data-testid="waitlist-place" role="status">
            {t("waitlistPlace", { place })}
          </span>
        ) : null}
        {!onStage && me?.canDj === false ? <span className="small muted">{t("cannotDj")}</span> : null}
      </div>
      {waitlistOn && waitlist.length ? (
        <div>
          <h3>{t("waitlist")}</h3>
          <ol className={`plain-list ${styles.songList}`} data-testid="waitlist">
            {waitlist.map((uuid, i) => (
              <li key={uuid} className={styles.songRow} data-testid="waitlist-person">
                <span className={styles.songTitle}>
                  <strong>{nameOf(uuid)}</strong>
                </span>
                {canModerate ? (
                  <span className="row">
                    {i > 0 ? (
                      <button
                        type="button"
                        className="btn btn-ghost btn-small"
                        onClick={() => onWaitlist("moveUp", uuid, i)}
                        data-testid="waitlist-move-up"
                      >
                        ↑ {t("waitlistMoveUp")}
                      </button>
                    ) : null}
                    <button
                      type="button"
                      className="btn btn-ghost btn-small"
                      onClick={() => onWaitlist("leave", uuid)}
                      data-testid="waitlist-remove"
                      aria-label={`${t("waitlistRemove")}: ${nameOf(uuid)}`}
                    >
                      ✕
                    </button>
                  </span>
                ) : null}
              </li>
            ))}
          </ol>
        </div>
      ) : null}
      {nextSong ? (
        <p className="small" data-testid="next-song">
          {t("next", { track: `${nextSong.trackName} — ${nextSong.artistName}` })}
        </p>
      ) : null}
      <div>
        <h3>{t("queue")}</h3>
        {changes.queue.length === 0 ? <p className="small muted">{t("queueEmpty")}</p> : null}
        <ol className={`plain-list ${styles.songList}`} data-testid="queue">
          {changes.queue.map((s) => (
            <li
              key={s.crateSongUuid}
              className={`${styles.songRow} ${nextSong?.crateSongUuid === s.crateSongUuid ? styles.songNext : ""}`}
              data-testid="queue-song"
              hidden={changes.busy.has(s.crateSongUuid)}
            >
              <span className={styles.songTitle}>
                <strong>{s.trackName}</strong>
                <span className="small muted">{s.artistName}</span>
                {changes.failed[s.crateSongUuid] ? (
                  <span className={`small ${styles.songError}`} role="alert" data-testid="queue-remove-error">
                    {changes.failed[s.crateSongUuid]}
                  </span>
                ) : null}
              </span>
              {onStage ? (
                <button
                  type="button"
                  className="btn btn-ghost btn-small"
                  onClick={() => onAct("updateNextSong", { songId: s.songId, crateSongUuid: s.crateSongUuid })}
                  title={t("playNext")}
                  data-testid="play-next"
                >
                  {nextSong?.crateSongUuid === s.crateSongUuid ? t("upNext") : t("playNext")}
                </button>
              ) : null}
              <button
                type="button"
                className="btn btn-ghost btn-small"
                aria-label={t("remove")}
                onClick={() => changes.ask({ crateSongUuid: s.crateSongUuid })}
              >
                ✕
              </button>
            </li>
          ))}
        </ol>
      </div>
      <details open={pickerOpen} onToggle={(e) => setPickerOpen(e.currentTarget.open)}>
        <summary className={styles.summary}>{t("addSongs")}</summary>
        <SongPicker queued={new Set(changes.queue.map((s) => s.songId))} changes={changes} />
      </details>
    </section>
  );
}
