import { Link } from "@remix-run/react";
import type { ReactNode } from "react";
import styles from "./communities.module.css";

/** A row of the communities' and events' lists: a link to the thing, a line about it, and its buttons (`children`). */
export function LinkItem({
  to,
  name,
  detail,
  children,
}: {
  to: string;
  name: ReactNode;
  detail?: ReactNode;
  children?: ReactNode;
}) {
  return (
    <li className={`card ${styles.item}`}>
      <div className={styles.itemText}>
        <Link to={to} className={styles.name}>
          {name}
        </Link>
        {detail ? <span className="small muted">{detail}</span> : null}
      </div>
      {children}
    </li>
  );
}
