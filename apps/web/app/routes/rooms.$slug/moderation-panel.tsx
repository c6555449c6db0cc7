import type { LiveState } from "@booth/sdk/live";
import { useFetcher } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { Avatar } from "../../components/avatar.tsx";
import styles from "./room.module.css";
import { isGuest, personOf, roleOf } from "./room-model.ts";

/** For the room's moderators: pinned messages, the people in the room with their sanctions, clearing the chat. */
export function ModerationPanel({
  state,
  roomUuid,
  viewerUuid,
  onRemoveDj,
}: {
  state: LiveState;
  roomUuid: string;
  viewerUuid: string;
  onRemoveDj: (uuid: string) => void;
}) {
  const { t } = useTranslation("room");
  const fetcher = useFetcher<{ error?: string }>();
  const pins = (state.settings.pinnedMessages as { message?: string }[]).map((p) => p.message ?? "").join("\n");
  const people = state.allUsers.filter((u) => !isGuest(u) && u.uuid !== viewerUuid);
  return (
    <section className="card stack" data-testid="moderation">
      <h2>{t("moderation")}</h2>
      {fetcher.data?.error ? <p className="alert alert-error small">{fetcher.data.error}</p> : null}
      <fetcher.Form method="post" className="stack">
        <input type="hidden" name="intent" value="pin" />
        <input type="hidden" name="roomUuid" value={roomUuid} />
        <label className="label" htmlFor="pins">
          {t("editPins")}
        </label>
        <textarea id="pins" name="pins" rows={2} defaultValue={pins} placeholder={t("pinPlaceholder")} />
        <button type="submit" className="btn btn-small">
          {t("save")}
        </button>
      </fetcher.Form>
      <h3>{t("people")}</h3>
      {people.length === 0 ? (
        <p className="small muted" data-testid="mod-nobody">
          {t("nobodyElse")}
        </p>
      ) : null}
      <ul className={styles.people}>
        {people.map((u) => {
          const person = personOf(state, u.uuid);
          const onStage = state.djs.some((d) => d.uuid === u.uuid);
          const role = roleOf(state, u.uuid);
          return (
            <li key={u.uuid} className={styles.personRow} data-testid="mod-person">
              <Avatar id={person.avatarId} name={person.nickname} color={person.color} size={28} />
              <span className={styles.personName}>
                {person.nickname} {role ? <span className="pill">{role}</span> : null}
              </span>
              <span className={styles.modTools}>
                {onStage ? (
                  <button type="button" className="btn btn-small" onClick={() => onRemoveDj(u.uuid)}>
                    {t("removeDj")}
                  </button>
                ) : null}
                {(
                  [
                    ["role", "chatDisabled", "10", t("mute")],
                    ["role", "djDisabled", "", t("noDj")],
                    ["kick", "", "", t("kick")],
                    ["role", "banned", "", t("ban")],
                  ] as const
                ).map(([intent, role, minutes, label]) => (
                  <fetcher.Form method="post" key={label}>
                    <input type="hidden" name="intent" value={intent} />
                    <input type="hidden" name="roomUuid" value={roomUuid} />
                    <input type="hidden" name="userUuid" value={u.uuid} />
                    <input type="hidden" name="role" value={role} />
                    <input type="hidden" name="minutes" value={minutes} />
                    <button type="submit" className={`btn btn-small ${role === "banned" ? "btn-danger" : ""}`}>
                      {label}
                    </button>
                  </fetcher.Form>
                ))}
              </span>
            </li>
          );
        })}
      </ul>
      <fetcher.Form method="post">
        <input type="hidden" name="intent" value="clear-chat" />
        <input type="hidden" name="roomUuid" value={roomUuid} />
        <button type="submit" className="btn btn-small btn-danger">
          {t("clearChat")}
        </button>
      </fetcher.Form>
    </section>
  );
}
