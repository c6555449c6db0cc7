import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import styles from "./push-opt-in.module.css";

/**
 * Notifications in this browser (Web Push): turning them on asks the browser's permission, subscribes with the edge's
 * VAPID key and hands the subscription to the edge (through /push-subscription, which holds the session's token);
 * turning them off unsubscribes the browser and tells the edge to forget it. What the control shows is the browser's
 * own state (`pushManager.getSubscription()`), so it is right however the page was reached.
 */
type State = "checking" | "unsupported" | "denied" | "off" | "on";

const supported = () =>
  typeof window !== "undefined" && "serviceWorker" in navigator && "PushManager" in window && "Notification" in window;

async function registration() {
  // The root registers the worker; this waits for it to be active (at once on a later visit).
  return navigator.serviceWorker.ready;
}

/** The edge's message from a /push-subscription answer that failed. */
async function refusal(res: Response) {
  const body = (await res.json().catch(() => null)) as { message?: string | string[] } | null;
  const message = body?.message;
  return Array.isArray(message) ? message.join(" ") : message || res.statusText || String(res.status);
}

const send = (method: "POST" | "DELETE", body: unknown) =>
  fetch("/push-subscription", { method, headers: { "content-type": "application/json" }, body: JSON.stringify(body) });

async function turnOn() {
  // Dismissing the browser's question leaves notifications off; only a refusal blocks them.
  const permission = await Notification.requestPermission();
  if (permission !== "granted") return permission === "denied" ? ("denied" as const) : ("off" as const);
  const reg = await registration();
  const keyAnswer = await fetch("/push-subscription");
  if (!keyAnswer.ok) throw new Error(await refusal(keyAnswer));
  const { publicKey } = (await keyAnswer.json()) as { publicKey: string };
  // A subscription left from before (another key, or one the edge lost) is replaced, so the edge holds this one.
  await (await reg.pushManager.getSubscription())?.unsubscribe();
  const subscription = await reg.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: publicKey });
  const saved = await send("POST", subscription.toJSON());
  if (!saved.ok) {
    await subscription.unsubscribe().catch(() => undefined);
    throw new Error(await refusal(saved));
  }
  return "on" as const;
}

async function turnOff() {
  const subscription = await (await registration()).pushManager.getSubscription();
  if (!subscription) return "off" as const;
  // The browser stops first, so nothing arrives even when the edge cannot be told; a 404 means it had forgotten already.
  await subscription.unsubscribe();
  const forgotten = await send("DELETE", { endpoint: subscription.endpoint });
  if (!forgotten.ok && forgotten.status !== 404) throw new Error(await refusal(forgotten));
  return "off" as const;
}

export function PushOptIn() {
  const { t } = useTranslation("pwa");
  const [state, setState] = useState<State>("checking");
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    if (!supported()) return setState("unsupported");
    if (Notification.permission === "denied") return setState("denied");
    let live = true;
    void registration()
      .then((reg) => reg.pushManager.getSubscription())
      .then(
        (subscription) => live && setState(subscription ? "on" : "off"),
        () => live && setState("unsupported"),
      );
    return () => {
      live = false;
    };
  }, []);

  const change = async (to: () => Promise<State>) => {
    setBusy(true);
    setError(null);
    try {
      setState(await to());
    } catch (e) {
      setError(t("push.failed", { reason: e instanceof Error ? e.message : String(e) }));
    } finally {
      setBusy(false);
    }
  };

  const on = state === "on";
  return (
    <section className={styles.box} aria-labelledby="push-heading" data-testid="push-opt-in" data-state={state}>
      <h2 id="push-heading">{t("push.heading")}</h2>
      <p className="muted small">{t("push.explain")}</p>
      {state === "unsupported" || state === "denied" ? (
        <p className="small" role="status">
          {t(`push.${state}`)}
        </p>
      ) : state === "checking" ? null : (
        <div className={`${styles.status} ${on ? styles.on : ""}`}>
          <span className={styles.dot} aria-hidden />
          <span role="status" data-testid="push-status">
            {busy ? t("push.working") : t(on ? "push.on" : "push.off")}
          </span>
          <button
            type="button"
            className={`btn btn-small ${on ? "btn-ghost" : "btn-primary"}`}
            disabled={busy}
            onClick={() => void change(on ? turnOff : turnOn)}
            data-testid="push-toggle"
          >
            {t(on ? "push.turnOff" : "push.turnOn")}
          </button>
        </div>
      )}
      {error ? (
        <p className="alert alert-error" role="alert" data-testid="push-error">
          {error}
        </p>
      ) : null}
    </section>
  );
}
