import type { ActionFunctionArgs, MetaFunction } from "@remix-run/node";
import { Form, useActionData, useNavigation } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { AuthCard, FormError, FormNotice, UnsentNotice } from "../../components/auth-card.tsx";
import { forgotPassword } from "./forgot-password.server.ts";

export const meta: MetaFunction = () => [{ title: "Booth · Reset your password" }];
export const action = ({ request }: ActionFunctionArgs) => forgotPassword(request);

export default function ForgotPassword() {
  const { t } = useTranslation("auth");
  const result = useActionData<typeof action>();
  const busy = useNavigation().state !== "idle";
  return (
    <AuthCard title={t("forgot.title")} subtitle={t("forgot.subtitle")}>
      <Form method="post" className="stack">
        <FormError error={result?.error} />
        <FormNotice notice={result?.notice} />
        {result?.notice ? <UnsentNotice delivery={result.delivery} what="emailLink" /> : null}
        <div className="field">
          <label htmlFor="email">{t("email")}</label>
          <input id="email" name="email" type="email" autoComplete="email" required defaultValue={result?.email} />
        </div>
        <button type="submit" className="btn btn-primary btn-block" disabled={busy}>
          {t("forgot.submit")}
        </button>
      </Form>
    </AuthCard>
  );
}
