import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Link, useFetcher, useLoaderData, useRevalidator } from "@remix-run/react";
import { type KeyboardEvent, useEffect, useRef } from "react";
import { useTranslation } from "react-i18next";
import { LocalTime } from "../../components/local-time.tsx";
import { PersonAvatar } from "../../components/person-card.tsx";
import { brandName } from "../../lib/brand.ts";
import { useDirectMessageEvents } from "../../lib/direct-messages.tsx";
import { useRootData } from "../../root.tsx";
import styles from "../messages._index/messages.module.css";
import { loadConversation, sendMessage } from "./messages.server.ts";

export const meta: MetaFunction<typeof loader> = ({ data, matches }) => [
  { title: `${brandName(matches)} · ${data?.profile.nickname ?? "Messages"}` },
];
export const loader = ({ request, params }: LoaderFunctionArgs) => loadConversation(request, params.userUuid);
export const action = ({ request, params }: ActionFunctionArgs) => sendMessage(request, params.userUuid);

/** The longest message the edge takes (its MESSAGE_MAX_LENGTH). */
const MAX_LENGTH = 2000;

export default function ConversationScreen() {
  const { t, i18n } = useTranslation("messages");
  const d = useLoaderData<typeof loader>();
  const root = useRootData();
  const apiUrl = root?.env.apiUrl ?? "";
  const images = root?.avatarImages ?? {};
  const { revalidate } = useRevalidator();
  const name = d.profile.nickname;

  // A message to or from this person, or a stream that came back after a gap: load the page again (which also marks
  // what arrived read, since it is on the screen).
  useDirectMessageEvents((event) => {
    if (d.paged) return;
    if (
      event.type === "reconnected" ||
      (event.type === "message" &&
        (event.message.senderUuid === d.profile.uuid || event.message.recipientUuid === d.profile.uuid))
    )
      revalidate();
  });

  // The newest message in sight: the log scrolls to its end when one arrives.
  const log = useRef<HTMLDivElement>(null);
  const last = d.messages.at(-1)?.id;
  useEffect(() => {
    if (last && !d.paged && log.current) log.current.scrollTop = log.current.scrollHeight;
  }, [last, d.paged]);

  return (
    <section className={styles.conversation}>
      <header className={styles.conversationHeader}>
        <Link to="/messages" className="btn btn-ghost btn-small">
          ← {t("back")}
        </Link>
        <Link to={`/users/${d.profile.uuid}`} className={styles.person}>
          <PersonAvatar person={d.profile} image={images[d.profile.avatarId]} apiUrl={apiUrl} size={36} />
          <h1 className={styles.name}>{name}</h1>
        </Link>
      </header>

      {d.nextBefore ? (
        <Link to={`?before=${d.nextBefore}`} className="btn btn-ghost btn-small" data-testid="older-messages">
          {t("older")}
        </Link>
      ) : null}
      {d.paged ? (
        <Link to="." className="btn btn-ghost btn-small">
          {t("newest")}
        </Link>
      ) : null}

      <div
        ref={log}
        role="log"
        aria-label={t("with", { name })}
        className={styles.log}
        // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrolling region is reached by keyboard to scroll it.
        tabIndex={0}
        data-testid="dm-log"
      >
        {d.messages.length === 0 ? <p className={styles.empty}>{t("noMessagesYet")}</p> : null}
        <ol className={styles.logList}>
          {d.messages.map((m) => {
            const mine = m.senderUuid === d.viewer.uuid;
            return (
              <li key={m.id} className={`${styles.message} ${mine ? styles.mine : styles.theirs}`} data-testid="dm">
                <span className="visually-hidden">{mine ? root?.viewer?.nickname : name}: </span>
                {/* Text, never markup: React writes it as text. */}
                <p className={styles.text}>{m.text}</p>
                <span className={styles.time}>
                  <LocalTime iso={m.createdAt} lang={i18n.language} />
                </span>
              </li>
            );
          })}
        </ol>
      </div>

      {!d.friends ? (
        <p className="alert" role="status">
          {t("notFriends", { name })}
        </p>
      ) : !d.viewer.verified ? (
        <p className="alert" role="status">
          {t("unverified")} <Link to="/verify-email">{t("verifyNow")}</Link>
        </p>
      ) : (
        <SendForm />
      )}
    </section>
  );
}

function SendForm() {
  const { t } = useTranslation("messages");
  const send = useFetcher<typeof action>();
  const form = useRef<HTMLFormElement>(null);
  const input = useRef<HTMLTextAreaElement>(null);
  const sending = send.state !== "idle";
  const error = send.state === "idle" ? send.data?.error : null;
  // Sent: the box empties for the next one and keeps the focus.
  useEffect(() => {
    if (send.state === "idle" && send.data?.sent && form.current) {
      form.current.reset();
      input.current?.focus();
    }
  }, [send.state, send.data]);
  const onKeyDown = (e: KeyboardEvent<HTMLTextAreaElement>) => {
    if (e.key === "Enter" && !e.shiftKey && !e.nativeEvent.isComposing) {
      e.preventDefault();
      if (!sending && e.currentTarget.value.trim()) form.current?.requestSubmit();
    }
  };
  return (
    <send.Form method="post" ref={form} className={styles.sendForm}>
      <label htmlFor="dm-text" className="visually-hidden">
        {t("label")}
      </label>
      <textarea
        id="dm-text"
        ref={input}
        name="text"
        rows={2}
        required
        maxLength={MAX_LENGTH}
        placeholder={t("placeholder")}
        aria-describedby="dm-hint"
        onKeyDown={onKeyDown}
        className={styles.input}
      />
      <button type="submit" className="btn btn-primary" disabled={sending}>
        {sending ? t("sending") : t("send")}
      </button>
      <p id="dm-hint" className={styles.hint}>
        {t("hint")}
      </p>
      {error ? (
        <p className="alert alert-error" role="alert">
          {error}
        </p>
      ) : null}
    </send.Form>
  );
}
