import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useNavigation, useSearchParams } from "@remix-run/react";
import { type ComponentProps, useState } from "react";
import { useTranslation } from "react-i18next";
import { CheckboxField, InputField, SubmitRow } from "../../components/field.tsx";
import { FormError, FormNotice } from "../../components/form-alert.tsx";
import { DjSeatsField, DjTypeField, RoomLookFields, RoomTypeField } from "../../components/room-fields.tsx";
import { brandName } from "../../lib/brand.ts";
import styles from "./room-settings.module.css";
import { loadRoomSettings, saveRoomSettings } from "./room-settings.server.ts";

export const meta: MetaFunction<typeof loader> = ({ data, matches }) => [
  { title: data ? `${data.room.name} · Settings · ${brandName(matches)}` : brandName(matches) },
];
export const loader = ({ request, params }: LoaderFunctionArgs) => loadRoomSettings(request, params.slug ?? "");
export const action = ({ request, params }: ActionFunctionArgs) => saveRoomSettings(request, params.slug ?? "");

type InputFieldProps = ComponentProps<typeof InputField>;

/**
 * A limit the room may go without: a whole number from 1 to `max`, or empty for none (`none` says what that means,
 * as the placeholder).
 */
function LimitField({
  max,
  none,
  value,
  ...field
}: Pick<InputFieldProps, "name" | "label" | "hint" | "aria-describedby"> & {
  max: number;
  none: string;
  value: number | null;
}) {
  return <InputField {...field} type="number" min={1} max={max} placeholder={none} defaultValue={value ?? ""} />;
}

/** A new password for the room or for its guests, 4 to 128 characters as the room service takes them. */
function RoomPasswordField(props: Omit<InputFieldProps, "type" | "autoComplete" | "minLength" | "maxLength">) {
  return <InputField {...props} type="password" autoComplete="new-password" minLength={4} maxLength={128} />;
}

export default function RoomSettings() {
  const { t } = useTranslation("rooms");
  const { room, may } = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  const [params] = useSearchParams();
  const busy = useNavigation().state === "submitting";
  const [removePassword, setRemovePassword] = useState(false);
  const back = (
    <Link to={`/rooms/${room.slug}`} className="btn btn-ghost btn-small" data-testid="back-to-room">
      ← {t("settings.back")}
    </Link>
  );
  if (!may.read)
    return (
      <section className={`card stack ${styles.page}`}>
        <h1>{t("settings.title")}</h1>
        <p className="alert alert-error" role="alert" data-testid="settings-refused">
          {t("settings.notYours")}
        </p>
        {back}
      </section>
    );
  const locked = !may.play;
  return (
    <section className={`card stack ${styles.page}`} data-testid="room-settings">
      <div className="row">
        {back}
        <div>
          <h1>{t("settings.title")}</h1>
          <p className="muted small">{room.name}</p>
        </div>
      </div>
      {locked ? (
        <p className="alert" data-testid="settings-read-only">
          {t("settings.readOnly")}
        </p>
      ) : null}
      {params.get("saved") && !result ? <FormNotice notice={t("settings.saved")} /> : null}
      <Form method="post" className="stack" replace>
        <FormError error={result?.error} />
        <fieldset className={`stack plain ${styles.group}`} disabled={locked}>
          <legend className="label">{t("settings.looks")}</legend>
          <RoomLookFields values={room} nameMax={80} descriptionMax={2000} />
        </fieldset>
        <fieldset className={`stack plain ${styles.group}`} disabled={locked}>
          <legend className="label">{t("settings.booth")}</legend>
          <div className={styles.grid}>
            <DjSeatsField defaultValue={room.numberOfDjs} required />
            <DjTypeField defaultValue={room.djType} />
            <LimitField
              name="songsPerDj"
              label={t("settings.songsPerDj")}
              max={100}
              none={t("settings.noLimit")}
              value={room.songsPerDj}
            />
            <LimitField
              name="voteSkipPercent"
              label={t("settings.voteSkip")}
              hint={t("settings.voteSkipHelp")}
              aria-describedby="voteSkipHelp"
              max={100}
              none={t("settings.off")}
              value={room.voteSkipThreshold === null ? null : Math.round(room.voteSkipThreshold * 100)}
            />
            <LimitField
              name="idleDjMinutes"
              label={t("settings.idleDjMinutes")}
              max={240}
              none={t("settings.off")}
              value={room.idleDjMinutes}
            />
          </div>
          <CheckboxField name="waitlistEnabled" defaultChecked={room.waitlistEnabled} label={t("settings.waitlist")} />
          {/* The room crate (apps/web/app/routes/rooms.$slug/room-crate-setting.tsx, built on another branch) goes here. */}
        </fieldset>
        {may.entry ? (
          <fieldset className={`stack plain ${styles.group}`} data-testid="entry-settings">
            <legend className="label">{t("settings.entry")}</legend>
            <div className={styles.grid}>
              <RoomTypeField defaultValue={room.type} />
              <RoomPasswordField
                name="password"
                label={room.isPasswordProtected ? t("settings.newPassword") : t("settings.password")}
                hint={room.isPasswordProtected ? t("settings.hasPassword") : t("settings.noPassword")}
                hintTestId="password-state"
                disabled={removePassword}
                aria-describedby="passwordHelp"
              />
            </div>
            {room.isPasswordProtected ? (
              <CheckboxField
                name="removePassword"
                checked={removePassword}
                onChange={(e) => setRemovePassword(e.target.checked)}
                label={t("settings.removePassword")}
              />
            ) : null}
          </fieldset>
        ) : (
          <p className="small muted" data-testid="entry-owner-only">
            {t("settings.entryOwnerOnly")}
          </p>
        )}
        {may.guestPassword ? (
          <fieldset className={`stack plain ${styles.group}`} data-testid="guest-password-settings">
            <legend className="label">{t("settings.guestPassword")}</legend>
            <RoomPasswordField
              name="guestPassword"
              label={room.isGuestPasswordProtected ? t("settings.newGuestPassword") : t("settings.guestPassword")}
              hint={t("settings.guestPasswordHelp")}
              aria-describedby="guestPasswordHelp"
            />
            {room.isGuestPasswordProtected ? (
              <CheckboxField name="removeGuestPassword" label={t("settings.removeGuestPassword")} />
            ) : null}
          </fieldset>
        ) : null}
        {locked ? null : (
          <SubmitRow busy={busy} testId="save-settings">
            {busy ? t("settings.saving") : t("settings.save")}
          </SubmitRow>
        )}
      </Form>
    </section>
  );
}
