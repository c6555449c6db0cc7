import type { Schema } from "@booth/sdk";
import { Link, useFetcher } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { DESIGN_SWATCHES } from "../lib/room-designs.ts";
import styles from "./room-card.module.css";

type Room = Schema<"room", "Room">;

export function RoomCard({ room, canFavorite }: { room: Room; canFavorite: boolean }) {
  const { t } = useTranslation("rooms");
  const fetcher = useFetcher();
  // Optimistic: the star shows the submitted value until the lists are loaded again.
  const pending = fetcher.formData?.get("favorite");
  const favorited = pending !== undefined && pending !== null ? pending === "true" : room.favorited;
  const song = room.song as { trackName?: string; artistName?: string } | null;
  return (
    <article className={`tile ${styles.card}`} data-testid="room-card" data-slug={room.slug}>
      <Link
        to={`/rooms/${room.slug}`}
        className={`art-frame ${styles.art}`}
        style={{ background: DESIGN_SWATCHES[room.design] }}
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
