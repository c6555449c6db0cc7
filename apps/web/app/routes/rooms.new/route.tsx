import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Form, useActionData, useNavigation } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { FormError } from "../../components/form-alert.tsx";
import { DjSeatsField, DjTypeField, RoomLookFields, RoomTypeField } from "../../components/room-fields.tsx";
import { brandTitle } from "../../lib/brand.ts";
import { requireViewer } from "../../lib/session.server.ts";
import { createRoom } from "./create-room.server.ts";

export const meta: MetaFunction = ({ matches }) => [{ title: brandTitle(matches, "Create a room") }];
export async function loader({ request }: LoaderFunctionArgs) {
  await requireViewer(request);
  return null;
}
export const action = ({ request }: ActionFunctionArgs) => createRoom(request);

export default function NewRoom() {
  const { t } = useTranslation("rooms");
  const result = useActionData<typeof action>();
  const busy = useNavigation().state !== "idle";
  return (
    <section className="card stack" style={{ maxWidth: 720, margin: "1rem auto" }}>
      <h1>{t("new.title")}</h1>
      <Form method="post" className="stack">
        <FormError error={result?.error} />
        <RoomLookFields values={result?.values} nameMax={100} descriptionMax={500} />
        <div className="row" style={{ alignItems: "flex-start" }}>
          <RoomTypeField defaultValue={result?.values.type || "PUBLIC"} fieldStyle={{ flex: 1 }} />
          <DjSeatsField defaultValue={result?.values.numberOfDjs || 5} />
          <DjTypeField defaultValue={result?.values.djType || "EVERYONE"} fieldStyle={{ flex: 1 }} />
        </div>
        <button type="submit" className="btn btn-primary" disabled={busy}>
          {t("new.submit")}
        </button>
      </Form>
    </section>
  );
}
