import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import {
  type ClientActionFunctionArgs,
  type ClientLoaderFunctionArgs,
  Form,
  useActionData,
  useLoaderData,
  useNavigation,
} from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { FormError } from "../../components/auth-card.tsx";
import { CrateCard, crateGridClass } from "../../components/crate-card.tsx";
import { Pager } from "../../components/pager.tsx";
import { forget, freshOrLoad } from "../../components/stale-cache.ts";
import { useRootData } from "../../root.tsx";
import styles from "./crates.module.css";
import { createCrate, loadCrates } from "./crates.server.ts";
import { CRATE_PAGE, CRATE_STALE_MS } from "./crates.ts";

export const meta: MetaFunction = () => [{ title: "Booth · Crates" }];
export const loader = ({ request }: LoaderFunctionArgs) => loadCrates(request);
export const action = ({ request }: ActionFunctionArgs) => createCrate(request);
export const clientLoader = ({ request, serverLoader }: ClientLoaderFunctionArgs) =>
  freshOrLoad(request.url, CRATE_STALE_MS, () => serverLoader<typeof loader>());
export async function clientAction({ serverAction }: ClientActionFunctionArgs) {
  forget("/crates");
  return serverAction<typeof action>();
}

export default function Crates() {
  const { t } = useTranslation("crates");
  const apiUrl = useRootData()?.env.apiUrl ?? "";
  const { offset, special, crates, total, error } = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  const creating = useNavigation().state === "submitting";
  return (
    <div className="stack">
      <section className="hero">
        <div>
          <h1>{t("title")}</h1>
          <p className="muted">{t("subtitle")}</p>
        </div>
        <Form method="post" className={styles.create}>
          <input
            id="crate-name"
            name="name"
            maxLength={100}
            placeholder={t("namePlaceholder")}
            aria-label={t("name")}
            defaultValue={result?.name}
          />
          <button type="submit" className="btn btn-primary" disabled={creating} data-testid="create-crate">
            + {t("create")}
          </button>
        </Form>
      </section>
      <FormError error={result?.error} />
      {error ? <p className="alert alert-error">{error}</p> : null}
      <section>
        <div className="spread">
          <h2>{t("playlists")}</h2>
          <span className="small muted">{t("count", { count: total })}</span>
        </div>
        <div className={crateGridClass} data-testid="crate-list">
          {offset === 0
            ? special.map((c) => <CrateCard key={c.crateUuid} crate={c} apiUrl={apiUrl} to={`/crates/${c.kind}`} />)
            : null}
          {crates.map((c) => (
            <CrateCard key={c.crateUuid} crate={c} apiUrl={apiUrl} to={`/crates/${c.crateUuid}`} />
          ))}
        </div>
        {crates.length === 0 ? <p className="empty">{t("empty")}</p> : null}
        <Pager offset={offset} pageSize={CRATE_PAGE} total={total} />
      </section>
    </div>
  );
}
