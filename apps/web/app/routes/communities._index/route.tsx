import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Form, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { CardSection } from "../../components/card-section.tsx";
import styles from "../../components/communities.module.css";
import { CheckboxField, DescriptionField, InputField, NameField, SubmitRow } from "../../components/field.tsx";
import { FormError, FormNotice } from "../../components/form-alert.tsx";
import { LinkItem } from "../../components/link-item.tsx";
import { PageHero } from "../../components/page-hero.tsx";
import { brandTitle } from "../../lib/brand.ts";
import { changeCommunities, loadCommunities } from "./communities.server.ts";

export const meta: MetaFunction = ({ matches }) => [{ title: brandTitle(matches, "Communities") }];
export const loader = ({ request }: LoaderFunctionArgs) => loadCommunities(request);
export const action = ({ request }: ActionFunctionArgs) => changeCommunities(request);

export default function Communities() {
  const { t } = useTranslation("communities");
  const { mine, all, error, may } = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  const busy = useNavigation().state === "submitting";
  return (
    <div className={`stack ${styles.page}`}>
      <PageHero title={t("title")} subtitle={t("subtitle")} />
      <FormError error={result?.error ?? error} />
      {result?.notice ? <FormNotice notice={t("leftNotice", { name: result.notice.left })} /> : null}
      <section className="stack" aria-labelledby="mine-title">
        <h2 id="mine-title">{t("mine")}</h2>
        {mine.length === 0 ? (
          <p className="empty" data-testid="no-communities">
            {t("mineEmpty")}
          </p>
        ) : (
          <ul className={`plain-list ${styles.list}`} data-testid="my-communities">
            {mine.map((c) => (
              <LinkItem
                key={c.id}
                to={`/communities/${c.slug}`}
                name={c.name}
                detail={
                  <>
                    {t("members", { count: c.memberCount })} · {t("rooms", { count: c.roomCount })}
                    {c.isPublic ? "" : ` · ${t("private")}`}
                  </>
                }
              >
                {c.joined ? (
                  <Form method="post">
                    <input type="hidden" name="intent" value="leave" />
                    <input type="hidden" name="id" value={c.id} />
                    <input type="hidden" name="name" value={c.name} />
                    <button
                      type="submit"
                      className="btn btn-ghost btn-small"
                      disabled={busy}
                      aria-label={`${t("leave")} ${c.name}`}
                    >
                      {t("leave")}
                    </button>
                  </Form>
                ) : null}
              </LinkItem>
            ))}
          </ul>
        )}
      </section>
      {all ? (
        <section className="stack" aria-labelledby="all-title" data-testid="all-communities">
          <div>
            <h2 id="all-title">{t("all")}</h2>
            <p className="small muted">{t("allHelp")}</p>
          </div>
          <ul className={`plain-list ${styles.list}`}>
            {all.map((c) => (
              <LinkItem
                key={c.id}
                to={`/communities/${c.slug ?? c.id}`}
                name={c.name}
                detail={
                  <>
                    {t("members", { count: c.memberCount ?? 0 })} · {t("rooms", { count: c.roomCount ?? 0 })}
                    {c.isPublic === false ? ` · ${t("private")}` : ""}
                  </>
                }
              />
            ))}
          </ul>
        </section>
      ) : null}
      {/* Only the platform's admins create communities (the edge's POST /admin/communities): others never see the form. */}
      {may.create ? (
        <CardSection id="create-title" title={t("create")} help={t("createHelp")} testId="create-community">
          <Form method="post" className="stack">
            <input type="hidden" name="intent" value="create" />
            <NameField id="community-name" label={t("name")} maxLength={80} />
            <InputField
              id="community-slug"
              name="slug"
              label={t("slug")}
              hint={t("slugHelp")}
              maxLength={60}
              pattern="[a-z0-9]+(-[a-z0-9]+)*"
              aria-describedby="community-slug-help"
            />
            <DescriptionField id="community-description" label={t("description")} rows={2} maxLength={2000} />
            <InputField id="community-created-by" name="createdBy" label={t("runBy")} maxLength={36} />
            <CheckboxField name="isPublic" defaultChecked label={t("isPublic")} />
            <SubmitRow busy={busy} testId="create-community-submit">
              {t("create")}
            </SubmitRow>
          </Form>
        </CardSection>
      ) : null}
    </div>
  );
}
