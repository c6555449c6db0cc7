import type { ActionFunctionArgs, MetaFunction } from "@remix-run/node";
import { useActionData, useNavigation } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { AuthCard, EmailLinkForm } from "../../components/auth-card.tsx";
import { forgotPassword } from "./forgot-password.server.ts";

export const meta: MetaFunction = () => [{ title: "Booth · Reset your password" }];
export const action = ({ request }: ActionFunctionArgs) => forgotPassword(request);

export default function ForgotPassword() {
  const { t } = useTranslation("auth");
  const result = useActionData<typeof action>();
  const busy = useNavigation().state !== "idle";
  return (
    <AuthCard title={t("forgot.title")} subtitle={t("forgot.subtitle")}>
      <EmailLinkForm result={result} submit={t("forgot.submit")} busy={busy} />
    </AuthCard>
  );
}
