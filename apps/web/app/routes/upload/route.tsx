import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useFetcher, useLoaderData, useRevalidator } from "@remix-run/react";
import { useEffect, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { IconButton } from "../../components/icon-button.tsx";
import { PageHero } from "../../components/page-hero.tsx";
import { Pager } from "../../components/pager.tsx";
import { SongArt } from "../../components/song-row.tsx";
import { brandTitle } from "../../lib/brand.ts";
import { PlaybackController } from "../../lib/playback/player.ts";
import { formatDuration } from "../../lib/playback/position.ts";
import { useRootData } from "../../root.tsx";
import type { action as addSong } from "../search/route.tsx";
import styles from "./upload.module.css";
import { changeUpload, loadUploads, type Upload } from "./upload.server.ts";
import {
  ACCEPTED_AUDIO,
  isSettling,
  MAX_UPLOAD_BYTES,
  phaseOf,
  UPLOAD_PAGE,
  UPLOAD_POLL_MS,
  uploadLimit,
} from "./upload.ts";

export const meta: MetaFunction = ({ matches }) => [{ title: brandTitle(matches, "Upload") }];
export const loader = ({ request }: LoaderFunctionArgs) => loadUploads(request);
export const action = ({ request }: ActionFunctionArgs) => changeUpload(request);

type Sending =
  | { state: "idle" }
  | { state: "uploading"; name: string; loaded: number; total: number }
  | { state: "processing"; name: string }
  | { state: "success"; name: string }
  | { state: "error"; name: string; error: string };

/** Sends a file to the upload resource route with XMLHttpRequest, which reports the bytes sent as they go. */
function sendFile(file: File, onProgress: (loaded: number, total: number) => void) {
  return new Promise<{ ok: boolean; body: { error?: string | null } }>((resolve) => {
    const xhr = new XMLHttpRequest();
    xhr.open("POST", `/upload-file?name=${encodeURIComponent(file.name)}`);
    xhr.setRequestHeader("content-type", "audio/mpeg");
    xhr.upload.onprogress = (e) => onProgress(e.loaded, e.lengthComputable ? e.total : file.size);
    xhr.onload = () => {
      let body: { error?: string | null } = {};
      try {
        body = JSON.parse(xhr.responseText);
      } catch {
        body = { error: null };
      }
      resolve({ ok: xhr.status >= 200 && xhr.status < 300, body });
    };
    xhr.onerror = () => resolve({ ok: false, body: { error: null } });
    xhr.send(file);
  });
}

function Dropzone({ disabled }: { disabled: boolean }) {
  const { t, i18n } = useTranslation("upload");
  // The limit the edge holds uploads to, in the person's language ("50 MB").
  const limit = uploadLimit(i18n.language);
  const { revalidate } = useRevalidator();
  const input = useRef<HTMLInputElement>(null);
  const [sending, setSending] = useState<Sending>({ state: "idle" });
  const [hover, setHover] = useState(false);
  // Uploading needs this script: until it runs, the file button stays off.
  const [ready, setReady] = useState(false);
  useEffect(() => setReady(true), []);
  const busy = sending.state === "uploading" || sending.state === "processing";

  async function upload(file: File | undefined) {
    if (!file || busy) return;
    // Refused here, before a byte is sent: the edge would refuse it too, after the browser had sent it all.
    if (file.size > MAX_UPLOAD_BYTES) {
      setSending({ state: "error", name: file.name, error: t("tooLarge", { limit }) });
      if (input.current) input.current.value = "";
      return;
    }
    setSending({ state: "uploading", name: file.name, loaded: 0, total: file.size });
    const { ok, body } = await sendFile(file, (loaded, total) => {
      // Every byte sent: the service now checks the file before it answers.
      if (loaded >= total) setSending({ state: "processing", name: file.name });
      else setSending({ state: "uploading", name: file.name, loaded, total });
    });
    setSending(
      ok
        ? { state: "success", name: file.name }
        : { state: "error", name: file.name, error: body.error || t("failedGeneric") },
    );
    if (input.current) input.current.value = "";
    revalidate();
  }

  const percent = sending.state === "uploading" ? Math.round((sending.loaded / Math.max(sending.total, 1)) * 100) : 100;
  return (
    // biome-ignore lint/a11y/noStaticElementInteractions: a drop target for files; the file button is the keyboard's way in
    <section
      className={`${styles.dropzone} ${hover ? styles.hover : ""} ${disabled ? styles.disabled : ""}`}
      onDragOver={(e) => {
        if (disabled) return;
        e.preventDefault();
        setHover(true);
      }}
      onDragLeave={() => setHover(false)}
      onDrop={(e) => {
        e.preventDefault();
        setHover(false);
        if (!disabled) void upload(e.dataTransfer.files[0]);
      }}
    >
      <div className={styles.dropIcon} aria-hidden>
        ⇪
      </div>
      <h2>{t("dropTitle")}</h2>
      <p className="muted small" data-testid="upload-help">
        {t("dropHelp", { limit })}
      </p>
      <label className={`btn btn-primary ${disabled || busy ? styles.off : ""}`}>
        {t("choose")}
        <input
          ref={input}
          type="file"
          accept={ACCEPTED_AUDIO}
          disabled={disabled || busy || !ready}
          onChange={(e) => void upload(e.target.files?.[0])}
          data-testid="upload-input"
          hidden
        />
      </label>
      {sending.state !== "idle" ? (
        <div className={styles.progress} data-testid="upload-progress" data-state={sending.state}>
          <div className="spread small">
            <span className={styles.fileName}>{sending.name}</span>
            <span data-testid="upload-state">
              {sending.state === "uploading"
                ? t("uploading", { percent })
                : sending.state === "processing"
                  ? t("checkingFile")
                  : sending.state === "success"
                    ? t("uploaded")
                    : t("failed")}
            </span>
          </div>
          <div
            className={styles.bar}
            role="progressbar"
            aria-label={t("progress")}
            aria-valuenow={percent}
            aria-valuemin={0}
            aria-valuemax={100}
          >
            <span
              className={`${styles.fill} ${sending.state === "error" ? styles.fillBad : ""}`}
              style={{ width: `${percent}%` }}
            />
          </div>
          {sending.state === "error" ? (
            <p className="alert alert-error" role="alert" data-testid="upload-error">
              {sending.error}
            </p>
          ) : null}
        </div>
      ) : null}
    </section>
  );
}

function TagsForm({ upload }: { upload: Upload }) {
  const { t } = useTranslation("upload");
  const fetcher = useFetcher<typeof action>();
  const error = fetcher.state === "idle" && fetcher.data?.error ? fetcher.data.error : null;
  return (
    <fetcher.Form method="post" className={styles.tags} data-testid="tags-form">
      <input type="hidden" name="intent" value="tags" />
      <input type="hidden" name="id" value={upload.id} />
      {(["title", "artist", "album", "genre"] as const).map((tag) => (
        <input
          key={tag}
          name={tag}
          placeholder={t(tag)}
          aria-label={t(tag)}
          defaultValue={upload.tags[tag] ?? ""}
          required={tag === "title" || tag === "artist"}
        />
      ))}
      <button type="submit" className="btn btn-small btn-primary" disabled={fetcher.state !== "idle"}>
        {t("saveTags")}
      </button>
      {error ? <p className="alert alert-error small">{error}</p> : null}
    </fetcher.Form>
  );
}

/**
 * The uploader hears a ready upload before anyone else: the song's HLS through the same player as a room's, with a
 * live token (`/live-token`), which the edge accepts for the uploader's own songs.
 */
function Preview({ upload, title }: { upload: Upload; title: string }) {
  const { t } = useTranslation("upload");
  const apiUrl = useRootData()?.env.apiUrl ?? "";
  const audio = useRef<HTMLAudioElement>(null);
  const player = useRef<PlaybackController | null>(null);
  const [playing, setPlaying] = useState(false);
  useEffect(() => () => player.current?.stop(), []);
  async function toggle() {
    if (player.current) {
      player.current.stop();
      player.current = null;
      setPlaying(false);
      return;
    }
    if (!audio.current || !upload.hlsPlaylistUrl) return;
    const res = await fetch("/live-token", { headers: { accept: "application/json" } });
    const { token } = (await res.json()) as { token: string | null };
    const controller = new PlaybackController(audio.current, apiUrl, () => token);
    controller.onError = (message) => console.warn(message);
    player.current = controller;
    setPlaying(true);
    await controller.play({
      key: upload.id,
      song: { trackName: title, artistName: "", duration: 0, streamUrls: { hls: upload.hlsPlaylistUrl } },
      at: () => 0,
    });
  }
  return (
    <>
      <button type="button" className="btn btn-small" onClick={() => void toggle()} data-testid="upload-preview">
        {playing ? `■ ${t("stopPreview")}` : `▶ ${t("preview")}`}
      </button>
      {/* biome-ignore lint/a11y/useMediaCaption: music without words to caption */}
      <audio ref={audio} data-testid="upload-audio" onEnded={() => setPlaying(false)} />
    </>
  );
}

function UploadRow({ upload }: { upload: Upload }) {
  const { t } = useTranslation("upload");
  const { t: tl } = useTranslation("lists");
  const apiUrl = useRootData()?.env.apiUrl ?? "";
  const remove = useFetcher<typeof action>();
  const queue = useFetcher<typeof addSong>();
  const phase = phaseOf(upload);
  const title = upload.tags.title || upload.originalName;
  const inQueue = queue.state !== "idle" || queue.data?.ok === true;
  if (remove.state !== "idle") return null;
  return (
    <li className={styles.upload} data-testid="upload-row" data-phase={phase} data-status={upload.status}>
      <SongArt
        song={{ songId: upload.id, trackName: title, artistName: "", duration: 0, thumbnails: upload.thumbnails }}
        apiUrl={apiUrl}
      />
      <div className={styles.uploadText}>
        <strong>{title}</strong>
        <span className="small muted">
          {upload.tags.artist ?? t("unknownArtist")}
          {upload.duration ? ` · ${formatDuration(upload.duration)}` : ""}
        </span>
        {phase === "needsTags" ? <TagsForm upload={upload} /> : null}
        {upload.error && phase === "failed" ? <span className="small muted">{upload.error}</span> : null}
      </div>
      <span className={`pill ${styles[phase]}`} data-testid="upload-phase">
        {phase === "processing" || phase === "checking" || phase === "waiting" ? (
          <span className={styles.spinner} />
        ) : null}
        {t(`phase.${phase}`)}
      </span>
      <div className="row">
        {phase === "ready" && upload.hlsPlaylistUrl ? <Preview upload={upload} title={title} /> : null}
        {phase === "ready" && upload.songId ? (
          <queue.Form method="post" action="/search">
            <input type="hidden" name="songId" value={upload.songId} />
            <input type="hidden" name="crate" value="queue" />
            <button type="submit" className="btn btn-small" disabled={inQueue} data-testid="upload-queue">
              {inQueue ? `✓ ${tl("inQueue")}` : `+ ${tl("addToQueue")}`}
            </button>
          </queue.Form>
        ) : null}
        <remove.Form
          method="post"
          onSubmit={(e) => {
            if (!confirm(t("deleteConfirm", { name: title }))) e.preventDefault();
          }}
        >
          <input type="hidden" name="intent" value="delete" />
          <input type="hidden" name="id" value={upload.id} />
          <IconButton type="submit" label={t("delete")}>
            ✕
          </IconButton>
        </remove.Form>
      </div>
    </li>
  );
}

export default function UploadPage() {
  const { t } = useTranslation("upload");
  const { offset, uploads, total, canUpload } = useLoaderData<typeof loader>();
  const { revalidate, state } = useRevalidator();
  const settling = uploads.some(isSettling);
  // Until every upload is ready or failed, its status is looked at every second.
  useEffect(() => {
    if (!settling) return;
    const id = setInterval(() => {
      if (state === "idle") revalidate();
    }, UPLOAD_POLL_MS);
    return () => clearInterval(id);
  }, [settling, revalidate, state]);
  return (
    <div className="stack">
      <PageHero title={t("heading")} subtitle={t("subtitle")} />
      {!canUpload ? (
        <p className="alert alert-error" data-testid="upload-not-allowed">
          {t("notAllowed")}
        </p>
      ) : null}
      <div className={`two-columns ${styles.layout}`}>
        <Dropzone disabled={!canUpload} />
        <section className="card stack">
          <div className="spread">
            <h2>{t("mine")}</h2>
            <span className="small muted">{t("count", { count: total })}</span>
          </div>
          {uploads.length ? (
            <ul className="plain-list" data-testid="uploads">
              {uploads.map((u) => (
                <UploadRow key={u.id} upload={u} />
              ))}
            </ul>
          ) : (
            <p className="empty">{t("none")}</p>
          )}
          <Pager offset={offset} pageSize={UPLOAD_PAGE} total={total} />
        </section>
      </div>
    </div>
  );
}
