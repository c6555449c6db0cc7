import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Form, Link, useLoaderData } from "@remix-run/react";
import { AuthCard, AuthSubmit, CodeField, UnsentNotice, useAuthScreen } from "../../components/auth-card.tsx";
import { FormError, FormNotice } from "../../components/form-alert.tsx";
import { brandTitle } from "../../lib/brand.ts";
import { verifyEmail, verifyEmailPage } from "./verify-email.server.ts";

export const meta: MetaFunction = ({ matches }) => [{ title: brandTitle(matches, "Verify your email") }];
export const loader = ({ request }: LoaderFunctionArgs) => verifyEmailPage(request);
export const action = ({ request }: ActionFunctionArgs) => verifyEmail(request);

export default function VerifyEmail() {
  const { t, result, params, busy } = useAuthScreen<typeof action>();
  const { email, verified, delivery } = useLoaderData<typeof loader>();
  const next = params.get("next") ?? "/";
  if (verified)
    return (
      <AuthCard title={t("verify.title")}>
        <FormNotice notice={t("verify.done")} />
        <Link to={next} className="btn btn-primary btn-block">
          OK
        </Link>
      </AuthCard>
    );
  return (
    <AuthCard title={t("verify.title")} subtitle={t("verify.subtitle", { email })}>
      <UnsentNotice delivery={delivery} what="emailCode" />
      <FormError error={result?.error} />
      <FormNotice notice={result?.resent ? t("verify.resent") : null} />
      <Form method="post" className="stack">
        <input type="hidden" name="intent" value="verify" />
        <CodeField label={t("verify.code")} />
        <AuthSubmit busy={busy}>{t("verify.submit")}</AuthSubmit>
      </Form>
      <div className="spread">
        <Form method="post">
          <input type="hidden" name="intent" value="resend" />
          <button type="submit" className="btn btn-ghost btn-small" disabled={busy}>
            {t("verify.resend")}
          </button>
        </Form>
        <Link to={next} className="small">
          {t("verify.skip")}
        </Link>
      </div>
    </AuthCard>
  );
}
