import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction, SerializeFrom } from "@remix-run/node";
import type { ClientLoaderFunctionArgs } from "@remix-run/react";
import { isRouteErrorResponse, Link, useFetcher, useLoaderData, useRevalidator, useRouteError } from "@remix-run/react";
import { useCallback, useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { ErrorCard } from "../../components/error-card.tsx";
import { askJson } from "../../lib/ask-json.ts";
import { brandName } from "../../lib/brand.ts";
import { reportBoundaryError } from "../../lib/error-reports.ts";
import { preloadPlayer, preloadRoom } from "../../lib/lazy.ts";
import type { Connection, LiveRoom } from "../../lib/live/use-live-room.ts";
import type { AudioQuality } from "../../lib/playback/player.ts";
import { useRoomSession } from "../../lib/player/room-session.tsx";
import { useRootData } from "../../root.tsx";
import type { AfterSong } from "../rooms.$slug_.after-song/route.ts";
import { ChatPanel } from "./chat-panel.tsx";
import { DjPanel } from "./dj-panel.tsx";
import { ModerationPanel } from "./moderation-panel.tsx";
import { NowPlaying, RecentSongs } from "./now-playing.tsx";
import { PasswordGate } from "./password-gate.tsx";
import styles from "./room.module.css";
import { checkRoomPassword, loadRoom, roomAction } from "./room.server.ts";
import { RoomCrateSetting } from "./room-crate-setting.tsx";
import { canModerate } from "./room-model.ts";
import { SongAnnouncer } from "./song-announcer.tsx";
import { Stage } from "./stage.tsx";

// The live client downloads while the page hydrates; hls.js once it has (below), both before the room's first song.
preloadRoom();

export const meta: MetaFunction<typeof loader> = ({ data, matches }) => [
  { title: data ? `${data.room.name} · ${brandName(matches)}` : brandName(matches) },
  // A song to play: hls.js downloads beside the page's own scripts (after them: low priority).
  ...(data?.hlsScript ? [{ tagName: "link", rel: "modulepreload", href: data.hlsScript, fetchpriority: "low" }] : []),
];
export const loader = ({ request, params }: LoaderFunctionArgs) => loadRoom(request, params.slug ?? "");
/**
 * The same data, stamped with when the browser received it: the room's clock is estimated from the server's time in
 * it until the live join measures it. Not run on hydration: the document's data arrived with the document.
 */
export const clientLoader = async ({ serverLoader }: ClientLoaderFunctionArgs) => ({
  ...(await serverLoader<typeof loader>()),
  receivedAt: Date.now(),
});

/** When the document's first byte arrived (epoch ms): its data came with it. */
const documentArrival = () => {
  const [navigation] = performance.getEntriesByType("navigation") as PerformanceNavigationTiming[];
  return performance.timeOrigin + (navigation?.responseStart ?? 0);
};

export const action = ({ request, params }: ActionFunctionArgs) =>
  new URL(request.url).searchParams.has("enter") ? checkRoomPassword(request, params.slug ?? "") : roomAction(request);

export default function RoomPage() {
  const { t } = useTranslation("room");
  const { t: tRooms } = useTranslation("rooms");
  const data = useLoaderData<typeof loader>() as SerializeFrom<typeof loader> & { receivedAt?: number };
  const {
    room,
    queue,
    queueReadAt,
    crates,
    recent,
    liveToken,
    liveTokenExpiresAt,
    guest,
    viewer,
    audioQuality,
    passwordAsked,
  } = data;
  const { playing: atRender, receivedAt } = data;
  const root = useRootData();
  const apiUrl = root?.env.apiUrl ?? "";
  // The connection and the player live in the app shell (lib/player/room-session.tsx), so they outlive leaving
  // this page for another one of the app; arriving here enters the room (the same one keeps its connection).
  const session = useRoomSession();
  const { enter } = session;
  useEffect(() => preloadPlayer(), []);
  // A room with a password is entered once its prompt was answered (or when the person is in it already).
  const [admitted, setAdmitted] = useState<{ kind: "password" | "guestPassword"; password: string } | null>(null);
  const gated = passwordAsked !== null && !admitted && session.room?.uuid !== room.uuid;
  useEffect(() => {
    if (gated) return;
    enter({
      ...(admitted ? { [admitted.kind]: admitted.password } : {}),
      room: { uuid: room.uuid, slug: room.slug, name: room.name, ownerUuid: room.ownerUuid },
      liveToken,
      liveTokenExpiresAt,
      quality: audioQuality,
      early: atRender
        ? {
            nowPlaying: atRender.nowPlaying,
            clockOffset: atRender.serverTime - (receivedAt ?? documentArrival()),
            admitted: atRender.admitted,
          }
        : null,
    });
  }, [
    atRender,
    receivedAt,
    enter,
    gated,
    admitted,
    room.uuid,
    room.slug,
    room.name,
    room.ownerUuid,
    liveToken,
    liveTokenExpiresAt,
    audioQuality,
  ]);
  // Until the shell has entered this room (the first render here, or just after another room), nothing of the
  // other room shows.
  const here = session.room?.uuid === room.uuid;
  const live: LiveRoom | null = here ? session.live : null;
  const state = live?.state ?? null;
  const chat = live?.chat ?? [];
  const clockOffset = live?.clockOffset ?? 0;
  const connection: Connection = live?.connection ?? "connecting";
  const sanctions = live?.sanctions ?? [];
  const act = useCallback(
    (run: Parameters<LiveRoom["act"]>[0]) => (live ? live.act(run) : Promise.resolve<string | null>(t("connecting"))),
    [live, t],
  );
  const [notice, setNotice] = useState<string | null>(null);
  const { quality, setQuality, playback } = session;
  const qualityForm = useFetcher();
  const favorite = useFetcher();
  const moderator = canModerate(state, viewer);

  // A new song: the last one joined the recently played, and the DJ's queue advanced. Both are asked again, and only
  // they (every listener asks at the song's start); the page's own data, once it loads again, replaces them.
  const playing = state?.nowPlaying?.startTime;
  const [afterSong, setAfterSong] = useState<(AfterSong & { of: typeof data }) | null>(null);
  // biome-ignore lint/correctness/useExhaustiveDependencies: asked when a new song starts
  useEffect(() => {
    if (!playing) return;
    const asking = new AbortController();
    const of = data;
    askJson<AfterSong>(`/rooms/${encodeURIComponent(room.slug)}/after-song`, asking.signal)
      .then((answer) => answer && setAfterSong({ ...answer, of }))
      .catch(() => undefined);
    return () => asking.abort();
  }, [playing]);
  const fresh = afterSong?.of === data ? afterSong : null;
  const recentNow = fresh?.recent ?? recent;
  const queueNow = fresh?.queue ?? queue;
  const queueNowReadAt = fresh?.queue ? fresh.queueReadAt : queueReadAt;

  const flash = useCallback((message: string | null) => {
    setNotice(message);
    if (message) setTimeout(() => setNotice((m) => (m === message ? null : m)), 4000);
  }, []);

  const favorited = favorite.formData ? favorite.formData.get("favorite") === "true" : room.favorited;

  if (gated && passwordAsked) return <PasswordGate room={room} kind={passwordAsked} onAdmitted={setAdmitted} />;

  if (live?.kicked)
    return (
      <section className="card narrow">
        <h1>{room.name}</h1>
        <p className="alert alert-error">{t("kicked")}</p>
        <Link to="/" className="btn">
          ←
        </Link>
      </section>
    );

  return (
    <div className={styles.page} data-testid="room" data-connection={connection}>
      <header className={styles.header}>
        <div>
          <h1>{room.name}</h1>
          {room.description ? <p className="muted">{room.description}</p> : null}
        </div>
        <div className="row">
          <span className={`pill ${connection === "live" ? "pill-live" : ""}`} data-testid="connection">
            {connection === "live"
              ? `● ${t("listeners", { count: state?.allUsers.length ?? 0 })}`
              : connection === "closed"
                ? t("closed")
                : connection === "reconnecting"
                  ? t("reconnecting")
                  : t("connecting")}
          </span>
          {viewer && !guest ? (
            <favorite.Form method="post">
              <input type="hidden" name="intent" value="favorite" />
              <input type="hidden" name="roomUuid" value={room.uuid} />
              <input type="hidden" name="favorite" value={String(!favorited)} />
              <button type="submit" className={`btn btn-small ${favorited ? styles.starOn : ""}`}>
                {favorited ? `★ ${t("unfavorite")}` : `☆ ${t("favorite")}`}
              </button>
            </favorite.Form>
          ) : null}
          {moderator ? (
            <Link to={`/rooms/${room.slug}/settings`} className="btn btn-small" data-testid="room-settings-link">
              ⚙ {tRooms("settings.link")}
            </Link>
          ) : null}
          <label className="row small muted">
            {t("quality")}
            <select
              value={quality}
              data-testid="quality"
              onChange={(e) => {
                const next = e.target.value as AudioQuality;
                setQuality(next);
                if (viewer) qualityForm.submit({ intent: "quality", quality: next }, { method: "post" });
              }}
            >
              {(["low", "medium", "high"] as const).map((q) => (
                <option key={q} value={q}>
                  {t(`qualities.${q}`)}
                </option>
              ))}
            </select>
          </label>
        </div>
      </header>
      {live?.error && connection === "closed" ? <p className="alert alert-error">{live.error}</p> : null}
      {live?.idleUntil && state?.djs.some((d) => d.uuid === viewer?.uuid) ? (
        <p className="alert alert-error" data-testid="idle-warning" role="alert">
          {t("idleWarning", {
            time: new Date(live.idleUntil - clockOffset).toLocaleTimeString([], { hour: "2-digit", minute: "2-digit" }),
          })}{" "}
          <button
            type="button"
            className="btn btn-small"
            onClick={async () => flash(await act((c) => c.playOneTimeAnimation("jump")))}
            data-testid="idle-stay"
          >
            👋 {t("idleStay")}
          </button>
        </p>
      ) : null}
      {notice ? (
        <p className="alert alert-ok" data-testid="room-notice">
          {notice}
        </p>
      ) : null}
      {playback.blocked ? (
        <button type="button" className="btn btn-primary" onClick={playback.resume}>
          🔊 {t("unmute")}
        </button>
      ) : null}
      {state ? (
        <div className={`two-columns ${styles.layout}`}>
          <div className={styles.main}>
            <Stage state={state} animations={live?.animations ?? []} viewerUuid={viewer?.uuid ?? null} />
            <SongAnnouncer state={state} />
            <NowPlaying
              state={state}
              clockOffset={clockOffset}
              apiUrl={apiUrl}
              viewerUuid={viewer?.uuid ?? null}
              canVote={Boolean(viewer) && !guest}
              onVote={async (votes) => {
                const failed = await act((c) => c.voteOnSong(votes));
                flash(failed ?? (votes.star ? t("starred") : null));
              }}
              crates={crates}
              onGrab={async (crate) => {
                let added = true;
                const failed = await act(async (c) => {
                  added = (await c.grabSong(crate)).added;
                });
                flash(failed ?? (added ? t("grabDone") : t("grabThere")));
              }}
            />
            <RecentSongs recent={recentNow} state={state} />
            {viewer?.uuid === room.ownerUuid ? (
              <RoomCrateSetting roomUuid={room.uuid} state={state} crates={crates} />
            ) : null}
            <DjPanel
              state={state}
              viewer={viewer}
              guest={guest}
              queue={queueNow}
              queueReadAt={queueNowReadAt}
              canModerate={moderator}
              onAct={async (name, song) => {
                const failed = await act((c) =>
                  name === "addDj"
                    ? c.addDj()
                    : name === "removeDj"
                      ? c.removeDj()
                      : name === "skipSong"
                        ? c.skipSong()
                        : c.updateNextSong(song ?? null),
                );
                flash(failed);
              }}
              onWaitlist={async (name, userUuid, position) => {
                const failed = await act((c) =>
                  name === "join"
                    ? c.joinWaitlist()
                    : name === "leave"
                      ? c.leaveWaitlist(userUuid)
                      : c.moveInWaitlist(userUuid ?? "", position ?? 1),
                );
                flash(failed);
              }}
            />
          </div>
          <aside className={styles.side}>
            {state.settings.pinnedMessages.length ? (
              <section className={`card ${styles.pinned}`} data-testid="pinned">
                <h2>📌 {t("pinned")}</h2>
                <ul>
                  {(state.settings.pinnedMessages as { id?: string; message?: string }[]).map((p, i) => (
                    <li key={p.id ?? i}>{p.message}</li>
                  ))}
                </ul>
              </section>
            ) : null}
            <ChatPanel
              state={state}
              chat={chat}
              clockOffset={clockOffset}
              viewer={viewer && !guest ? viewer : null}
              canModerate={moderator}
              mustVerify={Boolean(viewer && !viewer.verified && state.settings.type === "PUBLIC")}
              apiUrl={apiUrl}
              onSend={(text, replyTo) =>
                act((c) => c.sendChatMessage({ message: text, ...(replyTo ? { replyTo } : {}) }))
              }
              onReact={(id, emoji, on) => void act((c) => c.reactToChatMessage(id, emoji, on)).then(flash)}
              onShareSong={(songId) => act((c) => c.sendChatMessage({ songs: [{ songId }] }))}
              onEdit={(id, text) => act((c) => c.editChatMessage(id, text))}
              onDelete={(id) => void act((c) => c.deleteChatMessage(id)).then(flash)}
              onAnimate={(animation, emoji) => void act((c) => c.playOneTimeAnimation(animation, emoji)).then(flash)}
            />
            {moderator && viewer ? (
              <ModerationPanel
                state={state}
                sanctions={sanctions}
                roomUuid={room.uuid}
                viewerUuid={viewer.uuid}
                onRemoveDj={(uuid) => void act((c) => c.removeDj(uuid)).then(flash)}
              />
            ) : null}
          </aside>
        </div>
      ) : (
        <p className="empty">{connection === "closed" ? t("closed") : t("connecting")}</p>
      )}
    </div>
  );
}

/**
 * The room page's own error: a reload of its data that failed (after a form, say) shows here, inside the app
 * shell, which keeps the live connection and the music; the root's boundary would replace the shell and with it the
 * person's place in the room. A retry loads the page's data again. A room that does not exist is the 404 it always was.
 */
export function ErrorBoundary() {
  const error = useRouteError();
  const { t } = useTranslation();
  const { t: tr } = useTranslation("room");
  const { revalidate, state } = useRevalidator();
  useEffect(() => reportBoundaryError(error), [error]);
  const notFound = isRouteErrorResponse(error) && error.status === 404;
  return (
    <ErrorCard
      testId="room-error"
      title={notFound ? "404" : t("error.generic")}
      message={notFound ? t("error.notFound") : tr("loadFailed")}
      retry={
        notFound
          ? undefined
          : { label: tr("retry"), onClick: revalidate, busy: state === "loading", testId: "room-error-retry" }
      }
    />
  );
}
