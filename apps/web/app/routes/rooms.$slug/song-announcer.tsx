import type { LiveState } from "@booth/sdk/live";
import { useTranslation } from "react-i18next";

/**
 * Tells a screen reader when the room's song changes ("Now playing: Orbit I by Deejay K"), once per song: a polite
 * live region nobody sees. The chat is a log of its own (chat-panel.tsx).
 */
export function SongAnnouncer({ state }: { state: LiveState }) {
  const { t } = useTranslation("room");
  const song = state.nowPlaying?.song;
  return (
    <p className="visually-hidden" aria-live="polite" data-testid="song-announcer">
      {song ? t("announcePlaying", { track: song.trackName, artist: song.artistName }) : ""}
    </p>
  );
}
