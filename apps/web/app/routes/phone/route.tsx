import type { ActionFunctionArgs, MetaFunction } from "@remix-run/node";
import { Form, Link } from "@remix-run/react";
import { AuthCard, AuthSubmit, CodeField, UnsentNotice, useAuthScreen } from "../../components/auth-card.tsx";
import { InputField } from "../../components/field.tsx";
import { FormError, FormNotice } from "../../components/form-alert.tsx";
import { brandTitle } from "../../lib/brand.ts";
import { withoutScripts } from "../../lib/page-scripts.ts";
import { phoneSignIn } from "./phone.server.ts";

export const meta: MetaFunction = ({ matches }) => [{ title: brandTitle(matches, "Phone sign-in") }];
export const handle = withoutScripts;
export const action = ({ request }: ActionFunctionArgs) => phoneSignIn(request);

export default function PhoneSignIn() {
  const { t, result, busy } = useAuthScreen<typeof action>();
  if (result?.step === "code")
    return (
      <AuthCard title={t("phone.title")}>
        <FormNotice notice={result.error ? null : t("phone.sent", { phone: result.phone })} />
        <UnsentNotice delivery={result.delivery} what="smsCode" />
        <Form method="post" className="stack">
          <FormError error={result.error} />
          <input type="hidden" name="intent" value="verify" />
          <input type="hidden" name="phone" value={result.phone} />
          <CodeField label={t("phone.code")} />
          <AuthSubmit busy={busy}>{t("phone.verify")}</AuthSubmit>
        </Form>
        <Link to="/phone" reloadDocument className="small">
          {t("phone.other")}
        </Link>
      </AuthCard>
    );
  return (
    <AuthCard title={t("phone.title")} subtitle={t("phone.subtitle")}>
      <Form method="post" className="stack">
        <FormError error={result?.error} />
        <input type="hidden" name="intent" value="send" />
        <InputField
          name="phone"
          label={t("phone.number")}
          hint={t("phone.numberHint")}
          type="tel"
          autoComplete="tel"
          required
          defaultValue={result?.phone}
        />
        <fieldset className="field plain">
          <legend className="label">{t("phone.channel")}</legend>
          <div className="row">
            <label className="row">
              <input type="radio" name="channel" value="sms" defaultChecked /> {t("phone.sms")}
            </label>
            <label className="row">
              <input type="radio" name="channel" value="whatsapp" /> {t("phone.whatsapp")}
            </label>
          </div>
        </fieldset>
        <AuthSubmit busy={busy}>{t("phone.send")}</AuthSubmit>
      </Form>
    </AuthCard>
  );
}
