import type { Schema } from "@booth/sdk";
import { Link } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { Avatar } from "../../components/avatar.tsx";

export type Activity = Schema<"room", "FriendsActivity">[number];

/**
 * Which room a friend or a followed DJ is in (the edge answers listed public rooms only), loaded with the room lists
 * and so again every 30 s: a click on the room goes there.
 */
export function FriendsActivity({ activity }: { activity: Activity[] }) {
  const { t } = useTranslation("rooms");
  if (!activity.length) return null;
  return (
    <section aria-labelledby="friends-activity" data-testid="friends-activity">
      <h2 id="friends-activity">{t("activity.title")}</h2>
      <ul className="card-grid friends-activity">
        {activity.map((a) => (
          <li key={a.person.uuid} className="card row" data-testid="friend-activity" data-uuid={a.person.uuid}>
            <Link to={`/users/${a.person.uuid}`} aria-label={a.person.nickname}>
              <Avatar id={a.person.avatarId} name={a.person.nickname} color={a.person.color} size={36} />
            </Link>
            <span className="stack" style={{ gap: 0, minWidth: 0 }}>
              <span>
                <Link to={`/users/${a.person.uuid}`}>
                  <strong>{a.person.nickname}</strong>
                </Link>{" "}
                <span className="pill">{t(`activity.${a.relation}`)}</span>
              </span>
              <span className="small muted">
                {t("activity.in")}{" "}
                <Link to={`/rooms/${a.room.slug}`} data-testid="activity-room">
                  {a.room.name}
                </Link>
              </span>
            </span>
          </li>
        ))}
      </ul>
    </section>
  );
}
