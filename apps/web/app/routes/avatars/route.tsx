import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import {
  Form,
  Link,
  type ShouldRevalidateFunction,
  useActionData,
  useLoaderData,
  useNavigation,
} from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { FormError } from "../../components/form-alert.tsx";
import { PersonAvatar } from "../../components/person-card.tsx";
import { forgetting } from "../../components/stale-cache.ts";
import { brandTitle } from "../../lib/brand.ts";
import { useRootData } from "../../root.tsx";
import styles from "./avatars.module.css";
import { loadAvatars, type Unlock, wearAvatar } from "./avatars.server.ts";

export const meta: MetaFunction = ({ matches }) => [{ title: brandTitle(matches, "Avatars") }];
export const loader = ({ request }: LoaderFunctionArgs) => loadAvatars(request);
export const action = ({ request }: ActionFunctionArgs) => wearAvatar(request);
export const clientAction = forgetting("/users");

/** A refused choice reloads the lists too: what the viewer owns has changed since the page was loaded. */
export const shouldRevalidate: ShouldRevalidateFunction = ({ formMethod, defaultShouldRevalidate }) =>
  formMethod === "POST" || defaultShouldRevalidate;

function UnlockHint({ unlock }: { unlock: Unlock }) {
  const { t } = useTranslation("profile");
  if (unlock.kind === "subscription") return <span>{t("avatars.bySubscription")}</span>;
  if (unlock.kind === "given") return <span>{t("avatars.byGift")}</span>;
  return (
    <span>
      {unlock.seasonName
        ? t("avatars.bySeason", { points: unlock.minPoints, season: unlock.seasonName })
        : t("avatars.byPastSeason", { points: unlock.minPoints })}
      {unlock.points !== null ? (
        <>
          {" "}
          <progress max={unlock.minPoints} value={Math.min(unlock.points, unlock.minPoints)} aria-hidden />{" "}
          <span data-testid="season-progress">
            {t("avatars.yourPoints", { points: unlock.points, needed: unlock.minPoints })}
          </span>
        </>
      ) : null}
    </span>
  );
}

export default function Avatars() {
  const { t } = useTranslation("profile");
  const d = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  const apiUrl = useRootData()?.env.apiUrl ?? "";
  const navigation = useNavigation();
  const choosing = navigation.state === "submitting" ? navigation.formData?.get("avatarId") : null;
  const me = { nickname: d.nickname, color: d.color };
  return (
    <section className={`stack ${styles.page}`}>
      <header className="row">
        <div>
          <h1>{t("avatars.title")}</h1>
          <p className="muted small">{t("avatars.subtitle")}</p>
        </div>
      </header>
      <FormError error={result?.error} />
      <section className="card stack" aria-labelledby="owned-avatars">
        <h2 id="owned-avatars">{t("avatars.owned")}</h2>
        {d.owned.length ? (
          <ul className={`card-grid ${styles.grid}`} data-testid="owned-avatars">
            {d.owned.map((a) => {
              const worn = d.wearing === a.slug;
              return (
                <li
                  key={a.slug}
                  className={`${styles.item} ${worn ? styles.worn : ""}`}
                  data-testid="avatar"
                  data-slug={a.slug}
                >
                  <PersonAvatar
                    person={{ uuid: a.slug, avatarId: a.slug, ...me }}
                    image={a.imageUrl}
                    apiUrl={apiUrl}
                    size={72}
                  />
                  <strong>{a.name}</strong>
                  {a.avatarStatus !== "PUBLIC" ? (
                    <span className="pill">{t(`avatarStatus.${a.avatarStatus}`)}</span>
                  ) : null}
                  {worn ? (
                    <span className={styles.wearing} data-testid="wearing">
                      ✓ {t("avatars.wearing")}
                    </span>
                  ) : (
                    <Form method="post">
                      <button
                        type="submit"
                        name="avatarId"
                        value={a.slug}
                        className="btn btn-small"
                        disabled={Boolean(choosing)}
                        data-testid="wear"
                      >
                        {choosing === a.slug ? t("avatars.choosing") : t("avatars.wear")}
                      </button>
                    </Form>
                  )}
                </li>
              );
            })}
          </ul>
        ) : (
          <p className="muted small">{t("noAvatars")}</p>
        )}
      </section>
      <section className="card stack" aria-labelledby="locked-avatars">
        <h2 id="locked-avatars">{t("avatars.locked")}</h2>
        {d.locked.length ? (
          <ul className={`card-grid ${styles.grid}`} data-testid="locked-avatars">
            {d.locked.map((a) => (
              <li key={a.slug} className={`${styles.item} ${styles.locked}`} data-testid="avatar" data-slug={a.slug}>
                <PersonAvatar
                  person={{ uuid: a.slug, avatarId: a.slug, ...me }}
                  image={a.imageUrl}
                  apiUrl={apiUrl}
                  size={72}
                />
                <strong>
                  <span aria-hidden>🔒 </span>
                  {a.name}
                </strong>
                <span className="pill">{t(`avatarStatus.${a.avatarStatus}`)}</span>
                <span className="small muted" data-testid="unlock">
                  <UnlockHint unlock={a.unlock} />
                </span>
              </li>
            ))}
          </ul>
        ) : (
          <p className="muted small">{t("avatars.allUnlocked")}</p>
        )}
      </section>
      <p className="small">
        <Link to="/ranking">{t("avatars.seeRanking")}</Link>
      </p>
    </section>
  );
}
