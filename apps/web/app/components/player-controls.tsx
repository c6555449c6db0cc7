import { useTranslation } from "react-i18next";
import { useRoomSession } from "../lib/player/room-session.tsx";
import { IconButton } from "./icon-button.tsx";
import styles from "./player-controls.module.css";

/** Mute and volume for the room's player (all of its providers), remembered by this browser. */
export function VolumeControl() {
  const { t } = useTranslation();
  const { playback } = useRoomSession();
  const { volume } = playback;
  const silent = volume.muted || volume.level === 0;
  return (
    <div className={styles.volume}>
      <IconButton
        label={volume.muted ? t("player.unmute") : t("player.mute")}
        onClick={playback.toggleMute}
        aria-pressed={volume.muted}
        data-testid="mute"
      >
        {silent ? "🔇" : "🔊"}
      </IconButton>
      <input
        type="range"
        min={0}
        max={100}
        step={1}
        value={Math.round(volume.level * 100)}
        onChange={(e) => playback.setVolume(Number(e.currentTarget.value) / 100)}
        aria-label={t("player.volume")}
        data-testid="volume"
      />
    </div>
  );
}

/** "Preview" beside a song that plays a provider's 30-second sample rather than the whole song. */
export function PreviewLabel() {
  const { t } = useTranslation();
  const { playback } = useRoomSession();
  if (playback.kind !== "preview") return null;
  return (
    <span className={`pill ${styles.preview}`} title={t("player.previewHint")} data-testid="preview-label">
      {t("player.preview")}
    </span>
  );
}
