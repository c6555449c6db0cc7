import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useNavigation, useSearchParams } from "@remix-run/react";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import styles from "../../components/communities.module.css";
import { EventForm } from "../../components/event-form.tsx";
import { FormError, FormNotice } from "../../components/form-alert.tsx";
import { LocalTime } from "../../components/local-time.tsx";
import { brandName, brandTitle } from "../../lib/brand.ts";
import { changeEvent, loadEvent } from "./event.server.ts";

export const meta: MetaFunction<typeof loader> = ({ data, matches }) => [
  { title: data ? `${data.event.name} · Events · ${brandName(matches)}` : brandTitle(matches, "Events") },
];
export const loader = ({ request, params }: LoaderFunctionArgs) => loadEvent(request, params.slug ?? "");
export const action = ({ request, params }: ActionFunctionArgs) => changeEvent(request, params.slug ?? "");

export default function EventPage() {
  const { t, i18n } = useTranslation("communities");
  const { event, host, isHost, may, rooms } = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  const [params] = useSearchParams();
  const busy = useNavigation().state === "submitting";
  const [confirming, setConfirming] = useState(false);
  return (
    <div className={`stack ${styles.page}`} data-testid="event">
      <div>
        <Link to="/events" className="btn btn-ghost btn-small">
          ← {t("allEvents")}
        </Link>
      </div>
      <section className="card stack">
        <div className="spread">
          <h1>{event.name}</h1>
          {event.isLive ? <span className="pill pill-live">{t("live")}</span> : null}
        </div>
        <p data-testid="event-times">
          <LocalTime iso={event.startsAt} lang={i18n.language} /> –{" "}
          <LocalTime iso={event.endsAt} lang={i18n.language} />
        </p>
        {event.description ? <p data-testid="event-description">{event.description}</p> : null}
        <p className="small muted">
          {isHost ? (
            t("youHost")
          ) : (
            <>
              {t("host")} <Link to={`/users/${event.hostUuid}`}>{host ?? t("anonymous")}</Link>
            </>
          )}
        </p>
        {event.room ? (
          <div className="row">
            <span>{t("inRoom", { name: event.room.name })}</span>
            <Link to={`/rooms/${event.room.slug}`} className="btn btn-primary btn-small" data-testid="event-room">
              {t("goToRoom")}
            </Link>
          </div>
        ) : null}
      </section>
      {params.get("scheduled") && !result ? <FormNotice notice={t("scheduled")} /> : null}
      {result?.saved ? <FormNotice notice={t("eventSaved")} /> : null}
      <FormError error={result?.error} />
      {may.manage ? (
        <>
          <section className="card stack" aria-labelledby="edit-event-title" data-testid="edit-event">
            <h2 id="edit-event-title">{t("editEvent")}</h2>
            <EventForm
              intent="save"
              rooms={rooms}
              values={event}
              submit={busy ? t("saving") : t("save")}
              testId="save-event"
            />
          </section>
          <section className="card stack" aria-labelledby="delete-event-title">
            <h2 id="delete-event-title">{t("deleteEvent")}</h2>
            {confirming ? (
              <div role="alert" className="stack" data-testid="confirm-delete">
                <p>{t("deleteConfirm", { name: event.name })}</p>
                <Form method="post" replace className="row">
                  <input type="hidden" name="intent" value="delete" />
                  <button type="submit" className="btn btn-danger" disabled={busy} data-testid="confirm-delete-event">
                    {t("confirmDelete")}
                  </button>
                  <button type="button" className="btn btn-ghost" onClick={() => setConfirming(false)}>
                    {t("keep")}
                  </button>
                </Form>
              </div>
            ) : (
              <div className="row">
                <button
                  type="button"
                  className="btn btn-danger"
                  onClick={() => setConfirming(true)}
                  data-testid="delete-event"
                >
                  {t("deleteEvent")}
                </button>
              </div>
            )}
          </section>
        </>
      ) : null}
    </div>
  );
}
