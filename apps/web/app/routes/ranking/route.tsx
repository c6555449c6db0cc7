import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { Avatar } from "../../components/avatar.tsx";
import { Pager } from "../../components/pager.tsx";
import { brandTitle } from "../../lib/brand.ts";
import { useRootData } from "../../root.tsx";
import styles from "./ranking.module.css";
import { loadRanking } from "./ranking.server.ts";
import { RANKING_PAGE } from "./ranking.ts";

export const meta: MetaFunction = ({ matches }) => [{ title: brandTitle(matches, "Season ranking") }];
export const loader = ({ request }: LoaderFunctionArgs) => loadRanking(request);

const MEDALS = ["🥇", "🥈", "🥉"];

export default function Ranking() {
  const { t } = useTranslation("shop");
  const d = useLoaderData<typeof loader>();
  const lang = useRootData()?.lang ?? "en";
  const date = (iso: string) => new Date(iso).toLocaleDateString(lang, { day: "numeric", month: "long" });
  return (
    <div className="stack">
      <section className="hero">
        <div>
          <h1>{t("rankingTitle")}</h1>
          <p className="muted" data-testid="season-name">
            {d.lifetime
              ? t("lifetime")
              : d.season
                ? t("seasonDates", { name: d.season.name, start: date(d.season.start), end: date(d.season.end) })
                : t("rankingSubtitle")}
          </p>
        </div>
        {d.mine ? (
          <div className={styles.mine} data-testid="my-standing">
            <span className="small muted">{t("you")}</span>
            <strong>{d.mine.rank ? `#${d.mine.rank}` : "—"}</strong>
            <span className="small">{t("pointsCount", { count: d.mine.points })}</span>
          </div>
        ) : null}
      </section>
      <nav className="tabs">
        <Link to="/ranking" className={d.lifetime ? undefined : "active"}>
          {t("thisSeason")}
        </Link>
        <Link to="/ranking?scope=all" className={d.lifetime ? "active" : undefined}>
          {t("allTime")}
        </Link>
      </nav>
      {d.error ? <p className="alert alert-error">{d.error}</p> : null}
      <section className="card">
        {d.noSeason ? (
          <p className="empty">{t("noSeason")}</p>
        ) : d.data.length ? (
          <ol className={`plain-list ${styles.table}`} data-testid="ranking">
            {d.data.map((row) => (
              <li
                key={row.userUuid}
                className={`${styles.row} ${row.userUuid === d.viewerUuid ? styles.me : ""} ${row.rank <= 3 ? styles.top : ""}`}
                data-testid="ranking-row"
              >
                <span className={styles.rank}>{MEDALS[row.rank - 1] ?? row.rank}</span>
                <Link to={`/users/${row.userUuid}`} className={styles.who}>
                  <Avatar id={row.avatarId} name={row.nickname ?? "?"} size={36} />
                  <span>{row.nickname ?? t("someone")}</span>
                </Link>
                <span className={styles.points}>{t("pointsCount", { count: row.balance })}</span>
              </li>
            ))}
          </ol>
        ) : (
          <p className="empty">{t("noPoints")}</p>
        )}
        <Pager offset={d.skip} pageSize={RANKING_PAGE} total={d.total} param="skip" />
      </section>
    </div>
  );
}
