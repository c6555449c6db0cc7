import type { Schema } from "@booth/sdk";
import { Link, useFetcher } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import styles from "./room-card.module.css";

type Room = Schema<"room", "Room">;

/** The art a room's card shows when it has no poster: its design's colours. */
export const DESIGN_GRADIENTS: Record<string, string> = {
  CLUB: "linear-gradient(135deg,#6d28d9,#db2777)",
  CLUB_UA: "linear-gradient(135deg,#1d4ed8,#facc15)",
  BARN: "linear-gradient(135deg,#92400e,#f59e0b)",
  BARN_UA: "linear-gradient(135deg,#78350f,#2563eb)",
  CHAT_ONLY: "linear-gradient(135deg,#334155,#64748b)",
  FERRY_BUILDING: "linear-gradient(135deg,#0e7490,#f97316)",
  FESTIVAL: "linear-gradient(135deg,#16a34a,#eab308)",
  STADIUM: "linear-gradient(135deg,#1e3a8a,#22d3ee)",
  THEATER: "linear-gradient(135deg,#7f1d1d,#f43f5e)",
  TOMORROWLAND: "linear-gradient(135deg,#4c1d95,#f0abfc)",
  UNDERGROUND: "linear-gradient(135deg,#111827,#7c3aed)",
  YACHT: "linear-gradient(135deg,#0369a1,#e0f2fe)",
};

export function RoomCard({ room, canFavorite }: { room: Room; canFavorite: boolean }) {
  const { t } = useTranslation("rooms");
  const fetcher = useFetcher();
  // Optimistic: the star shows the submitted value until the lists are loaded again.
  const pending = fetcher.formData?.get("favorite");
  const favorited = pending !== undefined && pending !== null ? pending === "true" : room.favorited;
  const song = room.song as { trackName?: string; artistName?: string } | null;
  return (
    <article className={styles.card} data-testid="room-card" data-slug={room.slug}>
      <Link
        to={`/rooms/${room.slug}`}
        className={`art-frame ${styles.art}`}
        style={{ background: DESIGN_GRADIENTS[room.design] }}
      >
        {room.posterUrl ? <img src={room.posterUrl} alt="" /> : <span className={styles.initial}>{room.name[0]}</span>}
        {room.isLive ? <span className={`pill pill-live ${styles.live}`}>● {t("live")}</span> : null}
      </Link>
      <div className={styles.body}>
        <div className="spread">
          <Link to={`/rooms/${room.slug}`} className={styles.name}>
            {room.name}
          </Link>
          {canFavorite ? (
            <fetcher.Form method="post">
              <input type="hidden" name="intent" value="favorite" />
              <input type="hidden" name="roomUuid" value={room.uuid} />
              <input type="hidden" name="favorite" value={String(!favorited)} />
              <button
                type="submit"
                className={`${styles.fav} ${favorited ? styles.favOn : ""}`}
                aria-pressed={favorited}
                aria-label={favorited ? t("unfavorite") : t("favorite")}
              >
                {favorited ? "★" : "☆"}
              </button>
            </fetcher.Form>
          ) : null}
        </div>
        <p className={`${styles.song} muted small`}>
          {song?.trackName ? `♪ ${song.trackName} — ${song.artistName ?? ""}` : room.description || t("quiet")}
        </p>
        <div className="row small muted">
          <span>👥 {t("listeners", { count: room.numberOfUsersInRoom })}</span>
          <span>
            🎧 {room.numberOfActiveDjs}/{room.numberOfDjs}
          </span>
          {room.type === "PRIVATE" ? <span className="pill">🔒 {t("private")}</span> : null}
          {room.promoted ? <span className="pill">✦ {t("promoted")}</span> : null}
        </div>
      </div>
    </article>
  );
}
