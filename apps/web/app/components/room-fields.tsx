import { type CSSProperties, useState } from "react";
import { useTranslation } from "react-i18next";
import { DESIGN_SWATCHES, DJ_TYPES, ROOM_DESIGNS } from "../lib/room-designs.ts";
import { DescriptionField, InputField, NameField, SelectField } from "./field.tsx";

/** A room's fields shared by creating a room (/rooms/new) and its settings (/rooms/{slug}/settings). */

/**
 * How the room looks: its name, description and stage design. The longest name and description are the caller's
 * (creating a room allows a longer name and a shorter description than its settings).
 */
export function RoomLookFields({
  values,
  nameMax,
  descriptionMax,
}: {
  values?: { name?: string; description?: string; design: string };
  nameMax: number;
  descriptionMax: number;
}) {
  const { t } = useTranslation("rooms");
  return (
    <>
      <NameField label={t("new.name")} maxLength={nameMax} defaultValue={values?.name} />
      <DescriptionField
        label={t("new.description")}
        rows={2}
        maxLength={descriptionMax}
        defaultValue={values?.description}
      />
      <RoomDesignPicker initial={values?.design || "CLUB"} />
    </>
  );
}

/** The stage designs to choose from, each with its swatch; the chosen one is marked. */
function RoomDesignPicker({ initial }: { initial: string }) {
  const { t } = useTranslation("rooms");
  const [design, setDesign] = useState(initial);
  return (
    <fieldset className="field plain">
      <legend className="label">{t("new.design")}</legend>
      <div className="design-grid">
        {ROOM_DESIGNS.map((d) => (
          <label key={d} className={`design-option ${design === d ? "selected" : ""}`}>
            <input type="radio" name="design" value={d} checked={design === d} onChange={() => setDesign(d)} />
            <span className="design-swatch" style={{ background: DESIGN_SWATCHES[d] }} />
            <span className="small">{t(`designs.${d}`)}</span>
          </label>
        ))}
      </div>
    </fieldset>
  );
}

/** Public or private. */
export function RoomTypeField({ defaultValue, fieldStyle }: { defaultValue: string; fieldStyle?: CSSProperties }) {
  const { t } = useTranslation("rooms");
  return (
    <SelectField name="type" label={t("new.type")} defaultValue={defaultValue} fieldStyle={fieldStyle}>
      <option value="PUBLIC">{t("new.public")}</option>
      <option value="PRIVATE">{t("new.private")}</option>
    </SelectField>
  );
}

/** How many DJ seats the booth has. */
export function DjSeatsField({ defaultValue, required }: { defaultValue: number | string; required?: boolean }) {
  const { t } = useTranslation("rooms");
  return (
    <InputField
      name="numberOfDjs"
      label={t("new.djs")}
      type="number"
      min={1}
      max={10}
      required={required}
      defaultValue={defaultValue}
    />
  );
}

/** Who may DJ. */
export function DjTypeField({ defaultValue, fieldStyle }: { defaultValue: string; fieldStyle?: CSSProperties }) {
  const { t } = useTranslation("rooms");
  return (
    <SelectField name="djType" label={t("new.djType")} defaultValue={defaultValue} fieldStyle={fieldStyle}>
      {DJ_TYPES.map((d) => (
        <option key={d} value={d}>
          {t(`new.djTypes.${d}`)}
        </option>
      ))}
    </SelectField>
  );
}
