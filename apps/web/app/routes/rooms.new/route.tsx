import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Form, useActionData, useNavigation } from "@remix-run/react";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { FormError } from "../../components/auth-card.tsx";
import { DESIGN_GRADIENTS } from "../../components/room-card.tsx";
import { DJ_TYPES, ROOM_DESIGNS } from "../../lib/room-designs.ts";
import { requireViewer } from "../../lib/session.server.ts";
import { createRoom } from "./create-room.server.ts";

export const meta: MetaFunction = () => [{ title: "Booth · Create a room" }];
export async function loader({ request }: LoaderFunctionArgs) {
  await requireViewer(request);
  return null;
}
export const action = ({ request }: ActionFunctionArgs) => createRoom(request);

export default function NewRoom() {
  const { t } = useTranslation("rooms");
  const result = useActionData<typeof action>();
  const busy = useNavigation().state !== "idle";
  const [design, setDesign] = useState(result?.values.design || "CLUB");
  return (
    <section className="card stack" style={{ maxWidth: 720, margin: "1rem auto" }}>
      <h1>{t("new.title")}</h1>
      <Form method="post" className="stack">
        <FormError error={result?.error} />
        <div className="field">
          <label htmlFor="name">{t("new.name")}</label>
          <input id="name" name="name" required minLength={2} maxLength={100} defaultValue={result?.values.name} />
        </div>
        <div className="field">
          <label htmlFor="description">{t("new.description")}</label>
          <textarea
            id="description"
            name="description"
            rows={2}
            maxLength={500}
            defaultValue={result?.values.description}
          />
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
        <div className="row" style={{ alignItems: "flex-start" }}>
          <div className="field" style={{ flex: 1 }}>
            <label htmlFor="type">{t("new.type")}</label>
            <select id="type" name="type" defaultValue={result?.values.type || "PUBLIC"}>
              <option value="PUBLIC">{t("new.public")}</option>
              <option value="PRIVATE">{t("new.private")}</option>
            </select>
          </div>
          <div className="field">
            <label htmlFor="numberOfDjs">{t("new.djs")}</label>
            <input
              id="numberOfDjs"
              name="numberOfDjs"
              type="number"
              min={1}
              max={10}
              defaultValue={result?.values.numberOfDjs || 5}
            />
          </div>
          <div className="field" style={{ flex: 1 }}>
            <label htmlFor="djType">{t("new.djType")}</label>
            <select id="djType" name="djType" defaultValue={result?.values.djType || "EVERYONE"}>
              {DJ_TYPES.map((d) => (
                <option key={d} value={d}>
                  {t(`new.djTypes.${d}`)}
                </option>
              ))}
            </select>
          </div>
        </div>
        <button type="submit" className="btn btn-primary" disabled={busy}>
          {t("new.submit")}
        </button>
      </Form>
    </section>
  );
}
