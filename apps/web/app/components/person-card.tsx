import { Link } from "@remix-run/react";
import type { ReactNode } from "react";
import { Avatar } from "./avatar.tsx";
import styles from "./person-card.module.css";

export interface PersonLike {
  uuid: string;
  nickname: string;
  color: string;
  avatarId: string;
  bio?: string | null;
  isBot?: boolean;
}

/** A person's disc: their avatar's picture when it has one, else their colour and initials. */
export function PersonAvatar({
  person,
  image,
  apiUrl,
  size = 40,
}: {
  person: PersonLike;
  image?: string | null;
  apiUrl: string;
  size?: number;
}) {
  if (image)
    return (
      <img
        className={styles.picture}
        src={/^https?:/.test(image) ? image : `${apiUrl}${image}`}
        alt=""
        width={size}
        height={size}
        style={{ borderColor: person.color }}
      />
    );
  return <Avatar id={person.avatarId} name={person.nickname} color={person.color} size={size} />;
}

/** Someone in a list of people: avatar, name, a line of their bio, and what the screen lets you do. */
export function PersonCard({ person, apiUrl, children }: { person: PersonLike; apiUrl: string; children?: ReactNode }) {
  return (
    <li className={styles.card} data-testid="person" data-uuid={person.uuid}>
      <Link to={`/users/${person.uuid}`} className={styles.link}>
        <PersonAvatar person={person} apiUrl={apiUrl} size={44} />
        <span className={styles.text}>
          <strong>
            {person.nickname}
            {person.isBot ? <span className="pill"> bot</span> : null}
          </strong>
          {person.bio ? <span className="small muted">{person.bio}</span> : null}
        </span>
      </Link>
      {children ? <span className={styles.actions}>{children}</span> : null}
    </li>
  );
}

export const peopleGridClass = `card-grid ${styles.grid}`;
