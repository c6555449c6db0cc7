import type { LiveState, RoomRole } from "@booth/sdk/live";
import { Link, useFetcher } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { Avatar } from "../../components/avatar.tsx";
import styles from "./room.module.css";
import { isGuest, personOf, roleOf } from "./room-model.ts";

/** For the room's moderators: pinned messages, the people in the room with their sanctions, clearing the chat. */
/** One sanction in force, with the button that lifts it. */
function SanctionPill({ sanction, roomUuid }: { sanction: RoomRole; roomUuid: string }) {
  const { t } = useTranslation("room");
  const lift = useFetcher<{ error?: string }>();
  const until = sanction.expirationTime
    ? new Date(sanction.expirationTime).toLocaleTimeString([], { hour: "2-digit", minute: "2-digit" })
    : null;
  return (
    <lift.Form method="post" className={styles.sanction} data-testid="mod-sanction" data-role={sanction.role}>
      <input type="hidden" name="intent" value="lift" />
      <input type="hidden" name="roomUuid" value={roomUuid} />
      <input type="hidden" name="userUuid" value={sanction.userUuid} />
      <input type="hidden" name="role" value={sanction.role} />
      <span className="pill">
        {t(`sanction.${sanction.role}`, { defaultValue: sanction.role })}
        {until ? ` ${t("until", { time: until })}` : ""}
      </span>
      <button type="submit" className="btn btn-ghost btn-small" disabled={lift.state !== "idle"}>
        {t("lift")}
      </button>
    </lift.Form>
  );
}

export function ModerationPanel({
  state,
  sanctions,
  roomUuid,
  viewerUuid,
  onRemoveDj,
}: {
  state: LiveState;
  /** The room's sanctions in force (a moderator sees them all). */
  sanctions: RoomRole[];
  roomUuid: string;
  viewerUuid: string;
  onRemoveDj: (uuid: string) => void;
}) {
  const { t } = useTranslation("room");
  const fetcher = useFetcher<{ error?: string }>();
  const pins = (state.settings.pinnedMessages as { message?: string }[]).map((p) => p.message ?? "").join("\n");
  const people = state.allUsers.filter((u) => !isGuest(u) && u.uuid !== viewerUuid);
  const now = Date.now();
  const inForce = sanctions.filter((r) => r.expirationTime === null || Date.parse(r.expirationTime) > now);
  const present = new Set(people.map((u) => u.uuid));
  const away = [...new Set(inForce.map((r) => r.userUuid))].filter((uuid) => !present.has(uuid));
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
      <ul className="plain-list">
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
              {inForce
                .filter((r) => r.userUuid === u.uuid)
                .map((r) => (
                  <SanctionPill key={r.role} sanction={r} roomUuid={roomUuid} />
                ))}
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
      {away.length ? (
        <>
          <h3>{t("sanctionedAway")}</h3>
          <ul className="plain-list">
            {away.map((uuid) => (
              <li key={uuid} className={styles.personRow} data-testid="mod-away">
                <Link to={`/users/${uuid}`} className={styles.personName}>
                  {t("profileOf")}
                </Link>
                {inForce
                  .filter((r) => r.userUuid === uuid)
                  .map((r) => (
                    <SanctionPill key={r.role} sanction={r} roomUuid={roomUuid} />
                  ))}
              </li>
            ))}
          </ul>
        </>
      ) : null}
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
