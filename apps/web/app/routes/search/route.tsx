import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Form, Link, useFetcher, useLoaderData, useNavigate, useNavigation } from "@remix-run/react";
import { useEffect, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { CrateOptions } from "../../components/crate-card.tsx";
import { PageHero } from "../../components/page-hero.tsx";
import { Pager } from "../../components/pager.tsx";
import { PersonCard, peopleGridClass } from "../../components/person-card.tsx";
import { SongRow, songListClass } from "../../components/song-row.tsx";
import { forgetting } from "../../components/stale-cache.ts";
import { brandTitle } from "../../lib/brand.ts";
import { useRootData } from "../../root.tsx";
import styles from "./search.module.css";
import { addSong, type CrateSummary, loadSearch, type Song } from "./search.server.ts";
import { QUEUE, SEARCH_DEBOUNCE_MS, SEARCH_PAGE } from "./search.ts";

export const meta: MetaFunction = ({ matches }) => [{ title: brandTitle(matches, "Search") }];
export const loader = ({ request }: LoaderFunctionArgs) => loadSearch(request);
export const action = ({ request }: ActionFunctionArgs) => addSong(request);
// An added song changes the crate screens' data: their kept copies are out of date.
export const clientAction = forgetting("/crates");

/** Add-to-queue and add-to-crate for one song: shown as added at once, put back with the reason when refused. */
function SongActions({ song, crates, inQueue }: { song: Song; crates: CrateSummary[]; inQueue: boolean }) {
  const { t } = useTranslation("lists");
  const queue = useFetcher<typeof action>();
  const crate = useFetcher<typeof action>();
  const [target, setTarget] = useState("");
  const queueAdded = inQueue || queue.state !== "idle" || queue.data?.ok === true;
  const crateBusy = crate.state !== "idle";
  const crateAdded = crate.data?.ok === true && crate.data.crate === target;
  const error = queue.state === "idle" && queue.data?.ok === false ? queue.data.error : null;
  const crateError = !crateBusy && crate.data?.ok === false ? crate.data.error : null;
  return (
    <div className={styles.actions}>
      <queue.Form method="post">
        <input type="hidden" name="songId" value={song.songId} />
        <input type="hidden" name="crate" value={QUEUE} />
        <button
          type="submit"
          className={`btn btn-small ${queueAdded ? "btn-ghost" : ""}`}
          disabled={queueAdded}
          data-testid="add-to-queue"
        >
          {queueAdded ? `✓ ${t("inQueue")}` : `+ ${t("addToQueue")}`}
        </button>
      </queue.Form>
      {crates.length ? (
        <crate.Form method="post" className={styles.crateForm}>
          <input type="hidden" name="songId" value={song.songId} />
          <select
            name="crate"
            value={target}
            onChange={(e) => setTarget(e.target.value)}
            aria-label={t("addToCrate")}
            data-testid="crate-choice"
            required
          >
            <CrateOptions none={t("chooseCrate")} crates={crates} />
          </select>
          <button
            type="submit"
            className="btn btn-small"
            disabled={!target || crateBusy || crateAdded}
            data-testid="add-to-crate"
          >
            {crateBusy || crateAdded ? `✓ ${t("added")}` : t("add")}
          </button>
        </crate.Form>
      ) : null}
      {error || crateError ? (
        <p className={`alert alert-error small ${styles.rowError}`} role="alert" data-testid="add-error">
          {error ?? crateError}
        </p>
      ) : null}
    </div>
  );
}

export default function Search() {
  const { t } = useTranslation("search");
  const { t: tl } = useTranslation("lists");
  const root = useRootData();
  const apiUrl = root?.env.apiUrl ?? "";
  const { q, offset, songs, total, error, people, signedIn, crates, queued } = useLoaderData<typeof loader>();
  const navigate = useNavigate();
  const navigation = useNavigation();
  const [text, setText] = useState(q);
  const typed = useRef(false);
  // A navigation away from the search (a link clicked within the debounce) cancels the pending search, which would
  // otherwise replace the page the person asked for.
  const leaving = navigation.state !== "idle" && navigation.location?.pathname !== "/search";
  // Debounced: the address (and so the results) follows the box 300 ms after the last key.
  useEffect(() => {
    if (!typed.current || leaving) return;
    const id = setTimeout(() => {
      const words = text.trim();
      navigate(words ? `/search?q=${encodeURIComponent(words)}` : "/search", {
        replace: true,
        preventScrollReset: true,
      });
    }, SEARCH_DEBOUNCE_MS);
    return () => clearTimeout(id);
  }, [text, navigate, leaving]);
  const searching = navigation.state === "loading" && navigation.location?.pathname === "/search";
  const queuedSet = new Set(queued);
  return (
    <div className="stack">
      <PageHero title={t("title")} subtitle={t("subtitle")}>
        {signedIn ? (
          <Link to="/crates" className="btn">
            {t("myCrates")}
          </Link>
        ) : null}
      </PageHero>
      <Form method="get" role="search" className={styles.searchBar}>
        <span className={styles.glass} aria-hidden>
          ⌕
        </span>
        <input
          type="search"
          name="q"
          value={text}
          onChange={(e) => {
            typed.current = true;
            setText(e.target.value);
          }}
          placeholder={t("placeholder")}
          aria-label={t("placeholder")}
          autoComplete="off"
          maxLength={200}
          data-testid="search-input"
        />
        {searching ? <span className={`small muted ${styles.busy}`}>{t("searching")}</span> : null}
      </Form>
      {error ? <p className="alert alert-error">{error}</p> : null}
      {!signedIn ? <p className="small muted">{tl("signInToCollect")}</p> : null}
      {people.length ? (
        <section className="card stack" data-testid="people-results">
          <h2>{t("people")}</h2>
          <ul className={peopleGridClass}>
            {people.map((person) => (
              <PersonCard key={person.uuid} person={person} apiUrl={apiUrl} />
            ))}
          </ul>
        </section>
      ) : null}
      <section className="card stack">
        <div className="spread">
          <h2 data-testid="search-heading">{q ? t("resultsFor", { q }) : t("catalogue")}</h2>
          <span className="small muted" data-testid="search-total">
            {tl("songs", { count: total })}
          </span>
        </div>
        {songs.length ? (
          <ul className={songListClass} data-testid="search-results">
            {songs.map((song, i) => (
              <SongRow key={song.songId} song={song} apiUrl={apiUrl} index={offset + i} data-testid="search-result">
                {signedIn ? <SongActions song={song} crates={crates} inQueue={queuedSet.has(song.songId)} /> : null}
              </SongRow>
            ))}
          </ul>
        ) : (
          <p className="empty" data-testid="search-empty">
            {q ? t("nothing", { q }) : t("emptyCatalogue")}
          </p>
        )}
        <Pager offset={offset} pageSize={SEARCH_PAGE} total={total} />
      </section>
    </div>
  );
}
