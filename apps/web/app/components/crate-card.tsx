import { Link } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import styles from "./crate-card.module.css";

export interface CrateLike {
  crateUuid: string;
  crateName: string;
  description?: string | null;
  kind?: "default" | "queue" | "likes";
  thumbnails: string[];
  count: number;
  importStatus?: string | null;
}

const absolute = (url: string, apiUrl: string) => (/^https?:\/\//.test(url) ? url : `${apiUrl}${url}`);
const hueOf = (id: string) => [...id].reduce((h, ch) => (h * 31 + ch.charCodeAt(0)) % 360, 11);

/** A crate as a record sleeve: up to four covers of its first songs, its name and how many songs it holds. */
export function CrateCard({ crate, apiUrl, to }: { crate: CrateLike; apiUrl: string; to: string }) {
  const { t } = useTranslation("lists");
  const { t: tc } = useTranslation("crates");
  const covers = crate.thumbnails.slice(0, 4);
  const hue = hueOf(crate.crateUuid);
  const mark = crate.kind === "queue" ? "☰" : crate.kind === "likes" ? "♥" : null;
  const name = crate.kind === "queue" ? tc("queue") : crate.kind === "likes" ? tc("likes") : crate.crateName;
  return (
    <Link
      to={to}
      className={`tile ${styles.card} ${crate.kind && crate.kind !== "default" ? styles.special : ""}`}
      data-testid="crate-card"
      data-kind={crate.kind ?? "default"}
    >
      <span
        className={`${styles.sleeve} ${covers.length >= 4 ? styles.mosaic : ""}`}
        style={{ background: `linear-gradient(135deg, hsl(${hue} 65% 42%), hsl(${(hue + 70) % 360} 70% 22%))` }}
      >
        {mark ? (
          <span className={styles.mark}>{mark}</span>
        ) : covers.length >= 4 ? (
          covers.map((c) => <img key={c} src={absolute(c, apiUrl)} alt="" loading="lazy" />)
        ) : covers[0] ? (
          <img src={absolute(covers[0], apiUrl)} alt="" loading="lazy" />
        ) : (
          <span className={styles.mark}>♫</span>
        )}
      </span>
      <span className={styles.body}>
        <strong className={styles.name} data-testid="crate-name">
          {name}
        </strong>
        <span className="small muted">
          {t("songs", { count: crate.count })}
          {crate.importStatus === "IN_PROGRESS" ? ` · ${tc("importing")}` : ""}
        </span>
      </span>
    </Link>
  );
}

export const crateGridClass = `card-grid ${styles.grid}`;

/** A crate picker's options: the first (the empty value) says what choosing none means, then each crate by name. */
export function CrateOptions({ none, crates }: { none: string; crates: { crateUuid: string; crateName: string }[] }) {
  return (
    <>
      <option value="">{none}</option>
      {crates.map((c) => (
        <option key={c.crateUuid} value={c.crateUuid}>
          {c.crateName}
        </option>
      ))}
    </>
  );
}
