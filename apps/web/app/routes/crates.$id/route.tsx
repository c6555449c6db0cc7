import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { type ClientLoaderFunctionArgs, Form, Link, useFetcher, useLoaderData, useRevalidator } from "@remix-run/react";
import { useEffect, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { IconButton } from "../../components/icon-button.tsx";
import { SongRow, songListClass } from "../../components/song-row.tsx";
import { forgetting, freshOrLoad } from "../../components/stale-cache.ts";
import { brandName } from "../../lib/brand.ts";
import { formatDuration } from "../../lib/playback/position.ts";
import { useRevalidateEvery } from "../../lib/use-interval.ts";
import { useRootData } from "../../root.tsx";
import { CRATE_STALE_MS, IMPORT_POLL_MS } from "../crates._index/crates.ts";
import styles from "./crate.module.css";
import { type CrateSong, changeCrate, loadCrate } from "./crate.server.ts";

export const meta: MetaFunction<typeof loader> = ({ data, matches }) => [
  {
    title: `${brandName(matches)} · ${data?.special ? data.special[0]?.toUpperCase() + data.special.slice(1) : (data?.crate.crateName ?? "Crate")}`,
  },
];
export const loader = ({ request, params }: LoaderFunctionArgs) => loadCrate(request, params.id);
export const action = ({ request, params }: ActionFunctionArgs) => changeCrate(request, params.id);
export const clientLoader = ({ request, serverLoader }: ClientLoaderFunctionArgs) =>
  freshOrLoad(
    request.url,
    CRATE_STALE_MS,
    () => serverLoader<typeof loader>(),
    // An import in progress is polled: never answered from the kept copy.
    (d) => d.crate.importStatus !== "IN_PROGRESS",
  );
export const clientAction = forgetting("/crates");

const moved = <T,>(list: T[], from: number, to: number) => {
  const next = [...list];
  const [item] = next.splice(from, 1);
  if (item !== undefined) next.splice(to, 0, item);
  return next;
};

function Header({ owner, special }: { owner: boolean; special: string | null }) {
  const { t } = useTranslation("crates");
  const { crate, songs } = useLoaderData<typeof loader>();
  const apiUrl = useRootData()?.env.apiUrl ?? "";
  const [editing, setEditing] = useState(false);
  const rename = useFetcher<typeof action>();
  const tools = useFetcher<typeof action>();
  useEffect(() => {
    if (rename.state === "idle" && rename.data?.ok) setEditing(false);
  }, [rename.state, rename.data]);
  const name = special === "queue" ? t("queue") : special === "likes" ? t("likes") : crate.crateName;
  const cover = crate.thumbnails[0];
  const seconds = songs.reduce((sum, s) => sum + s.duration, 0);
  const error = (tools.state === "idle" && tools.data?.ok === false && tools.data.error) || null;
  return (
    <section className={styles.header}>
      <div className={`art-frame ${styles.sleeve}`}>
        {special ? (
          <span>{special === "queue" ? "☰" : "♥"}</span>
        ) : cover ? (
          <img src={/^https?:/.test(cover) ? cover : `${apiUrl}${cover}`} alt="" />
        ) : (
          <span>♫</span>
        )}
      </div>
      <div className={styles.headText}>
        <p className="small muted">
          <Link to="/crates">← {t("title")}</Link>
        </p>
        {editing ? (
          <rename.Form method="post" className="stack" data-testid="rename-form">
            <input type="hidden" name="intent" value="rename" />
            <input name="name" defaultValue={crate.crateName} maxLength={100} required aria-label={t("name")} />
            <input
              name="description"
              defaultValue={crate.description ?? ""}
              maxLength={1000}
              placeholder={t("description")}
              aria-label={t("description")}
            />
            <div className="row">
              <button type="submit" className="btn btn-primary btn-small" data-testid="rename-save">
                {t("save")}
              </button>
              <button type="button" className="btn btn-ghost btn-small" onClick={() => setEditing(false)}>
                {t("cancel")}
              </button>
            </div>
            {rename.data?.ok === false ? <p className="alert alert-error">{rename.data.error}</p> : null}
          </rename.Form>
        ) : (
          <>
            <h1 data-testid="crate-title">{name}</h1>
            {special ? <p className="muted">{t(`${special}About`)}</p> : null}
            {crate.description ? <p className="muted">{crate.description}</p> : null}
            <p className="small muted" data-testid="crate-count">
              {t("summary", { count: songs.length, length: formatDuration(seconds) })}
            </p>
          </>
        )}
        {owner && !editing ? (
          <div className="row">
            <tools.Form method="post">
              <input type="hidden" name="intent" value="shuffle" />
              <button type="submit" className="btn btn-small" disabled={songs.length < 2} data-testid="shuffle">
                ⤮ {t("shuffle")}
              </button>
            </tools.Form>
            {special ? (
              <tools.Form
                method="post"
                onSubmit={(e) => {
                  if (!confirm(t("clearConfirm"))) e.preventDefault();
                }}
              >
                <input type="hidden" name="intent" value="clear" />
                <button type="submit" className="btn btn-small btn-danger" disabled={!songs.length}>
                  {t("clear")}
                </button>
              </tools.Form>
            ) : (
              <>
                <button type="button" className="btn btn-small" onClick={() => setEditing(true)} data-testid="rename">
                  ✎ {t("rename")}
                </button>
                <Form
                  method="post"
                  onSubmit={(e) => {
                    if (!confirm(t("deleteConfirm", { name: crate.crateName }))) e.preventDefault();
                  }}
                >
                  <input type="hidden" name="intent" value="delete" />
                  <button type="submit" className="btn btn-small btn-danger" data-testid="delete-crate">
                    {t("delete")}
                  </button>
                </Form>
              </>
            )}
          </div>
        ) : null}
        {!owner ? (
          <Form method="post">
            <input type="hidden" name="intent" value="copy" />
            <button type="submit" className="btn btn-small">
              {t("copy")}
            </button>
          </Form>
        ) : null}
        {error ? <p className="alert alert-error">{error}</p> : null}
      </div>
    </section>
  );
}

/** The songs in order: drag, or the arrows, to reorder (at once, put back if the server refuses); remove. */
function SongList({ owner, special }: { owner: boolean; special: string | null }) {
  const { t } = useTranslation("crates");
  const { crate, songs } = useLoaderData<typeof loader>();
  const apiUrl = useRootData()?.env.apiUrl ?? "";
  const { revalidate } = useRevalidator();
  const [order, setOrder] = useState<CrateSong[]>(songs);
  const [removing, setRemoving] = useState<Set<string>>(new Set());
  const [notice, setNotice] = useState<string | null>(null);
  const before = useRef<CrateSong[] | null>(null);
  const dragged = useRef<number | null>(null);
  const [over, setOver] = useState<number | null>(null);
  const mover = useFetcher<typeof action>();
  const remover = useFetcher<typeof action>();
  const playNext = useFetcher<typeof action>();

  // The server's order whenever it arrives (after a change, or a poll).
  useEffect(() => {
    setOrder(songs);
    setRemoving(new Set());
  }, [songs]);

  // A refused move: back to the order before it, and say why.
  useEffect(() => {
    if (mover.state !== "idle" || !before.current) return;
    if (mover.data && !mover.data.ok) {
      setOrder(before.current);
      setNotice(t("moveRefused", { reason: mover.data.error }));
    }
    before.current = null;
  }, [mover.state, mover.data, t]);

  // A refused removal: the list is loaded again (spec 4: remove refetches on error).
  useEffect(() => {
    if (remover.state === "idle" && remover.data && !remover.data.ok) {
      setRemoving(new Set());
      setNotice(remover.data.error);
      revalidate();
    }
  }, [remover.state, remover.data, revalidate]);

  const moving = mover.state !== "idle";
  function move(from: number, to: number) {
    if (moving || to < 0 || to >= order.length || from === to) return;
    const song = order[from];
    if (!song) return;
    before.current = order;
    setNotice(null);
    setOrder(moved(order, from, to));
    mover.submit({ intent: "move", crateSongUuid: song.crateSongUuid, position: String(to) }, { method: "post" });
  }
  function remove(song: CrateSong) {
    setNotice(null);
    setRemoving(new Set([...removing, song.crateSongUuid]));
    remover.submit({ intent: "remove", crateSongUuid: song.crateSongUuid }, { method: "post" });
  }

  const visible = order.filter((s) => !removing.has(s.crateSongUuid));
  const upNext = special === "queue" ? crate.currentPosition : -1;
  return (
    <section className="card stack">
      {notice ? (
        <p className="alert alert-error" role="alert" data-testid="crate-notice">
          {notice}
        </p>
      ) : null}
      {visible.length ? (
        <ol className={songListClass} data-testid="crate-songs">
          {visible.map((song, i) => {
            const at = order.indexOf(song);
            return (
              <SongRow
                key={song.crateSongUuid}
                song={song}
                apiUrl={apiUrl}
                index={i}
                data-testid="crate-song"
                data-crate-song={song.crateSongUuid}
                className={`${over === i ? styles.dropTarget : ""} ${owner ? styles.draggable : ""}`}
                draggable={owner && !moving}
                onDragStart={(e) => {
                  dragged.current = at;
                  e.dataTransfer.effectAllowed = "move";
                }}
                onDragOver={(e) => {
                  if (dragged.current === null) return;
                  e.preventDefault();
                  setOver(i);
                }}
                onDragLeave={() => setOver(null)}
                onDrop={(e) => {
                  e.preventDefault();
                  setOver(null);
                  if (dragged.current !== null) move(dragged.current, at);
                  dragged.current = null;
                }}
                onDragEnd={() => {
                  dragged.current = null;
                  setOver(null);
                }}
              >
                {i === upNext ? <span className="pill pill-live">{t("upNext")}</span> : null}
                {owner ? (
                  <>
                    {special === "queue" && i !== upNext ? (
                      <button
                        type="button"
                        className="btn btn-small btn-ghost"
                        title={t("playNext")}
                        onClick={() =>
                          playNext.submit({ intent: "play-next", position: String(i) }, { method: "post" })
                        }
                      >
                        ▶
                      </button>
                    ) : null}
                    <IconButton
                      label={t("moveUp")}
                      disabled={moving || i === 0}
                      onClick={() => move(at, at - 1)}
                      data-testid="move-up"
                    >
                      ↑
                    </IconButton>
                    <IconButton
                      label={t("moveDown")}
                      disabled={moving || i === visible.length - 1}
                      onClick={() => move(at, at + 1)}
                      data-testid="move-down"
                    >
                      ↓
                    </IconButton>
                    <IconButton label={t("remove")} onClick={() => remove(song)} data-testid="remove-song">
                      ✕
                    </IconButton>
                  </>
                ) : null}
              </SongRow>
            );
          })}
        </ol>
      ) : (
        <div className="empty">
          <p>{t(special === "likes" ? "emptyLikes" : "emptyCrate")}</p>
          <Link to="/search" className="btn btn-primary">
            {t("findSongs")}
          </Link>
        </div>
      )}
      {owner && visible.length > 1 ? <p className="small muted">{t("reorderHint")}</p> : null}
    </section>
  );
}

/** Paste track links; each one not imported is listed with the reason (spec 8's import messages). */
function ImportPanel() {
  const { t } = useTranslation("crates");
  const { crate } = useLoaderData<typeof loader>();
  const importer = useFetcher<typeof action>();
  const catalogue = useRootData()?.env.brand === "catalogue";
  const inProgress = crate.importStatus === "IN_PROGRESS";
  // An import still running elsewhere is looked at again every 5 s (spec 4).
  useRevalidateEvery(IMPORT_POLL_MS, inProgress);
  const busy = importer.state !== "idle";
  const result = importer.state === "idle" ? importer.data : undefined;
  const form = useRef<HTMLFormElement>(null);
  // Done: the links leave the box (what was left out is listed below it).
  useEffect(() => {
    if (importer.state === "idle" && importer.data?.ok) form.current?.reset();
  }, [importer.state, importer.data]);
  return (
    <section className="card stack" data-testid="import-panel">
      <div>
        <h2>{t("importTitle")}</h2>
        <p className="small muted">{t(catalogue ? "importHelpCatalogue" : "importHelp")}</p>
      </div>
      {inProgress || busy ? (
        <p className="alert alert-ok" role="status" data-testid="import-status">
          {t("importing")}
        </p>
      ) : null}
      {!busy && crate.importStatus === "FAILED" && crate.importMessage && !result ? (
        <p className="alert alert-error">{crate.importMessage}</p>
      ) : null}
      <importer.Form method="post" className="stack" ref={form}>
        <input type="hidden" name="intent" value="import" />
        <textarea
          className={styles.links}
          name="links"
          rows={3}
          placeholder={catalogue ? "https://us.7digital.com/…" : "https://open.spotify.com/track/…"}
          aria-label={t("importTitle")}
          data-testid="import-links"
        />
        <div>
          <button type="submit" className="btn" disabled={busy} data-testid="import-submit">
            {t("importSubmit")}
          </button>
        </div>
      </importer.Form>
      {result?.ok ? (
        <div className="stack" data-testid="import-result">
          <p className={`alert ${result.imported ? "alert-ok" : "alert-error"}`}>
            {t("imported", { count: result.imported ?? 0 })}
          </p>
          {result.skipped?.length ? (
            <ul className={`plain-list ${styles.skipped}`}>
              {result.skipped.map((s) => (
                <li key={s.line} data-testid="import-skipped">
                  <code>{s.line}</code>
                  <span>{s.message}</span>
                </li>
              ))}
            </ul>
          ) : null}
        </div>
      ) : result ? (
        <p className="alert alert-error">{result.error}</p>
      ) : null}
    </section>
  );
}

/** Export the crate to the person's connected Spotify or Apple Music account (the web server uses their token). */
function ExportPanel() {
  const { t } = useTranslation("crates");
  const { songs } = useLoaderData<typeof loader>();
  const exporter = useFetcher<typeof action>();
  const busy = exporter.state !== "idle";
  const result = busy ? undefined : exporter.data;
  const names = { spotify: "Spotify", apple: "Apple Music" } as const;
  const done = result?.ok ? result.exported : undefined;
  return (
    <section className={`card ${styles.exportPanel}`} data-testid="crate-export" aria-labelledby="export-title">
      <h2 id="export-title" className="small">
        {t("exportTitle")}
      </h2>
      <exporter.Form method="post" className="row">
        {(["spotify", "apple"] as const).map((service) => (
          <button
            key={service}
            type="submit"
            name="intent"
            value={`export-${service}`}
            className="btn btn-small"
            disabled={busy || !songs.length}
            data-testid={`export-${service}`}
          >
            {t(service === "spotify" ? "exportSpotify" : "exportApple")}
          </button>
        ))}
      </exporter.Form>
      <div aria-live="polite" data-testid="export-result">
        {done ? (
          <p className="alert alert-ok">
            {t("exportDone", { service: names[done.service], exported: done.exported, skipped: done.missing })}{" "}
            {done.url ? (
              <a href={done.url} target="_blank" rel="noopener noreferrer" data-testid="export-link">
                {t("exportOpen", { service: names[done.service] })}
              </a>
            ) : null}
          </p>
        ) : result && !result.ok ? (
          <p className="alert alert-error" role="alert">
            {result.notConnected ? (
              <>
                {t("exportNotConnected", { service: names[result.notConnected] })}{" "}
                <Link to="/profile/connections">{t("exportConnect")}</Link>
              </>
            ) : (
              result.error
            )}
          </p>
        ) : null}
      </div>
    </section>
  );
}

export default function CratePage() {
  const { owner, special } = useLoaderData<typeof loader>();
  // Exports go to Spotify and Apple Music, which the catalogue brand does not offer (BOOTH_BRAND).
  const streaming = useRootData()?.env.brand !== "catalogue";
  return (
    <div className="stack">
      <Header owner={owner} special={special} />
      {streaming ? <ExportPanel /> : null}
      <div className={`two-columns ${styles.layout}`}>
        <SongList owner={owner} special={special} />
        {owner ? <ImportPanel /> : null}
      </div>
    </div>
  );
}
