import type { LiveState } from "@booth/sdk/live";
import { Link } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { Avatar } from "../../components/avatar.tsx";
import type { Animation } from "../../lib/live/use-live-room.ts";
import { STAGE_BACKGROUNDS } from "../../lib/room-designs.ts";
import styles from "./room.module.css";
import { isGuest, personOf } from "./room-model.ts";

function Reaction({ animations, uuid }: { animations: Animation[]; uuid: string }) {
  const mine = animations.filter((a) => a.userUuid === uuid && a.animation === "emoji");
  return (
    <>
      {mine.map((a) => (
        <span key={a.id} className={styles.reaction} data-testid="reaction">
          {a.emoji}
        </span>
      ))}
    </>
  );
}

/** The stage in the room's design: the booth's seats (the first DJ plays), and the floor with the audience. */
export function Stage({
  state,
  animations,
  viewerUuid,
}: {
  state: LiveState;
  animations: Animation[];
  viewerUuid: string | null;
}) {
  const { t } = useTranslation("room");
  const seats = Math.max(state.settings.numberOfDjs, state.djs.length);
  const jumping = new Set(animations.filter((a) => a.animation === "jump").map((a) => a.userUuid));
  const audience = state.audienceUsers.filter((u) => !isGuest(u));
  const guests = state.audienceUsers.length - audience.length;
  return (
    <section
      className={styles.stage}
      style={{ background: STAGE_BACKGROUNDS[state.settings.design] }}
      data-testid="stage"
    >
      <div className={styles.lights} aria-hidden />
      <h2 className={styles.stageTitle}>{t("booth")}</h2>
      <ol className={styles.booth} data-testid="booth">
        {Array.from({ length: seats }, (_, i) => {
          const dj = state.djs[i];
          if (!dj)
            return (
              // biome-ignore lint/suspicious/noArrayIndexKey: free seats are only counted; they have no identity
              <li key={`free-${i}`} className={`${styles.seat} ${styles.seatFree}`}>
                <span className={styles.seatDisc} />
                <span className="small muted">{t("emptySeat")}</span>
              </li>
            );
          const person = personOf(state, dj.uuid);
          const playing = i === 0 && state.nowPlaying !== null;
          return (
            <li
              key={dj.uuid}
              className={`${styles.seat} ${playing ? styles.seatPlaying : ""} ${jumping.has(dj.uuid) ? styles.jump : ""}`}
              data-testid="dj"
              data-uuid={dj.uuid}
              data-playing={playing || undefined}
            >
              <Reaction animations={animations} uuid={dj.uuid} />
              <Avatar id={person.avatarId} name={person.nickname} color={person.color} size={playing ? 76 : 60} />
              <span className={styles.seatName}>
                <Link to={`/users/${dj.uuid}`} className={styles.nameLink} data-testid="profile-link">
                  {person.nickname}
                </Link>
                {dj.uuid === viewerUuid ? <span className={styles.you}>({t("you")})</span> : null}
              </span>
              {playing ? <span className="pill pill-live">♪ {t("playing")}</span> : null}
            </li>
          );
        })}
      </ol>
      <div className={styles.floor} data-testid="audience">
        {audience.map((u) => {
          const person = personOf(state, u.uuid);
          const vote = state.allUserData[u.uuid]?.songVotes;
          return (
            <span
              key={u.uuid}
              className={`${styles.listener} ${jumping.has(u.uuid) ? styles.jump : ""} ${
                vote?.like === true ? styles.bobbing : ""
              }`}
              data-testid="listener"
              data-uuid={u.uuid}
            >
              <Reaction animations={animations} uuid={u.uuid} />
              <Avatar id={person.avatarId} name={person.nickname} color={person.color} size={36} />
              <Link
                to={`/users/${u.uuid}`}
                className={`${styles.listenerName} ${styles.nameLink}`}
                data-testid="profile-link"
              >
                {person.nickname}
              </Link>
            </span>
          );
        })}
        {guests > 0 ? <span className="pill">{t("guests", { count: guests })}</span> : null}
      </div>
    </section>
  );
}
