import type { ActionFunctionArgs, MetaFunction } from "@remix-run/node";
import { Form, Link, useActionData, useNavigation, useSearchParams } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { AuthCard, FormError } from "../../components/auth-card.tsx";
import { signUp } from "./signup.server.ts";

export const meta: MetaFunction = () => [{ title: "Booth · Sign up" }];
export const action = ({ request }: ActionFunctionArgs) => signUp(request);

export default function SignUp() {
  const { t } = useTranslation("auth");
  const result = useActionData<typeof action>();
  const [params] = useSearchParams();
  const busy = useNavigation().state !== "idle";
  const next = params.get("next");
  return (
    <AuthCard title={t("signup.title")} subtitle={t("signup.subtitle")}>
      <Form method="post" className="stack">
        <FormError error={result?.error} />
        <div className="field">
          <label htmlFor="nickname">{t("nickname")}</label>
          <input
            id="nickname"
            name="nickname"
            autoComplete="nickname"
            minLength={2}
            maxLength={32}
            defaultValue={result?.nickname}
          />
        </div>
        <div className="field">
          <label htmlFor="email">{t("email")}</label>
          <input id="email" name="email" type="email" autoComplete="email" required defaultValue={result?.email} />
        </div>
        <div className="field">
          <label htmlFor="password">{t("password")}</label>
          <input id="password" name="password" type="password" autoComplete="new-password" minLength={8} required />
          <span className="small muted">{t("passwordHint")}</span>
        </div>
        <div className="field">
          <label htmlFor="voucherCode">{t("signup.voucher")}</label>
          <input
            id="voucherCode"
            name="voucherCode"
            autoComplete="off"
            autoCapitalize="characters"
            spellCheck={false}
            maxLength={64}
            placeholder="ABCD-EFGH-JKMN"
            aria-describedby="voucherHint"
            defaultValue={result?.voucherCode ?? params.get("voucher") ?? ""}
          />
          <span id="voucherHint" className="small muted">
            {t("signup.voucherHint")}
          </span>
        </div>
        <button type="submit" className="btn btn-primary btn-block" disabled={busy}>
          {t("signup.submit")}
        </button>
      </Form>
      <p className="small muted">
        {t("signup.haveAccount")}{" "}
        <Link to={next ? `/login?next=${encodeURIComponent(next)}` : "/login"}>{t("signup.login")}</Link>
      </p>
    </AuthCard>
  );
}
