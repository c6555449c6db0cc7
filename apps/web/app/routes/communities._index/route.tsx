import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { FormError, FormNotice } from "../../components/auth-card.tsx";
import styles from "../../components/communities.module.css";
import { changeCommunities, loadCommunities } from "./communities.server.ts";

export const meta: MetaFunction = () => [{ title: "Booth · Communities" }];
export const loader = ({ request }: LoaderFunctionArgs) => loadCommunities(request);
export const action = ({ request }: ActionFunctionArgs) => changeCommunities(request);

export default function Communities() {
  const { t } = useTranslation("communities");
  const { mine, all, error, may } = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  const busy = useNavigation().state === "submitting";
  return (
    <div className={`stack ${styles.page}`}>
      <section className="hero">
        <div>
          <h1>{t("title")}</h1>
          <p className="muted">{t("subtitle")}</p>
        </div>
      </section>
      <FormError error={result?.error ?? error} />
      {result?.notice ? <FormNotice notice={t("leftNotice", { name: result.notice.left })} /> : null}
      <section className="stack" aria-labelledby="mine-title">
        <h2 id="mine-title">{t("mine")}</h2>
        {mine.length === 0 ? (
          <p className="empty" data-testid="no-communities">
            {t("mineEmpty")}
          </p>
        ) : (
          <ul className={styles.list} data-testid="my-communities">
            {mine.map((c) => (
              <li key={c.id} className={`card ${styles.item}`}>
                <div className={styles.itemText}>
                  <Link to={`/communities/${c.slug}`} className={styles.name}>
                    {c.name}
                  </Link>
                  <span className="small muted">
                    {t("members", { count: c.memberCount })} · {t("rooms", { count: c.roomCount })}
                    {c.isPublic ? "" : ` · ${t("private")}`}
                  </span>
                </div>
                {c.joined ? (
                  <Form method="post">
                    <input type="hidden" name="intent" value="leave" />
                    <input type="hidden" name="id" value={c.id} />
                    <input type="hidden" name="name" value={c.name} />
                    <button
                      type="submit"
                      className="btn btn-ghost btn-small"
                      disabled={busy}
                      aria-label={`${t("leave")} ${c.name}`}
                    >
                      {t("leave")}
                    </button>
                  </Form>
                ) : null}
              </li>
            ))}
          </ul>
        )}
      </section>
      {all ? (
        <section className="stack" aria-labelledby="all-title" data-testid="all-communities">
          <div>
            <h2 id="all-title">{t("all")}</h2>
            <p className="small muted">{t("allHelp")}</p>
          </div>
          <ul className={styles.list}>
            {all.map((c) => (
              <li key={c.id} className={`card ${styles.item}`}>
                <div className={styles.itemText}>
                  <Link to={`/communities/${c.slug ?? c.id}`} className={styles.name}>
                    {c.name}
                  </Link>
                  <span className="small muted">
                    {t("members", { count: c.memberCount ?? 0 })} · {t("rooms", { count: c.roomCount ?? 0 })}
                    {c.isPublic === false ? ` · ${t("private")}` : ""}
                  </span>
                </div>
              </li>
            ))}
          </ul>
        </section>
      ) : null}
      {/* Only the platform's admins create communities (the edge's POST /admin/communities): others never see the form. */}
      {may.create ? (
        <section className="card stack" aria-labelledby="create-title" data-testid="create-community">
          <div>
            <h2 id="create-title">{t("create")}</h2>
            <p className="small muted">{t("createHelp")}</p>
          </div>
          <Form method="post" className="stack">
            <input type="hidden" name="intent" value="create" />
            <div className="field">
              <label htmlFor="community-name">{t("name")}</label>
              <input id="community-name" name="name" required minLength={2} maxLength={80} />
            </div>
            <div className="field">
              <label htmlFor="community-slug">{t("slug")}</label>
              <input
                id="community-slug"
                name="slug"
                maxLength={60}
                pattern="[a-z0-9]+(-[a-z0-9]+)*"
                aria-describedby="community-slug-help"
              />
              <span id="community-slug-help" className="small muted">
                {t("slugHelp")}
              </span>
            </div>
            <div className="field">
              <label htmlFor="community-description">{t("description")}</label>
              <textarea id="community-description" name="description" rows={2} maxLength={2000} />
            </div>
            <div className="field">
              <label htmlFor="community-created-by">{t("runBy")}</label>
              <input id="community-created-by" name="createdBy" maxLength={36} />
            </div>
            <label className="row small">
              <input type="checkbox" name="isPublic" defaultChecked />
              {t("isPublic")}
            </label>
            <div className="row">
              <button type="submit" className="btn btn-primary" disabled={busy} data-testid="create-community-submit">
                {t("create")}
              </button>
            </div>
          </Form>
        </section>
      ) : null}
    </div>
  );
}
