import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Link, useActionData, useLoaderData, useSearchParams } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import styles from "../../components/communities.module.css";
import { EventForm } from "../../components/event-form.tsx";
import { FormError, FormNotice } from "../../components/form-alert.tsx";
import { LinkItem } from "../../components/link-item.tsx";
import { LocalTime } from "../../components/local-time.tsx";
import { PageHero } from "../../components/page-hero.tsx";
import { brandTitle } from "../../lib/brand.ts";
import { createEvent, loadEvents } from "./events.server.ts";

export const meta: MetaFunction = ({ matches }) => [{ title: brandTitle(matches, "Events") }];
export const loader = ({ request }: LoaderFunctionArgs) => loadEvents(request);
export const action = ({ request }: ActionFunctionArgs) => createEvent(request);

export default function Events() {
  const { t, i18n } = useTranslation("communities");
  const { events, error, rooms, signedIn } = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  const [params] = useSearchParams();
  return (
    <div className={`stack ${styles.page}`}>
      <PageHero title={t("eventsTitle")} subtitle={t("eventsSubtitle")} />
      {params.get("deleted") ? <FormNotice notice={t("deleted")} /> : null}
      <FormError error={error} />
      <section className="stack" aria-labelledby="upcoming-title">
        <h2 id="upcoming-title">{t("upcoming")}</h2>
        {events.length === 0 ? <p className="empty">{t("eventsEmpty")}</p> : null}
        <ul className={`plain-list ${styles.list}`} data-testid="event-list">
          {events.map((e) => (
            <LinkItem
              key={e.id}
              to={`/events/${e.slug}`}
              name={e.name}
              detail={
                <>
                  <LocalTime iso={e.startsAt} lang={i18n.language} /> –{" "}
                  <LocalTime iso={e.endsAt} lang={i18n.language} />
                  {e.room ? ` · ${t("inRoom", { name: e.room.name })}` : ""}
                </>
              }
            >
              {e.isLive ? <span className="pill pill-live">{t("live")}</span> : null}
            </LinkItem>
          ))}
        </ul>
      </section>
      {signedIn && rooms ? (
        <section className="card stack" aria-labelledby="new-event-title" data-testid="new-event">
          <h2 id="new-event-title">{t("newEvent")}</h2>
          <FormError error={result?.error} />
          <EventForm intent="create" rooms={rooms} submit={t("schedule")} testId="schedule-event" />
        </section>
      ) : (
        <p className="small muted">
          <Link to="/login?next=/events">{t("signInToSchedule")}</Link>
        </p>
      )}
    </div>
  );
}
