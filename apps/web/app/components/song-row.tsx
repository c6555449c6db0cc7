import type { LiHTMLAttributes, ReactNode } from "react";
import { formatDuration } from "../lib/playback/position.ts";
import styles from "./song-row.module.css";

export interface SongLike {
  songId: string;
  trackName: string;
  artistName: string;
  album?: string | null;
  genre?: string | null;
  duration: number;
  explicit?: boolean;
  thumbnails?: Record<string, string>;
}

/** A song's artwork: the first thumbnail (the edge's own paths made absolute), else a disc in the song's colours. */
export function SongArt({ song, apiUrl, size = 48 }: { song: SongLike; apiUrl: string; size?: number }) {
  const first = Object.values(song.thumbnails ?? {})[0];
  const url = first
    ? /^https?:\/\//.test(first)
      ? first
      : `${apiUrl}${first.startsWith("/") ? "" : "/"}${first}`
    : null;
  const hue = [...song.songId].reduce((h, ch) => (h * 31 + ch.charCodeAt(0)) % 360, 7);
  return url ? (
    <img className={styles.art} src={url} alt="" width={size} height={size} loading="lazy" />
  ) : (
    <span
      className={styles.art}
      aria-hidden
      style={{
        width: size,
        height: size,
        background: `linear-gradient(135deg, hsl(${hue} 70% 45%), hsl(${(hue + 60) % 360} 70% 30%))`,
      }}
    >
      ♪
    </span>
  );
}

/** One song in a list: artwork, title and artist, album, length, and the actions the screen offers. */
export function SongRow({
  song,
  apiUrl,
  index,
  children,
  className,
  ...rest
}: {
  song: SongLike;
  apiUrl: string;
  index?: number;
  children?: ReactNode;
  className?: string;
} & Omit<LiHTMLAttributes<HTMLLIElement>, "children">) {
  return (
    <li className={`${styles.row} ${className ?? ""}`} {...rest}>
      <span className={styles.index}>{index !== undefined ? index + 1 : ""}</span>
      <SongArt song={song} apiUrl={apiUrl} />
      <span className={styles.title}>
        <strong data-testid="song-title">{song.trackName}</strong>
        <span className="small muted">
          {song.explicit ? <span className={styles.explicit}>E</span> : null}
          {song.artistName}
          {song.album ? ` · ${song.album}` : ""}
        </span>
      </span>
      {song.genre ? <span className={`pill ${styles.genre}`}>{song.genre}</span> : <span />}
      <span className={`small muted ${styles.duration}`}>{formatDuration(song.duration)}</span>
      <span className={styles.actions}>{children}</span>
    </li>
  );
}

export const songListClass = `plain-list ${styles.list}`;
