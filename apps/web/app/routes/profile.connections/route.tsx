import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Link, useFetcher, useLoaderData } from "@remix-run/react";
import { useEffect, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { brandTitle } from "../../lib/brand.ts";
import { type MusicKitInstance, musicKitInstance } from "../../lib/playback/musickit.ts";
import { within } from "../../lib/playback/song-player.ts";
import { useRootData } from "../../root.tsx";
import styles from "./connections.module.css";
import { type Connection, changeConnections, loadConnections } from "./connections.server.ts";

export const meta: MetaFunction = ({ matches }) => [{ title: brandTitle(matches, "Connected accounts") }];
export const loader = ({ request }: LoaderFunctionArgs) => loadConnections(request);
export const action = ({ request }: ActionFunctionArgs) => changeConnections(request);

const ICONS: Record<Connection["provider"], string> = {
  spotify: "🟢",
  youtube: "▶",
  soundcloud: "☁",
  apple: "♪",
  discord: "💬",
};

/**
 * Apple Music has no consent page to send the person to: MusicKit JS (from the web's `MUSICKIT_JS_URL`, loaded only
 * once the person reaches for Connect) signs them in in Apple's own window and hands the page their music user token,
 * which goes to the web's server (the action) and from there to the edge, which checks it with Apple and keeps it.
 */
function useAppleMusic(developerToken: string | null) {
  const url = useRootData()?.env.players.musicKit;
  const music = useRef<Promise<MusicKitInstance> | null>(null);
  const prepare = () => {
    if (!url || !developerToken) return Promise.reject(new Error("Apple Music is not configured"));
    if (!music.current) {
      const loading = within(musicKitInstance(url, developerToken), 20_000, "MusicKit did not answer");
      music.current = loading;
      // A failed load may be tried again at the next press.
      loading.catch(() => {
        if (music.current === loading) music.current = null;
      });
    }
    return music.current;
  };
  return {
    /** Starts loading MusicKit (the pointer is on Connect), so pressing it opens Apple's window at once. */
    prepare: () => void prepare().catch(() => undefined),
    /** The person's music user token; rejects with "unavailable" (MusicKit did not load) or "cancelled". */
    authorize: async (): Promise<string> => {
      const instance = await prepare().catch(() => Promise.reject(new Error("unavailable")));
      const token = await instance.authorize().catch(() => "");
      if (!token) throw new Error("cancelled");
      return token;
    },
    /** Forgets the sign-in MusicKit keeps in this browser (best effort: the edge has forgotten it already). */
    unauthorize: () =>
      void prepare()
        .then((instance) => instance.unauthorize())
        .catch(() => undefined),
  };
}

function Row({ connection, appleDeveloperToken }: { connection: Connection; appleDeveloperToken: string | null }) {
  const { t } = useTranslation("profile");
  const change = useFetcher<typeof action>();
  const apple = useAppleMusic(connection.provider === "apple" ? appleDeveloperToken : null);
  const [signingIn, setSigningIn] = useState(false);
  const [appleError, setAppleError] = useState<string | null>(null);
  const { provider: id, connected, displayName, notConfigured } = connection;
  const name = t(`connections.names.${id}`);
  const outcome = change.state === "idle" ? change.data : undefined;
  const isConnected = outcome?.ok ? outcome.intent === "connect" : connected;
  const error = appleError ?? (outcome && !outcome.ok ? outcome.error : null);
  const busy = signingIn || change.state !== "idle";

  // Apple Music: a disconnection also signs MusicKit out of this browser; a token the edge refused is forgotten too,
  // so the next Connect opens Apple's sign-in again.
  const signedOut = useRef<unknown>(null);
  const { unauthorize } = apple;
  useEffect(() => {
    if (id !== "apple" || !outcome || signedOut.current === outcome) return;
    signedOut.current = outcome;
    if (outcome.intent === "disconnect" ? outcome.ok : !outcome.ok) unauthorize();
  }, [outcome, id, unauthorize]);

  const connectApple = async () => {
    setAppleError(null);
    setSigningIn(true);
    try {
      const musicUserToken = await apple.authorize();
      change.submit({ intent: "connect", provider: "apple", musicUserToken }, { method: "post" });
    } catch (failed) {
      const why = failed instanceof Error && failed.message === "unavailable" ? "appleUnavailable" : "appleCancelled";
      setAppleError(t(`connections.${why}`));
    } finally {
      setSigningIn(false);
    }
  };

  return (
    <li className={styles.row} data-testid={`connection-${id}`} data-connected={isConnected}>
      <span className={styles.icon} aria-hidden="true">
        {ICONS[id]}
      </span>
      <div className={styles.about}>
        <h2>{name}</h2>
        <p className="small muted" data-testid="connection-status">
          {isConnected
            ? displayName
              ? t("connections.connectedAs", { name: displayName })
              : t("connections.connected")
            : notConfigured
              ? notConfigured
              : t("connections.notConnected")}
        </p>
        {error ? (
          <p className="alert alert-error small" role="alert" data-testid="connection-error">
            {error}
          </p>
        ) : null}
      </div>
      {isConnected ? (
        <change.Form method="post">
          <input type="hidden" name="intent" value="disconnect" />
          <input type="hidden" name="provider" value={id} />
          <button
            type="submit"
            className="btn btn-small"
            disabled={busy}
            aria-label={t("connections.disconnectLabel", { name })}
            data-testid="disconnect"
          >
            {t("connections.disconnect")}
          </button>
        </change.Form>
      ) : notConfigured ? null : id === "apple" ? (
        <button
          type="button"
          className="btn btn-primary btn-small"
          disabled={busy || !appleDeveloperToken}
          onPointerEnter={apple.prepare}
          onFocus={apple.prepare}
          onClick={connectApple}
          aria-label={t("connections.connectLabel", { name })}
          data-testid="connect"
        >
          {t("connections.connect")}
        </button>
      ) : (
        <Link
          to={`/connections/${id}/start`}
          reloadDocument
          className="btn btn-primary btn-small"
          aria-label={t("connections.connectLabel", { name })}
          data-testid="connect"
        >
          {t("connections.connect")}
        </Link>
      )}
    </li>
  );
}

export default function Connections() {
  const { t } = useTranslation("profile");
  const { connections, notice, appleDeveloperToken } = useLoaderData<typeof loader>();
  const brand = useRootData()?.env.brand;
  const name = notice ? t(`connections.names.${notice.provider}`, { defaultValue: notice.provider }) : "";
  return (
    <section className={`card stack ${styles.page}`}>
      <div>
        <p className="small muted">
          <Link to="/profile/edit">← {t("editTitle")}</Link>
        </p>
        <h1>{t("connections.title")}</h1>
        <p className="muted small">
          {t(brand === "catalogue" ? "connections.subtitleCatalogue" : "connections.subtitle")}
        </p>
      </div>
      {notice ? (
        <p
          className={`alert ${notice.kind === "ok" ? "alert-ok" : "alert-error"}`}
          role={notice.kind === "ok" ? "status" : "alert"}
          data-testid="connection-notice"
        >
          {notice.key === "failed" ? notice.text : t(`connections.notice.${notice.key}`, { name })}
        </p>
      ) : null}
      <ul className={`plain-list ${styles.list}`} data-testid="connections">
        {connections.map((c) => (
          <Row key={c.provider} connection={c} appleDeveloperToken={appleDeveloperToken} />
        ))}
      </ul>
    </section>
  );
}
