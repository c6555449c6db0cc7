import { Link, useLocation } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { useRoomSession } from "../lib/player/room-session.tsx";
import styles from "./now-playing-bar.module.css";
import { PreviewLabel, VolumeControl } from "./player-controls.tsx";

/**
 * The room a person is in while they browse the rest of the app: what plays, who plays it, the way back and a button
 * to leave the room. Not on the room's own page (it shows all of this already), nor without a room.
 */
export function NowPlayingBar() {
  const { t } = useTranslation();
  const { room, live, playback, leave } = useRoomSession();
  const { pathname } = useLocation();
  if (!room || live.kicked) return null;
  const href = `/rooms/${room.slug}`;
  if (decodeURIComponent(pathname).toLowerCase().replace(/\/+$/, "") === href.toLowerCase()) return null;
  const np = live.state?.nowPlaying ?? null;
  const status =
    live.connection === "live"
      ? null
      : live.connection === "closed"
        ? t("bar.closed")
        : live.connection === "reconnecting"
          ? t("bar.reconnecting")
          : t("bar.connecting");
  return (
    <>
      <div className={styles.spacer} aria-hidden />
      <section className={styles.bar} data-testid="now-playing-bar" aria-label={t("bar.label")}>
        <span className={`${styles.disc} ${np ? styles.spinning : ""}`} aria-hidden />
        <div className={styles.track}>
          {np ? (
            <>
              <strong className={styles.name} data-testid="bar-track">
                {np.song.trackName}
              </strong>
              <span className={`${styles.name} small muted`} data-testid="bar-artist">
                {np.song.artistName}
              </span>
              <PreviewLabel />
            </>
          ) : (
            <span className="muted" data-testid="bar-track">
              {t("bar.nothing")}
            </span>
          )}
        </div>
        <div className={styles.room}>
          <span className="small muted">{status ?? t("bar.inRoom")}</span>
          <Link to={href} className={styles.name} data-testid="bar-room">
            {room.name}
          </Link>
        </div>
        {playback.blocked ? (
          <button type="button" className="btn btn-primary btn-small" onClick={playback.resume}>
            🔊 {t("bar.unmute")}
          </button>
        ) : null}
        <VolumeControl />
        <Link to={href} className="btn btn-small" data-testid="bar-back">
          {t("bar.back")}
        </Link>
        <button type="button" className="btn btn-ghost btn-small" onClick={leave} data-testid="bar-leave">
          {t("bar.leave")}
        </button>
      </section>
    </>
  );
}
