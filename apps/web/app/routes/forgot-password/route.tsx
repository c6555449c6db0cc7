import type { ActionFunctionArgs, MetaFunction } from "@remix-run/node";
import { AuthCard, EmailLinkForm, useAuthScreen } from "../../components/auth-card.tsx";
import { brandTitle } from "../../lib/brand.ts";
import { withoutScripts } from "../../lib/page-scripts.ts";
import { forgotPassword } from "./forgot-password.server.ts";

export const meta: MetaFunction = ({ matches }) => [{ title: brandTitle(matches, "Reset your password") }];
export const handle = withoutScripts;
export const action = ({ request }: ActionFunctionArgs) => forgotPassword(request);

export default function ForgotPassword() {
  const { t, result, busy } = useAuthScreen<typeof action>();
  return (
    <AuthCard title={t("forgot.title")} subtitle={t("forgot.subtitle")}>
      <EmailLinkForm result={result} submit={t("forgot.submit")} busy={busy} />
    </AuthCard>
  );
}
