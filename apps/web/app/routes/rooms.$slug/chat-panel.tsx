import type { ChatMessage, LiveState } from "@booth/sdk/live";
import { Link } from "@remix-run/react";
import { useEffect, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { Avatar } from "../../components/avatar.tsx";
import { SongArt } from "../../components/song-row.tsx";
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
  apiUrl,
  onSend,
  onEdit,
  onDelete,
  onReact,
  onShareSong,
  onAnimate,
}: {
  state: LiveState;
  chat: ChatMessage[];
  clockOffset: number;
  viewer: { uuid: string; nickname: string } | null;
  canModerate: boolean;
  mustVerify: boolean;
  /** The edge's address, for the artwork of songs shared in the chat. */
  apiUrl: string;
  /** `replyTo`: the id of the message answered. */
  onSend: (text: string, replyTo?: string) => Promise<string | null>;
  onEdit: (id: string, text: string) => Promise<string | null>;
  onDelete: (id: string) => void;
  /** Adds (`on`) or takes back the viewer's reaction to a message. */
  onReact: (id: string, emoji: string, on: boolean) => void;
  /** Shares the song playing in the chat (the room shows it as the catalogue has it). */
  onShareSong: (songId: string) => Promise<string | null>;
  onAnimate: (animation: "emoji" | "jump", emoji?: string) => void;
}) {
  const { t } = useTranslation("room");
  const [text, setText] = useState("");
  const [editing, setEditing] = useState<{ id: string; text: string } | null>(null);
  const [replying, setReplying] = useState<ChatMessage | null>(null);
  const [reactingTo, setReactingTo] = useState<string | null>(null);
  const input = useRef<HTMLInputElement>(null);
  const [error, setError] = useState<string | null>(null);
  const [now, setNow] = useState(() => Date.now());
  const list = useRef<HTMLDivElement>(null);
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
    const failed = await onSend(message, replying?.id);
    setError(failed);
    if (!failed) {
      setText("");
      setReplying(null);
    }
  };
  const playing = state.nowPlaying?.song;
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
      <div
        className={styles.messages}
        ref={list}
        data-testid="chat-messages"
        role="log"
        aria-live="polite"
        aria-label={t("chat")}
      >
        {chat.length === 0 ? <p className="muted small">{t("chatEmpty")}</p> : null}
        {chat.map((m, i) => {
          const group = startsGroup(chat, i);
          const mentionsMe = viewer ? m.mentions.includes(viewer.uuid) : false;
          return (
            <div
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
                <>
                  {m.replyTo ? (
                    <p className={styles.replyQuote} data-testid="chat-reply-quote">
                      <span aria-hidden="true">↩ </span>
                      <span className="visually-hidden">{t("replyingTo")} </span>
                      <strong>{m.replyTo.userName}</strong> {m.replyTo.excerpt}
                    </p>
                  ) : null}
                  <p className={styles.messageText} data-testid="chat-text">
                    {chatParts(m.message, names, viewer).map((part, k) =>
                      "mention" in part ? (
                        // biome-ignore lint/suspicious/noArrayIndexKey: parts of one message never move
                        <mark key={k} className={part.self ? styles.mentionSelf : styles.mention}>
                          {part.mention}
                        </mark>
                      ) : "link" in part ? (
                        // An http(s) address the sender wrote: a plain link, opened elsewhere, never fetched or
                        // previewed here (nothing a sender writes becomes something another browser loads itself).
                        <a
                          // biome-ignore lint/suspicious/noArrayIndexKey: parts of one message never move
                          key={k}
                          href={part.link}
                          target="_blank"
                          rel="noopener noreferrer nofollow ugc"
                          className={styles.chatLink}
                          data-testid="chat-link"
                        >
                          {part.text}
                        </a>
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
                      {viewer && !mustVerify ? (
                        <>
                          <button
                            type="button"
                            data-testid="chat-reply"
                            onClick={() => {
                              setReplying(m);
                              input.current?.focus();
                            }}
                          >
                            {t("reply")}
                          </button>
                          <button
                            type="button"
                            data-testid="chat-react"
                            aria-expanded={reactingTo === m.id}
                            onClick={() => setReactingTo(reactingTo === m.id ? null : m.id)}
                          >
                            {t("reactTo")}
                          </button>
                        </>
                      ) : null}
                    </span>
                  </p>
                  {m.songs.map((song, k) => (
                    <div
                      // biome-ignore lint/suspicious/noArrayIndexKey: a message's songs never move
                      key={k}
                      className={styles.songCard}
                      data-testid="chat-song"
                    >
                      <SongArt song={{ ...song, songId: song.songId ?? song.trackName }} apiUrl={apiUrl} size={40} />
                      <span>
                        <strong>{song.trackName}</strong>
                        <br />
                        <span className="small muted">{song.artistName}</span>
                      </span>
                    </div>
                  ))}
                  {reactingTo === m.id ? (
                    <fieldset className={styles.reactions} data-testid="chat-react-picker">
                      <legend className="visually-hidden">{t("reactTo")}</legend>
                      {EMOJIS.map((emoji) => (
                        <button
                          key={emoji}
                          type="button"
                          onClick={() => {
                            setReactingTo(null);
                            const mine = m.reactions
                              ?.find((r) => r.emoji === emoji)
                              ?.userUuids.includes(viewer?.uuid ?? "");
                            onReact(m.id, emoji, !mine);
                          }}
                        >
                          {emoji}
                        </button>
                      ))}
                    </fieldset>
                  ) : null}
                  {m.reactions?.length ? (
                    <div className={styles.reactions} data-testid="chat-reactions">
                      {m.reactions.map((r) => {
                        const mine = viewer ? r.userUuids.includes(viewer.uuid) : false;
                        return (
                          <button
                            key={r.emoji}
                            type="button"
                            className={mine ? styles.reactionMine : undefined}
                            aria-pressed={mine}
                            aria-label={t("reactionCount", { emoji: r.emoji, count: r.userUuids.length })}
                            disabled={!viewer || mustVerify}
                            onClick={() => onReact(m.id, r.emoji, !mine)}
                            data-testid="chat-reaction"
                          >
                            {r.emoji} {r.userUuids.length}
                          </button>
                        );
                      })}
                    </div>
                  ) : null}
                </>
              )}
            </div>
          );
        })}
      </div>
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
          {replying ? (
            <p className={`${styles.replyQuote} ${styles.replying}`} data-testid="chat-replying">
              {t("replyingTo")} <strong>{replying.userName}</strong>
              <button type="button" className="btn btn-ghost btn-small" onClick={() => setReplying(null)}>
                {t("cancel")}
              </button>
            </p>
          ) : null}
          <input
            ref={input}
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
          {playing?.songId && !mustVerify ? (
            // Beside the reactions, not in the message's row: the message field keeps its width.
            <button
              type="button"
              data-testid="chat-share-song"
              onClick={async () => setError(await onShareSong(playing.songId ?? ""))}
            >
              ♪ {t("shareSong")}
            </button>
          ) : null}
        </div>
      ) : null}
    </section>
  );
}
