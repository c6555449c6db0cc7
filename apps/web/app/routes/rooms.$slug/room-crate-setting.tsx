import type { LiveState } from "@booth/sdk/live";
import { useFetcher } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { CrateOptions } from "../../components/crate-card.tsx";

/**
 * For the room's owner: the room crate, one of their playlists the room plays in order while nobody DJs (or none).
 * The choice saves at once; what is shown selected is the room's setting as the live room has it.
 */
export function RoomCrateSetting({
  roomUuid,
  state,
  crates,
}: {
  roomUuid: string;
  state: LiveState;
  /** The owner's playlists (their queue and likes cannot be a room crate). */
  crates: { crateUuid: string; crateName: string }[];
}) {
  const { t } = useTranslation("room");
  const fetcher = useFetcher<{ ok?: string; error?: string }>();
  const current = state.settings.roomCrateId ?? "";
  // While the change is on its way, the pick; then the room's setting.
  const shown = fetcher.formData ? String(fetcher.formData.get("roomCrateId") ?? "") : current;
  return (
    <section className="card stack" data-testid="room-crate">
      <h2>📀 {t("roomCrate")}</h2>
      <p className="small muted">{t("roomCrateHelp")}</p>
      <fetcher.Form method="post" className="row">
        <input type="hidden" name="intent" value="room-crate" />
        <input type="hidden" name="roomUuid" value={roomUuid} />
        <select
          name="roomCrateId"
          value={shown}
          data-testid="room-crate-select"
          aria-label={t("roomCrate")}
          disabled={fetcher.state !== "idle"}
          onChange={(e) => fetcher.submit(e.currentTarget.form)}
        >
          <CrateOptions none={t("roomCrateNone")} crates={crates} />
        </select>
      </fetcher.Form>
      {fetcher.state === "idle" && fetcher.data?.error ? (
        <p className="alert alert-error small">{fetcher.data.error}</p>
      ) : null}
      {fetcher.state === "idle" && current ? (
        // Whenever the room has a crate, not only right after the change: the note outlives a remount of the room's
        // layout (a reconnection), which the fetcher's answer does not.
        <p className="small muted" data-testid="room-crate-saved">
          {t(fetcher.data?.ok === "room-crate" ? "roomCrateSaved" : "roomCrateActive")}
        </p>
      ) : null}
    </section>
  );
}
