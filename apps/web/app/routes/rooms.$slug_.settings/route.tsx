import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useNavigation, useSearchParams } from "@remix-run/react";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { FormError, FormNotice } from "../../components/auth-card.tsx";
import { DESIGN_GRADIENTS } from "../../components/room-card.tsx";
import { DJ_TYPES, ROOM_DESIGNS } from "../../lib/room-designs.ts";
import styles from "./room-settings.module.css";
import { loadRoomSettings, saveRoomSettings } from "./room-settings.server.ts";

export const meta: MetaFunction<typeof loader> = ({ data }) => [
  { title: data ? `${data.room.name} · Settings · Booth` : "Booth" },
];
export const loader = ({ request, params }: LoaderFunctionArgs) => loadRoomSettings(request, params.slug ?? "");
export const action = ({ request, params }: ActionFunctionArgs) => saveRoomSettings(request, params.slug ?? "");

export default function RoomSettings() {
  const { t } = useTranslation("rooms");
  const { room, may } = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  const [params] = useSearchParams();
  const busy = useNavigation().state === "submitting";
  const [design, setDesign] = useState<string>(room.design);
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
          <div className="field">
            <label htmlFor="name">{t("new.name")}</label>
            <input id="name" name="name" required minLength={2} maxLength={80} defaultValue={room.name} />
          </div>
          <div className="field">
            <label htmlFor="description">{t("new.description")}</label>
            <textarea id="description" name="description" rows={2} maxLength={2000} defaultValue={room.description} />
          </div>
          <fieldset className="field plain">
            <legend className="label">{t("new.design")}</legend>
            <div className="design-grid">
              {ROOM_DESIGNS.map((d) => (
                <label key={d} className={`design-option ${design === d ? "selected" : ""}`}>
                  <input type="radio" name="design" value={d} checked={design === d} onChange={() => setDesign(d)} />
                  <span className="design-swatch" style={{ background: DESIGN_GRADIENTS[d] }} />
                  <span className="small">{t(`designs.${d}`)}</span>
                </label>
              ))}
            </div>
          </fieldset>
        </fieldset>
        <fieldset className={`stack plain ${styles.group}`} disabled={locked}>
          <legend className="label">{t("settings.booth")}</legend>
          <div className={styles.grid}>
            <div className="field">
              <label htmlFor="numberOfDjs">{t("new.djs")}</label>
              <input
                id="numberOfDjs"
                name="numberOfDjs"
                type="number"
                min={1}
                max={10}
                required
                defaultValue={room.numberOfDjs}
              />
            </div>
            <div className="field">
              <label htmlFor="djType">{t("new.djType")}</label>
              <select id="djType" name="djType" defaultValue={room.djType}>
                {DJ_TYPES.map((d) => (
                  <option key={d} value={d}>
                    {t(`new.djTypes.${d}`)}
                  </option>
                ))}
              </select>
            </div>
            <div className="field">
              <label htmlFor="songsPerDj">{t("settings.songsPerDj")}</label>
              <input
                id="songsPerDj"
                name="songsPerDj"
                type="number"
                min={1}
                max={100}
                placeholder={t("settings.noLimit")}
                defaultValue={room.songsPerDj ?? ""}
              />
            </div>
            <div className="field">
              <label htmlFor="voteSkipPercent">{t("settings.voteSkip")}</label>
              <input
                id="voteSkipPercent"
                name="voteSkipPercent"
                type="number"
                min={1}
                max={100}
                placeholder={t("settings.off")}
                aria-describedby="voteSkipHelp"
                defaultValue={room.voteSkipThreshold === null ? "" : Math.round(room.voteSkipThreshold * 100)}
              />
              <span id="voteSkipHelp" className="small muted">
                {t("settings.voteSkipHelp")}
              </span>
            </div>
            <div className="field">
              <label htmlFor="idleDjMinutes">{t("settings.idleDjMinutes")}</label>
              <input
                id="idleDjMinutes"
                name="idleDjMinutes"
                type="number"
                min={1}
                max={240}
                placeholder={t("settings.off")}
                defaultValue={room.idleDjMinutes ?? ""}
              />
            </div>
          </div>
          <label className="row small">
            <input type="checkbox" name="waitlistEnabled" defaultChecked={room.waitlistEnabled} />
            {t("settings.waitlist")}
          </label>
          {/* The room crate (apps/web/app/routes/rooms.$slug/room-crate-setting.tsx, built on another branch) goes here. */}
        </fieldset>
        {may.entry ? (
          <fieldset className={`stack plain ${styles.group}`} data-testid="entry-settings">
            <legend className="label">{t("settings.entry")}</legend>
            <div className={styles.grid}>
              <div className="field">
                <label htmlFor="type">{t("new.type")}</label>
                <select id="type" name="type" defaultValue={room.type}>
                  <option value="PUBLIC">{t("new.public")}</option>
                  <option value="PRIVATE">{t("new.private")}</option>
                </select>
              </div>
              <div className="field">
                <label htmlFor="password">
                  {room.isPasswordProtected ? t("settings.newPassword") : t("settings.password")}
                </label>
                <input
                  id="password"
                  name="password"
                  type="password"
                  autoComplete="new-password"
                  minLength={4}
                  maxLength={128}
                  disabled={removePassword}
                  aria-describedby="passwordHelp"
                />
                <span id="passwordHelp" className="small muted" data-testid="password-state">
                  {room.isPasswordProtected ? t("settings.hasPassword") : t("settings.noPassword")}
                </span>
              </div>
            </div>
            {room.isPasswordProtected ? (
              <label className="row small">
                <input
                  type="checkbox"
                  name="removePassword"
                  checked={removePassword}
                  onChange={(e) => setRemovePassword(e.target.checked)}
                />
                {t("settings.removePassword")}
              </label>
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
            <div className="field">
              <label htmlFor="guestPassword">
                {room.isGuestPasswordProtected ? t("settings.newGuestPassword") : t("settings.guestPassword")}
              </label>
              <input
                id="guestPassword"
                name="guestPassword"
                type="password"
                autoComplete="new-password"
                minLength={4}
                maxLength={128}
                aria-describedby="guestPasswordHelp"
              />
              <span id="guestPasswordHelp" className="small muted">
                {t("settings.guestPasswordHelp")}
              </span>
            </div>
            {room.isGuestPasswordProtected ? (
              <label className="row small">
                <input type="checkbox" name="removeGuestPassword" />
                {t("settings.removeGuestPassword")}
              </label>
            ) : null}
          </fieldset>
        ) : null}
        {locked ? null : (
          <div className="row">
            <button type="submit" className="btn btn-primary" disabled={busy} data-testid="save-settings">
              {busy ? t("settings.saving") : t("settings.save")}
            </button>
          </div>
        )}
      </Form>
    </section>
  );
}
