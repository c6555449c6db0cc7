import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import {
  type ClientLoaderFunctionArgs,
  Form,
  Link,
  useActionData,
  useLoaderData,
  useNavigation,
} from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { CrateCard, crateGridClass } from "../../components/crate-card.tsx";
import { FormError } from "../../components/form-alert.tsx";
import { PageHero } from "../../components/page-hero.tsx";
import { Pager } from "../../components/pager.tsx";
import { forgetting, freshOrLoad } from "../../components/stale-cache.ts";
import { brandTitle } from "../../lib/brand.ts";
import { useRevalidateEvery } from "../../lib/use-interval.ts";
import { useRootData } from "../../root.tsx";
import styles from "./crates.module.css";
import { changeCrates, loadCrates, type PlaylistImport } from "./crates.server.ts";
import { CRATE_PAGE, CRATE_STALE_MS, PLAYLIST_IMPORT_POLL_MS } from "./crates.ts";

export const meta: MetaFunction = ({ matches }) => [{ title: brandTitle(matches, "Crates") }];
export const loader = ({ request }: LoaderFunctionArgs) => loadCrates(request);
export const action = ({ request }: ActionFunctionArgs) => changeCrates(request);
const running = (job: PlaylistImport | null) => job?.state === "queued" || job?.state === "running";
export const clientLoader = ({ request, serverLoader }: ClientLoaderFunctionArgs) =>
  freshOrLoad(
    request.url,
    CRATE_STALE_MS,
    () => serverLoader<typeof loader>(),
    // A playlist import under way is polled: never answered from the kept copy.
    (d) => !running(d.playlistImport),
  );
export const clientAction = forgetting("/crates");

export default function Crates() {
  const { t } = useTranslation("crates");
  const root = useRootData();
  const apiUrl = root?.env.apiUrl ?? "";
  const { offset, special, crates, total, error } = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  const creating = useNavigation().state === "submitting";
  return (
    <div className="stack">
      <PageHero title={t("title")} subtitle={t("subtitle")}>
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
      </PageHero>
      <FormError error={result?.error} />
      {/* Every playlist import is a streaming provider's: the catalogue brand offers none (BOOTH_BRAND). */}
      {root?.env.brand === "catalogue" ? null : <PlaylistImportPanel />}
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

/** A playlist link to import, and the import's progress line (read again every second until it ends). */
function PlaylistImportPanel() {
  const { t } = useTranslation("crates");
  const { playlistImport: job, importError } = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  const navigation = useNavigation();
  const starting = navigation.state === "submitting" && navigation.formData?.get("intent") === "import-playlist";
  const underway = running(job);
  useRevalidateEvery(PLAYLIST_IMPORT_POLL_MS, underway);
  return (
    <section className="card stack" data-testid="playlist-import">
      <div>
        <h2>{t("playlistImportTitle")}</h2>
        <p className="small muted">{t("playlistImportHelp")}</p>
      </div>
      {/* A new import starts from an empty field. */}
      <Form method="post" className={styles.create} key={job?.importId}>
        <input type="hidden" name="intent" value="import-playlist" />
        <input
          className={styles.link}
          name="link"
          type="url"
          required
          maxLength={2000}
          placeholder="https://open.spotify.com/playlist/…"
          aria-label={t("playlistImportTitle")}
          defaultValue={result?.link}
          data-testid="playlist-link"
        />
        <button type="submit" className="btn btn-primary" disabled={starting || underway} data-testid="import-playlist">
          {t("playlistImportSubmit")}
        </button>
      </Form>
      <FormError error={result?.importError ?? importError ?? undefined} />
      {job ? <ImportProgress job={job} /> : null}
    </section>
  );
}

function ImportProgress({ job }: { job: PlaylistImport }) {
  const { t } = useTranslation("crates");
  const name = job.playlistName;
  const open = (
    <Link to={`/crates/${job.crateUuid}`} data-testid="playlist-import-crate">
      {t("playlistImportOpen", { name })}
    </Link>
  );
  if (job.state === "failed")
    return (
      <div className={`alert alert-error ${styles.result}`} role="status" data-testid="playlist-import-status">
        <span>{t("playlistImportFailed", { name, done: job.done, total: job.total, message: job.message })}</span>
        {open}
      </div>
    );
  if (job.state === "complete")
    return (
      <div className={`alert alert-ok ${styles.result}`} role="status" data-testid="playlist-import-status">
        <span>{t("playlistImported", { name, count: job.imported, skipped: job.skipped })}</span>
        {job.message ? <span className="small">{job.message}</span> : null}
        {open}
      </div>
    );
  return (
    <div className={styles.result} role="status" data-testid="playlist-import-status">
      <span>{t("playlistImporting", { name, done: job.done, total: job.total, skipped: job.skipped })}</span>
      <progress className={styles.progress} max={Math.max(job.total, 1)} value={job.done} />
    </div>
  );
}
