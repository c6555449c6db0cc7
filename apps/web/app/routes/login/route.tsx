import { type ActionFunctionArgs, data, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, Link, useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { AuthCard, AuthSubmit, EmailField, useAuthScreen } from "../../components/auth-card.tsx";
import { InputField } from "../../components/field.tsx";
import { FormError, FormNotice } from "../../components/form-alert.tsx";
import { brandTitle } from "../../lib/brand.ts";
import { takeNotice } from "../../lib/oauth.server.ts";
import { withoutScripts } from "../../lib/page-scripts.ts";
import { logIn } from "./login.server.ts";

export const meta: MetaFunction = ({ matches }) => [{ title: brandTitle(matches, "Log in") }];
export const handle = withoutScripts;
export const action = ({ request }: ActionFunctionArgs) => logIn(request);
/** The outcome of a Discord sign-in that did not sign in (once). */
export async function loader({ request }: LoaderFunctionArgs) {
  const { notice, setCookie } = await takeNotice(request);
  return data({ notice }, setCookie ? { headers: { "set-cookie": setCookie } } : undefined);
}

export default function Login() {
  const { t, result, params, busy } = useAuthScreen<typeof action>();
  const { t: tp } = useTranslation("profile");
  const { notice } = useLoaderData<typeof loader>();
  const next = params.get("next");
  const keep = next ? `?next=${encodeURIComponent(next)}` : "";
  return (
    <AuthCard title={t("login.title")} subtitle={t("login.subtitle")}>
      <FormNotice notice={params.get("reset") === "done" ? t("login.resetDone") : null} />
      {notice ? (
        <p className="alert alert-error" role="alert" data-testid="signin-notice">
          {notice.key === "failed"
            ? notice.text
            : tp(`connections.notice.${notice.key}`, { name: tp(`connections.names.${notice.provider}`) })}
        </p>
      ) : null}
      <Form method="post" className="stack">
        <FormError error={result?.error} />
        <EmailField defaultValue={result?.email} />
        <InputField name="password" label={t("password")} type="password" autoComplete="current-password" required />
        <AuthSubmit busy={busy}>{t("login.submit")}</AuthSubmit>
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
        <Link
          to={`/connections/discord/start?purpose=signin${next ? `&next=${encodeURIComponent(next)}` : ""}`}
          reloadDocument
          className="btn btn-block"
          data-testid="discord-signin"
        >
          💬 {t("login.discord")}
        </Link>
      </div>
      <p className="small muted">
        {t("login.noAccount")} <Link to={`/signup${keep}`}>{t("login.signup")}</Link>
      </p>
    </AuthCard>
  );
}
