import { Form, useNavigation } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import styles from "./communities.module.css";
import { DescriptionField, InputField, NameField, SelectField, SubmitRow } from "./field.tsx";
import { toLocalInput, useTimeZoneName, useTimeZoneOffset } from "./local-time.tsx";

export interface EventFormValues {
  name: string;
  description: string;
  roomUuid: string | null;
  startsAt: string;
  endsAt: string;
}

/**
 * An event's fields as the edge's schema has them (name, description, room, start and end), the times typed in the
 * person's own zone: the page sends how far it is from UTC (`tzOffset`) and the server turns them into UTC.
 */
export function EventForm({
  intent,
  rooms,
  values,
  submit,
  testId,
}: {
  intent: string;
  rooms: { uuid: string; name: string }[];
  values?: EventFormValues;
  submit: string;
  testId: string;
}) {
  const { t } = useTranslation("communities");
  const offset = useTimeZoneOffset();
  const zone = useTimeZoneName();
  const busy = useNavigation().state === "submitting";
  const local = (iso: string | undefined) => (iso ? toLocalInput(iso, offset ?? 0) : undefined);
  // Remade once the page knows the person's zone, so the times it shows are theirs.
  return (
    <Form
      method="post"
      replace
      className="stack"
      key={values ? `${offset}-${values.startsAt}-${values.endsAt}` : "new"}
      data-ready={offset === null ? undefined : true}
    >
      <input type="hidden" name="intent" value={intent} />
      <input type="hidden" name="tzOffset" value={offset ?? 0} />
      <NameField id="event-name" label={t("name")} maxLength={100} defaultValue={values?.name} />
      <div className={styles.grid}>
        {(["startsAt", "endsAt"] as const).map((name) => (
          <InputField
            key={name}
            id={name === "startsAt" ? "event-starts" : "event-ends"}
            name={name}
            label={t(name)}
            type="datetime-local"
            required
            defaultValue={local(values?.[name])}
            aria-describedby="event-zone"
          />
        ))}
      </div>
      <span id="event-zone" className="small muted">
        {t("timeZone", { zone })}
      </span>
      <SelectField
        id="event-room"
        name="roomUuid"
        label={t("room")}
        hint={t("roomHelp")}
        defaultValue={values?.roomUuid ?? ""}
        aria-describedby="event-room-help"
      >
        <option value="">{t("noRoom")}</option>
        {rooms.map((r) => (
          <option key={r.uuid} value={r.uuid}>
            {r.name}
          </option>
        ))}
      </SelectField>
      <DescriptionField
        id="event-description"
        label={t("description")}
        rows={3}
        maxLength={4000}
        defaultValue={values?.description}
      />
      <SubmitRow busy={busy} testId={testId}>
        {submit}
      </SubmitRow>
    </Form>
  );
}
