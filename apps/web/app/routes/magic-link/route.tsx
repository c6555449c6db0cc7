import type { ActionFunctionArgs, MetaFunction } from "@remix-run/node";
import { Form } from "@remix-run/react";
import { AuthCard, AuthSubmit, EmailLinkForm, useAuthScreen } from "../../components/auth-card.tsx";
import { FormError } from "../../components/form-alert.tsx";
import { brandTitle } from "../../lib/brand.ts";
import { withoutScripts } from "../../lib/page-scripts.ts";
import { magicLink } from "./magic-link.server.ts";

export const meta: MetaFunction = ({ matches }) => [{ title: brandTitle(matches, "Sign-in link") }];
export const handle = withoutScripts;
export const action = ({ request }: ActionFunctionArgs) => magicLink(request);

/**
 * Without a token: ask for a link. With one (the emailed link): a button finishes the sign-in, so mail scanners
 * that open links do not spend the one-time token.
 */
export default function MagicLink() {
  const { t, result, params, busy } = useAuthScreen<typeof action>();
  const token = params.get("token");
  if (token)
    return (
      <AuthCard title={t("magic.confirmTitle")} subtitle={t("magic.confirmText")}>
        <Form method="post" className="stack">
          <FormError error={result?.error} />
          <input type="hidden" name="intent" value="validate" />
          <input type="hidden" name="token" value={token} />
          <AuthSubmit busy={busy}>{t("magic.confirm")}</AuthSubmit>
        </Form>
      </AuthCard>
    );
  return (
    <AuthCard title={t("magic.title")} subtitle={t("magic.subtitle")}>
      <EmailLinkForm result={result} intent="send" submit={t("magic.submit")} busy={busy} />
    </AuthCard>
  );
}
