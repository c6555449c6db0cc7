import type { ActionFunctionArgs, MetaFunction } from "@remix-run/node";
import { Form, Link } from "@remix-run/react";
import {
  AuthCard,
  AuthSubmit,
  EmailField,
  NewPasswordField,
  NicknameField,
  useAuthScreen,
} from "../../components/auth-card.tsx";
import { InputField } from "../../components/field.tsx";
import { FormError } from "../../components/form-alert.tsx";
import { brandTitle } from "../../lib/brand.ts";
import { withoutScripts } from "../../lib/page-scripts.ts";
import { signUp } from "./signup.server.ts";

export const meta: MetaFunction = ({ matches }) => [{ title: brandTitle(matches, "Sign up") }];
export const handle = withoutScripts;
export const action = ({ request }: ActionFunctionArgs) => signUp(request);

export default function SignUp() {
  const { t, result, params, busy } = useAuthScreen<typeof action>();
  const next = params.get("next");
  return (
    <AuthCard title={t("signup.title")} subtitle={t("signup.subtitle")}>
      <Form method="post" className="stack">
        <FormError error={result?.error} />
        <NicknameField label={t("nickname")} autoComplete="nickname" defaultValue={result?.nickname} />
        <EmailField defaultValue={result?.email} />
        <NewPasswordField label={t("password")} />
        <InputField
          name="voucherCode"
          label={t("signup.voucher")}
          hint={t("signup.voucherHint")}
          autoComplete="off"
          autoCapitalize="characters"
          spellCheck={false}
          maxLength={64}
          placeholder="ABCD-EFGH-JKMN"
          aria-describedby="voucherHint"
          defaultValue={result?.voucherCode ?? params.get("voucher") ?? ""}
        />
        <AuthSubmit busy={busy}>{t("signup.submit")}</AuthSubmit>
      </Form>
      <p className="small muted">
        {t("signup.haveAccount")}{" "}
        <Link to={next ? `/login?next=${encodeURIComponent(next)}` : "/login"}>{t("signup.login")}</Link>
      </p>
    </AuthCard>
  );
}
