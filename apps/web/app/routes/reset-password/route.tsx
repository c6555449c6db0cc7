import type { ActionFunctionArgs, MetaFunction } from "@remix-run/node";
import { Form, Link } from "@remix-run/react";
import { AuthCard, AuthSubmit, NewPasswordField, useAuthScreen } from "../../components/auth-card.tsx";
import { FormError } from "../../components/form-alert.tsx";
import { brandTitle } from "../../lib/brand.ts";
import { withoutScripts } from "../../lib/page-scripts.ts";
import { resetPassword } from "./reset-password.server.ts";

export const meta: MetaFunction = ({ matches }) => [{ title: brandTitle(matches, "New password") }];
export const handle = withoutScripts;
export const action = ({ request }: ActionFunctionArgs) => resetPassword(request);

export default function ResetPassword() {
  const { t, result, params, busy } = useAuthScreen<typeof action>();
  const token = params.get("token");
  return (
    <AuthCard title={t("reset.title")}>
      {token ? (
        <Form method="post" className="stack">
          <FormError error={result?.error} />
          <input type="hidden" name="token" value={token} />
          <NewPasswordField label={t("newPassword")} />
          <AuthSubmit busy={busy}>{t("reset.submit")}</AuthSubmit>
        </Form>
      ) : (
        <p className="alert alert-error">
          {t("reset.missing")} <Link to="/forgot-password">{t("forgot.submit")}</Link>
        </p>
      )}
    </AuthCard>
  );
}
