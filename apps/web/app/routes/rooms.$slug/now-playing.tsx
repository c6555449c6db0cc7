import type { Schema } from "@booth/sdk";
import type { LiveState } from "@booth/sdk/live";
import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { PreviewLabel, VolumeControl } from "../../components/player-controls.tsx";
import { artworkOf } from "../../lib/playback/media-session.ts";
import { formatDuration, playbackOffset, playbackProgress } from "../../lib/playback/position.ts";
import styles from "./room.module.css";
import { personOf } from "./room-model.ts";

type Vote = { like?: boolean; star?: boolean };

/** The song's votes: each button sends its `vote`, and shows pressed (its `pressed` class) while the viewer's holds it. */
const VOTES = [
  { kind: "like", icon: "👍", vote: { like: true }, pressed: styles.voteOn },
  { kind: "dislike", icon: "👎", vote: { like: false }, pressed: styles.voteBad },
  { kind: "star", icon: "★", vote: { star: true }, pressed: styles.starOn },
] as const;

export function NowPlaying({
  state,
  clockOffset,
  apiUrl,
  viewerUuid,
  canVote,
  onVote,
  crates,
  onGrab,
}: {
  state: LiveState;
  clockOffset: number;
  apiUrl: string;
  viewerUuid: string | null;
  canVote: boolean;
  onVote: (votes: Vote) => void;
  /** The viewer's playlists a grab can go to (their queue and likes besides). */
  crates: { crateUuid: string; crateName: string }[];
  onGrab: (crate: string) => void;
}) {
  const { t } = useTranslation("room");
  const [, setTick] = useState(0);
  useEffect(() => {
    const id = setInterval(() => setTick((n) => n + 1), 500);
    return () => clearInterval(id);
  }, []);
  const np = state.nowPlaying;
  if (!np)
    return (
      <section className={`${styles.nothing} card`} data-testid="now-playing">
        <span className={styles.disc} aria-hidden />
        <p className="muted">{t("nothingPlaying")}</p>
      </section>
    );
  // A song of the room crate: no DJ plays it, whoever sits in the booth.
  const dj = state.djs[0] && !np.byRoom ? personOf(state, state.djs[0].uuid) : null;
  const mine = viewerUuid ? state.allUserData[viewerUuid]?.songVotes : undefined;
  const art = artworkOf(np.song, apiUrl);
  const at = playbackOffset(np, clockOffset);
  const total = np.song.duration || (np.endTime - np.startTime) / 1000;
  const vibe = Math.round(((state.vibeMeter + 1) / 2) * 100);
  const isDj = !np.byRoom && state.djs[0]?.uuid === viewerUuid;
  const holds = (vote: Vote) => Object.entries(vote).every(([key, value]) => mine?.[key as keyof Vote] === value);
  return (
    <section className={`${styles.nowPlaying} card`} data-testid="now-playing">
      <div className={`art-frame ${styles.art}`}>
        {art ? <img src={art} alt="" /> : <span className={styles.disc} aria-hidden />}
      </div>
      <div className={styles.track}>
        <span className="small muted">{t("nowPlaying")}</span>
        <PreviewLabel />
        <strong className={styles.trackName} data-testid="track-name">
          {np.song.trackName}
        </strong>
        <span>{np.song.artistName}</span>
        {dj ? <span className="small muted">{t("playedBy", { name: dj.nickname })}</span> : null}
        {np.byRoom ? (
          <span className="small muted" data-testid="played-by-room">
            {t("playedByRoom")}
          </span>
        ) : null}
        <div className={styles.progress} aria-hidden>
          <div className={styles.progressFill} style={{ transform: `scaleX(${playbackProgress(np, clockOffset)})` }} />
        </div>
        <div className="spread small muted">
          <span data-testid="elapsed">{formatDuration(at)}</span>
          <span>{formatDuration(total)}</span>
        </div>
        <VolumeControl />
      </div>
      <div className={styles.votes}>
        <div className="row">
          {VOTES.map(({ kind, icon, vote, pressed }) => (
            <button
              key={kind}
              type="button"
              className={`btn ${holds(vote) ? pressed : ""}`}
              aria-pressed={holds(vote)}
              disabled={!canVote || isDj}
              onClick={() => onVote(vote)}
              data-testid={kind}
            >
              {icon} {t(kind)}
            </button>
          ))}
          {canVote ? (
            <details className={styles.grab} data-testid="grab">
              <summary className={`btn ${mine?.grab ? styles.starOn : ""}`} data-testid="grab-open">
                ➕ {mine?.grab ? t("grabbed") : t("grab")}
              </summary>
              <ul className={styles.grabMenu}>
                {[
                  { crateUuid: "queue", crateName: t("grabToQueue") },
                  { crateUuid: "likes", crateName: t("grabToLikes") },
                  ...crates,
                ].map((c) => (
                  <li key={c.crateUuid}>
                    <button
                      type="button"
                      className="btn btn-ghost btn-small"
                      onClick={(e) => {
                        e.currentTarget.closest("details")?.removeAttribute("open");
                        onGrab(c.crateUuid);
                      }}
                      data-testid="grab-to"
                      data-crate={c.crateUuid}
                    >
                      {c.crateName}
                    </button>
                  </li>
                ))}
              </ul>
            </details>
          ) : null}
        </div>
        <div className={styles.vibe} title={t("vibe")}>
          <span className="small muted">{t("vibe")}</span>
          <div className={styles.vibeBar}>
            <div className={styles.vibeFill} style={{ width: `${vibe}%` }} />
          </div>
        </div>
        <span className="small muted" data-testid="vote-counts">
          {[
            t("likeCount", { count: state.voteCounts.likes }),
            t("dislikeCount", { count: state.voteCounts.dislikes }),
            t("starCount", { count: state.voteCounts.stars }),
            // Grabs once someone grabbed the song.
            ...(state.grabs ? [t("grabCount", { count: state.grabs })] : []),
          ].join(" · ")}
        </span>
      </div>
    </section>
  );
}

/** The room's last plays, the latest first, with the votes each got. */
export function RecentSongs({ recent, state }: { recent: Schema<"room", "RecentSong">[]; state: LiveState }) {
  const { t } = useTranslation("room");
  if (!recent.length) return null;
  return (
    <section className="card" data-testid="recent-songs">
      <h2>{t("recent")}</h2>
      <ol className={`plain-list ${styles.songList}`}>
        {recent.map((play) => {
          const song = play.song as { trackName?: string; artistName?: string };
          const dj = play.djUuid ? personOf(state, play.djUuid).nickname : null;
          return (
            <li key={play.id} className={styles.songRow}>
              <span className={styles.songTitle}>
                <strong>{song.trackName}</strong>
                <span className="small muted">
                  {song.artistName}
                  {dj && dj !== "Guest" ? ` · ${t("playedBy", { name: dj })}` : ""}
                </span>
              </span>
              <span className="small muted">
                👍 {play.voteCounts.likes} · 👎 {play.voteCounts.dislikes} · ★ {play.voteCounts.stars}
              </span>
            </li>
          );
        })}
      </ol>
    </section>
  );
}
