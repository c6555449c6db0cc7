import type { ActionFunctionArgs, MetaFunction } from "@remix-run/node";
import { Form, Link, useActionData, useNavigation, useSearchParams } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { AuthCard, FormError, FormNotice } from "../../components/auth-card.tsx";
import { logIn } from "./login.server.ts";

export const meta: MetaFunction = () => [{ title: "Booth · Log in" }];
export const action = ({ request }: ActionFunctionArgs) => logIn(request);

export default function Login() {
  const { t } = useTranslation("auth");
  const result = useActionData<typeof action>();
  const [params] = useSearchParams();
  const busy = useNavigation().state !== "idle";
  const next = params.get("next");
  const keep = next ? `?next=${encodeURIComponent(next)}` : "";
  return (
    <AuthCard title={t("login.title")} subtitle={t("login.subtitle")}>
      <FormNotice notice={params.get("reset") === "done" ? t("login.resetDone") : null} />
      <Form method="post" className="stack">
        <FormError error={result?.error} />
        <div className="field">
          <label htmlFor="email">{t("email")}</label>
          <input id="email" name="email" type="email" autoComplete="email" required defaultValue={result?.email} />
        </div>
        <div className="field">
          <label htmlFor="password">{t("password")}</label>
          <input id="password" name="password" type="password" autoComplete="current-password" required />
        </div>
        <button type="submit" className="btn btn-primary btn-block" disabled={busy}>
          {t("login.submit")}
        </button>
      </Form>
      <p className="small">
        <Link to="/forgot-password">{t("login.forgot")}</Link>
      </p>
      <div className="divider">{t("or")}</div>
      <div className="stack">
        <Link to={`/magic-link${keep}`} className="btn btn-block">
          ✉ {t("login.magic")}
        </Link>
        <Link to={`/phone${keep}`} className="btn btn-block">
          📱 {t("login.phone")}
        </Link>
      </div>
      <p className="small muted">
        {t("login.noAccount")} <Link to={`/signup${keep}`}>{t("login.signup")}</Link>
      </p>
    </AuthCard>
  );
}
