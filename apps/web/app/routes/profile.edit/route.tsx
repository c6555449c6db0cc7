import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { NicknameField } from "../../components/auth-card.tsx";
import { InputField, SubmitRow, TextAreaField } from "../../components/field.tsx";
import { FormError } from "../../components/form-alert.tsx";
import { PersonAvatar } from "../../components/person-card.tsx";
import { PushOptIn } from "../../components/push-opt-in.tsx";
import { forgetting } from "../../components/stale-cache.ts";
import { brandTitle } from "../../lib/brand.ts";
import { useRootData } from "../../root.tsx";
import styles from "./edit-profile.module.css";
import { loadOwnProfile, saveProfile } from "./edit-profile.server.ts";

export const meta: MetaFunction = ({ matches }) => [{ title: brandTitle(matches, "Edit profile") }];
export const loader = ({ request }: LoaderFunctionArgs) => loadOwnProfile(request);
export const action = ({ request }: ActionFunctionArgs) => saveProfile(request);
export const clientAction = forgetting("/users");

/** Colours a profile may take (any #rrggbb is accepted by the edge; these are the ones offered). */
const COLOURS = ["#8b5cf6", "#ec4899", "#ef4444", "#f97316", "#eab308", "#22c55e", "#14b8a6", "#0ea5e9", "#6366f1"];

export default function EditProfile() {
  const { t } = useTranslation("profile");
  const { profile, avatars } = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  const apiUrl = useRootData()?.env.apiUrl ?? "";
  const busy = useNavigation().state === "submitting";
  const values = result?.values;
  const [color, setColor] = useState(values?.color || profile.color);
  const [avatarId, setAvatarId] = useState(values?.avatarId || profile.avatarId);
  const [nickname, setNickname] = useState(values?.nickname ?? profile.nickname);
  const chosen = avatars.find((a) => a.slug === avatarId);
  return (
    <section className={`card stack ${styles.page}`}>
      <div className="row">
        <PersonAvatar
          person={{ ...profile, nickname, color, avatarId }}
          image={chosen?.imageUrl}
          apiUrl={apiUrl}
          size={72}
        />
        <div>
          <h1>{t("editTitle")}</h1>
          <p className="muted small">{t("editSubtitle")}</p>
        </div>
      </div>
      <Form method="post" className="stack">
        <FormError error={result?.error} />
        <NicknameField label={t("nickname")} required value={nickname} onChange={(e) => setNickname(e.target.value)} />
        <TextAreaField
          name="bio"
          label={t("bio")}
          rows={3}
          maxLength={1000}
          defaultValue={values?.bio ?? profile.bio ?? ""}
        />
        <div className="row" style={{ alignItems: "flex-start" }}>
          <InputField
            name="pronoun"
            label={t("pronoun")}
            fieldStyle={{ flex: 1 }}
            maxLength={32}
            defaultValue={values?.pronoun ?? profile.pronoun ?? ""}
          />
          <InputField
            name="songOfTheWeek"
            label={t("songOfTheWeek")}
            fieldStyle={{ flex: 2 }}
            maxLength={200}
            defaultValue={values?.songOfTheWeek ?? profile.songOfTheWeek ?? ""}
          />
        </div>
        <fieldset className="field plain">
          <legend className="label">{t("color")}</legend>
          <div className={styles.swatches}>
            {COLOURS.map((c) => (
              <label
                key={c}
                className={`${styles.swatch} ${color.toLowerCase() === c ? styles.selected : ""}`}
                style={{ background: c }}
                title={c}
              >
                <input
                  type="radio"
                  name="color"
                  value={c}
                  checked={color.toLowerCase() === c}
                  onChange={() => setColor(c)}
                />
              </label>
            ))}
            {!COLOURS.includes(color.toLowerCase()) ? <input type="hidden" name="color" value={color} /> : null}
          </div>
        </fieldset>
        <fieldset className="field plain">
          <legend className="label">{t("avatar")}</legend>
          {avatars.length ? (
            <div className={styles.avatars} data-testid="avatar-choices">
              {avatars.map((a) => (
                <label
                  key={a.slug}
                  className={`${styles.avatar} ${avatarId === a.slug ? styles.selected : ""}`}
                  data-testid="avatar-choice"
                >
                  <input
                    type="radio"
                    name="avatarId"
                    value={a.slug}
                    checked={avatarId === a.slug}
                    onChange={() => setAvatarId(a.slug)}
                  />
                  <PersonAvatar
                    person={{ uuid: a.slug, nickname: a.name, color, avatarId: a.slug }}
                    image={a.imageUrl}
                    apiUrl={apiUrl}
                    size={56}
                  />
                  <span className="small">{a.name}</span>
                  {a.avatarStatus !== "PUBLIC" ? (
                    <span className="pill">{t(`avatarStatus.${a.avatarStatus}`)}</span>
                  ) : null}
                </label>
              ))}
            </div>
          ) : (
            <p className="muted small">{t("noAvatars")}</p>
          )}
          <Link to="/avatars" className="small">
            {t("allAvatars")}
          </Link>
        </fieldset>
        <SubmitRow busy={busy} testId="save-profile">
          {t("save")}
        </SubmitRow>
      </Form>
      <PushOptIn />
      <p>
        <Link to="/profile/connections" data-testid="connections-link">
          🔗 {t("connectionsLink")}
        </Link>
      </p>
    </section>
  );
}
