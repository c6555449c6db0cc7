import type { ChatMessage, LiveState } from "@booth/sdk/live";
import { Link } from "@remix-run/react";
import { useEffect, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { Avatar } from "../../components/avatar.tsx";
import { chatParts, editableMessage, startsGroup } from "../../lib/live/chat.ts";
import styles from "./room.module.css";
import { namesOf } from "./room-model.ts";

const EMOJIS = ["🔥", "🎉", "😍", "👏", "💃", "🤘"];

export function ChatPanel({
  state,
  chat,
  clockOffset,
  viewer,
  canModerate,
  mustVerify,
  onSend,
  onEdit,
  onDelete,
  onAnimate,
}: {
  state: LiveState;
  chat: ChatMessage[];
  clockOffset: number;
  viewer: { uuid: string; nickname: string } | null;
  canModerate: boolean;
  mustVerify: boolean;
  onSend: (text: string) => Promise<string | null>;
  onEdit: (id: string, text: string) => Promise<string | null>;
  onDelete: (id: string) => void;
  onAnimate: (animation: "emoji" | "jump", emoji?: string) => void;
}) {
  const { t } = useTranslation("room");
  const [text, setText] = useState("");
  const [editing, setEditing] = useState<{ id: string; text: string } | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [now, setNow] = useState(() => Date.now());
  const list = useRef<HTMLOListElement>(null);
  const names = namesOf(state);
  useEffect(() => {
    const id = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(id);
  }, []);
  // biome-ignore lint/correctness/useExhaustiveDependencies: scroll when a message arrives
  useEffect(() => {
    list.current?.scrollTo({ top: list.current.scrollHeight });
  }, [chat.length]);
  const editable = editableMessage(chat, viewer?.uuid, now + clockOffset);
  const send = async (event: React.FormEvent) => {
    event.preventDefault();
    const message = text.trim();
    if (!message) return;
    const failed = await onSend(message);
    setError(failed);
    if (!failed) setText("");
  };
  const saveEdit = async (event: React.FormEvent) => {
    event.preventDefault();
    if (!editing) return;
    const failed = await onEdit(editing.id, editing.text.trim());
    setError(failed);
    if (!failed) setEditing(null);
  };
  return (
    <section className={`${styles.chat} card`} data-testid="chat">
      <h2>{t("chat")}</h2>
      <ol className={styles.messages} ref={list} data-testid="chat-messages">
        {chat.length === 0 ? <li className="muted small">{t("chatEmpty")}</li> : null}
        {chat.map((m, i) => {
          const group = startsGroup(chat, i);
          const mentionsMe = viewer ? m.mentions.includes(viewer.uuid) : false;
          return (
            <li
              key={m.id}
              className={`${styles.message} ${group ? styles.messageFirst : ""} ${mentionsMe ? styles.mentioned : ""}`}
              data-testid="chat-message"
              data-author={m.userUuid}
            >
              {group ? (
                <div className={styles.messageHead}>
                  <Avatar id={m.avatarId} name={m.userName} color={m.color} size={24} />
                  <strong style={{ color: m.color }}>
                    <Link to={`/users/${m.userUuid}`} className={styles.nameLink} data-testid="profile-link">
                      {m.userName}
                    </Link>
                  </strong>
                  <time className="small muted">
                    {new Date(m.date).toLocaleTimeString([], { hour: "2-digit", minute: "2-digit" })}
                  </time>
                </div>
              ) : null}
              {editing?.id === m.id ? (
                <form onSubmit={saveEdit} className="row">
                  <input
                    value={editing.text}
                    onChange={(e) => setEditing({ id: m.id, text: e.target.value })}
                    maxLength={2000}
                    aria-label={t("edit")}
                    data-testid="chat-edit-input"
                  />
                  <button type="submit" className="btn btn-small">
                    {t("save")}
                  </button>
                  <button type="button" className="btn btn-ghost btn-small" onClick={() => setEditing(null)}>
                    {t("cancel")}
                  </button>
                </form>
              ) : m.type === "consumable" && m.consumable ? (
                // A consumable someone bought for the room: an announcement, not text to edit.
                <p className={`${styles.messageText} ${styles.consumable}`} data-testid="chat-consumable">
                  <span aria-hidden="true">✦ </span>
                  {t("sentConsumable", { name: m.consumable.name })}
                </p>
              ) : (
                <p className={styles.messageText} data-testid="chat-text">
                  {chatParts(m.message, names, viewer).map((part, k) =>
                    "mention" in part ? (
                      // biome-ignore lint/suspicious/noArrayIndexKey: parts of one message never move
                      <mark key={k} className={part.self ? styles.mentionSelf : styles.mention}>
                        {part.mention}
                      </mark>
                    ) : (
                      // biome-ignore lint/suspicious/noArrayIndexKey: parts of one message never move
                      <span key={k}>{part.text}</span>
                    ),
                  )}
                  {m.editedAt ? <span className="small muted"> ({t("edited")})</span> : null}
                  <span className={styles.messageTools}>
                    {editable?.id === m.id ? (
                      <button type="button" onClick={() => setEditing({ id: m.id, text: m.message })}>
                        {t("edit")}
                      </button>
                    ) : null}
                    {m.userUuid === viewer?.uuid || canModerate ? (
                      <button type="button" onClick={() => onDelete(m.id)}>
                        {t("delete")}
                      </button>
                    ) : null}
                  </span>
                </p>
              )}
            </li>
          );
        })}
      </ol>
      {error ? <p className="alert alert-error small">{error}</p> : null}
      {!viewer ? (
        <p className="small muted">
          <Link to="/login">{t("chatGuests")}</Link>
        </p>
      ) : mustVerify ? (
        <p className="small muted">
          <Link to="/verify-email">{t("chatNeedsVerified")}</Link>
        </p>
      ) : (
        <form onSubmit={send} className={styles.chatForm}>
          <input
            value={text}
            onChange={(e) => setText(e.target.value)}
            placeholder={t("chatPlaceholder")}
            title={t("chatHint")}
            maxLength={2000}
            aria-label={t("chat")}
            data-testid="chat-input"
          />
          <button type="submit" className="btn btn-primary btn-small" data-testid="chat-send">
            {t("send")}
          </button>
        </form>
      )}
      {viewer ? (
        <div className={styles.reactions} title={t("react")}>
          {EMOJIS.map((emoji) => (
            <button key={emoji} type="button" onClick={() => onAnimate("emoji", emoji)}>
              {emoji}
            </button>
          ))}
          <button type="button" onClick={() => onAnimate("jump")}>
            ⤴ {t("jump")}
          </button>
        </div>
      ) : null}
    </section>
  );
}
