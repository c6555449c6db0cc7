import type { ActionFunctionArgs, MetaFunction } from "@remix-run/node";
import { Form, useActionData, useNavigation, useSearchParams } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { AuthCard, FormError, FormNotice, UnsentNotice } from "../../components/auth-card.tsx";
import { magicLink } from "./magic-link.server.ts";

export const meta: MetaFunction = () => [{ title: "Booth · Sign-in link" }];
export const action = ({ request }: ActionFunctionArgs) => magicLink(request);

/**
 * Without a token: ask for a link. With one (the emailed link): a button finishes the sign-in, so mail scanners
 * that open links do not spend the one-time token.
 */
export default function MagicLink() {
  const { t } = useTranslation("auth");
  const result = useActionData<typeof action>();
  const [params] = useSearchParams();
  const busy = useNavigation().state !== "idle";
  const token = params.get("token");
  if (token)
    return (
      <AuthCard title={t("magic.confirmTitle")} subtitle={t("magic.confirmText")}>
        <Form method="post" className="stack">
          <FormError error={result?.error} />
          <input type="hidden" name="intent" value="validate" />
          <input type="hidden" name="token" value={token} />
          <button type="submit" className="btn btn-primary btn-block" disabled={busy}>
            {t("magic.confirm")}
          </button>
        </Form>
      </AuthCard>
    );
  return (
    <AuthCard title={t("magic.title")} subtitle={t("magic.subtitle")}>
      <Form method="post" className="stack">
        <FormError error={result?.error} />
        <FormNotice notice={result?.notice} />
        {result?.notice ? <UnsentNotice delivery={result.delivery} what="emailLink" /> : null}
        <input type="hidden" name="intent" value="send" />
        <div className="field">
          <label htmlFor="email">{t("email")}</label>
          <input id="email" name="email" type="email" autoComplete="email" required defaultValue={result?.email} />
        </div>
        <button type="submit" className="btn btn-primary btn-block" disabled={busy}>
          {t("magic.submit")}
        </button>
      </Form>
    </AuthCard>
  );
}
