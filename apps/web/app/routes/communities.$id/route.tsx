import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useNavigation, useSearchParams } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { CardSection } from "../../components/card-section.tsx";
import styles from "../../components/communities.module.css";
import { CheckboxField, DescriptionField, NameField, SelectField, SubmitRow } from "../../components/field.tsx";
import { FormError, FormNotice } from "../../components/form-alert.tsx";
import { LinkItem } from "../../components/link-item.tsx";
import { brandName, brandTitle } from "../../lib/brand.ts";
import { changeCommunity, loadCommunity } from "./community.server.ts";

export const meta: MetaFunction<typeof loader> = ({ data, matches }) => [
  { title: data?.community ? `${data.community.name} · ${brandName(matches)}` : brandTitle(matches, "Communities") },
];
export const loader = ({ request, params }: LoaderFunctionArgs) => loadCommunity(request, params.id ?? "");
export const action = ({ request, params }: ActionFunctionArgs) => changeCommunity(request, params.id ?? "");

/** A form of one button that posts an intent (and the fields it names) to this page's action. */
function IntentButton({
  intent,
  fields = {},
  label,
  text,
  className = "btn btn-ghost btn-small",
  testId,
}: {
  intent: string;
  fields?: Record<string, string>;
  label?: string;
  text: string;
  className?: string;
  testId?: string;
}) {
  const busy = useNavigation().state === "submitting";
  return (
    <Form method="post" replace preventScrollReset>
      <input type="hidden" name="intent" value={intent} />
      {Object.entries(fields).map(([name, value]) => (
        <input key={name} type="hidden" name={name} value={value} />
      ))}
      <button type="submit" className={className} disabled={busy} aria-label={label} data-testid={testId}>
        {text}
      </button>
    </Form>
  );
}

export default function CommunityPage() {
  const { t } = useTranslation("communities");
  const { community, rooms, members, myRooms, may, refused } = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  const [params] = useSearchParams();
  const busy = useNavigation().state === "submitting";
  const back = (
    <Link to="/communities" className="btn btn-ghost btn-small">
      ← {t("back")}
    </Link>
  );
  if (!community || !may)
    return (
      <section className={`card stack ${styles.page}`}>
        <h1>{t("title")}</h1>
        <p className="alert alert-error" role="alert" data-testid="community-refused">
          {refused}
        </p>
        {back}
      </section>
    );
  return (
    <div className={`stack ${styles.page}`} data-testid="community">
      <div>{back}</div>
      <section className="hero">
        <div className="stack">
          <h1>{community.name}</h1>
          {community.description ? <p>{community.description}</p> : null}
          <p className="small muted" data-testid="community-counts">
            {t("members", { count: community.memberCount })} · {t("rooms", { count: community.roomCount })} ·{" "}
            {community.isPublic ? t("public") : t("private")}
          </p>
        </div>
        <div className={styles.actions}>
          {may.join ? (
            <IntentButton intent="join" text={t("join")} className="btn btn-primary" testId="join-community" />
          ) : null}
          {may.leave ? (
            <>
              <span className="pill">{t("joined")}</span>
              <IntentButton intent="leave" text={t("leave")} testId="leave-community" />
            </>
          ) : null}
        </div>
      </section>
      <FormError error={result?.error} />
      {result?.notice ? (
        <FormNotice
          notice={
            result.notice === "joined"
              ? t("joinedNotice", { name: community.name })
              : result.notice === "left"
                ? t("leftNotice", { name: community.name })
                : t(result.notice)
          }
        />
      ) : params.get("created") ? (
        <FormNotice notice={t("created")} />
      ) : null}
      {may.runsIt ? (
        <p className="small muted" data-testid="runs-it">
          {t("youRunIt")}
        </p>
      ) : null}

      <section className="stack" aria-labelledby="rooms-title">
        <h2 id="rooms-title">{t("roomsTitle")}</h2>
        {rooms.length === 0 ? <p className="empty">{t("roomsEmpty")}</p> : null}
        <ul className={`plain-list ${styles.list}`} data-testid="community-rooms">
          {rooms.map((r) => (
            <LinkItem key={r.uuid} to={`/rooms/${r.slug}`} name={r.name} detail={r.description}>
              {r.removable ? (
                <IntentButton
                  intent="removeRoom"
                  fields={{ roomUuid: r.uuid }}
                  text={t("remove")}
                  label={t("removeRoom", { name: r.name })}
                  testId="remove-room"
                />
              ) : null}
            </LinkItem>
          ))}
        </ul>
        {myRooms.length ? (
          <Form method="post" replace preventScrollReset className={styles.inline} data-testid="add-room">
            <input type="hidden" name="intent" value="addRoom" />
            <SelectField id="add-room" name="roomUuid" label={t("addRoom")} required>
              {myRooms.map((r) => (
                <option key={r.uuid} value={r.uuid}>
                  {r.name}
                </option>
              ))}
            </SelectField>
            <button type="submit" className="btn btn-small" disabled={busy} data-testid="add-room-submit">
              {t("add")}
            </button>
          </Form>
        ) : null}
      </section>

      <section className="stack" aria-labelledby="members-title">
        <h2 id="members-title">{t("membersTitle")}</h2>
        {members.length === 0 ? <p className="empty">{t("membersEmpty")}</p> : null}
        <ul className={`plain-list ${styles.list}`} data-testid="community-members">
          {members.map((m) => (
            <li key={m.userUuid} className={`card ${styles.item}`}>
              <Link to={`/users/${m.userUuid}`} className={styles.name}>
                {m.nickname ?? t("anonymous")}
              </Link>
              {may.manage ? (
                <IntentButton
                  intent="removeMember"
                  fields={{ userUuid: m.userUuid }}
                  text={t("remove")}
                  label={t("removeMember", { name: m.nickname ?? t("anonymous") })}
                  testId="remove-member"
                />
              ) : null}
            </li>
          ))}
        </ul>
      </section>

      {/* Only the platform's admins change a community (PATCH /admin/communities/{id}); its own admin does not. */}
      {may.edit ? (
        <CardSection id="edit-title" title={t("edit")} help={t("editHelp")} testId="edit-community">
          <Form method="post" replace className="stack" key={community.updatedAt}>
            <input type="hidden" name="intent" value="edit" />
            <NameField id="community-name" label={t("name")} maxLength={80} defaultValue={community.name} />
            <DescriptionField
              id="community-description"
              label={t("description")}
              rows={3}
              maxLength={2000}
              defaultValue={community.description}
            />
            <CheckboxField name="isPublic" defaultChecked={community.isPublic} label={t("isPublic")} />
            <SubmitRow busy={busy} testId="save-community">
              {busy ? t("saving") : t("save")}
            </SubmitRow>
          </Form>
        </CardSection>
      ) : null}
    </div>
  );
}
