import { Form, useActionData, useNavigation, useSearchParams } from "@remix-run/react";
import type { ComponentProps, ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { InputField } from "./field.tsx";
import { FormError, FormNotice } from "./form-alert.tsx";

/**
 * What every sign-in screen works with: the `auth` texts, what its action answered, the page's query (`?token=`,
 * `?next=`) and whether a submission is under way.
 */
export function useAuthScreen<Action>() {
  const { t } = useTranslation("auth");
  const [params] = useSearchParams();
  return { t, result: useActionData<Action>(), params, busy: useNavigation().state !== "idle" };
}

/** The frame of every sign-in screen. */
export function AuthCard({ title, subtitle, children }: { title: string; subtitle?: string; children: ReactNode }) {
  return (
    <section className="card narrow auth-card stack">
      <div>
        <h1>{title}</h1>
        {subtitle ? <p className="muted">{subtitle}</p> : null}
      </div>
      {children}
    </section>
  );
}

/**
 * On an instance without an email or SMS provider, where the awaited code or link is instead: the server log (the
 * embedded default) or the outbox an administrator reads.
 */
export function UnsentNotice({
  delivery,
  what,
}: {
  delivery?: "provider" | "log" | "outbox" | null | undefined;
  what: "emailCode" | "emailLink" | "smsCode";
}) {
  const { t } = useTranslation("auth");
  if (delivery !== "log" && delivery !== "outbox") return null;
  return (
    <p className="alert alert-info" role="note" data-testid="unsent-notice">
      {t(`unsent.${what}.${delivery}`)}
    </p>
  );
}

/** The sign-in screens' full-width submit button. */
export function AuthSubmit({ busy, children }: { busy: boolean; children: ReactNode }) {
  return (
    <button type="submit" className="btn btn-primary btn-block" disabled={busy}>
      {children}
    </button>
  );
}

/** The email address to sign in with or send to. */
export function EmailField({ defaultValue }: { defaultValue?: string }) {
  const { t } = useTranslation("auth");
  return (
    <InputField
      name="email"
      label={t("email")}
      type="email"
      autoComplete="email"
      required
      defaultValue={defaultValue}
    />
  );
}

/** A person's nickname, 2 to 32 characters as the user service takes it: every other prop is the input's own. */
export function NicknameField(
  props: Omit<ComponentProps<typeof InputField>, "id" | "name" | "minLength" | "maxLength">,
) {
  return <InputField name="nickname" minLength={2} maxLength={32} {...props} />;
}

/** A new password, with what it needs under it. */
export function NewPasswordField({ label }: { label: string }) {
  const { t } = useTranslation("auth");
  return (
    <InputField
      name="password"
      label={label}
      hint={t("passwordHint")}
      type="password"
      autoComplete="new-password"
      minLength={8}
      required
    />
  );
}

/** The 6-digit code sent by email or SMS. */
export function CodeField({ label }: { label: string }) {
  return (
    <InputField
      name="code"
      label={label}
      inputMode="numeric"
      autoComplete="one-time-code"
      pattern="\d{6}"
      maxLength={6}
      required
      className="code-input"
    />
  );
}

/**
 * Asks for an emailed link (a password reset, a sign-in link): the address, then what the edge said and, on an
 * instance that does not send mail, where the link is instead.
 */
export function EmailLinkForm({
  result,
  intent,
  submit,
  busy,
}: {
  result?: {
    error?: string | null;
    notice?: string | null;
    email?: string;
    delivery?: "provider" | "log" | "outbox" | null;
  };
  intent?: string;
  submit: string;
  busy: boolean;
}) {
  return (
    <Form method="post" className="stack">
      <FormError error={result?.error} />
      <FormNotice notice={result?.notice} />
      {result?.notice ? <UnsentNotice delivery={result.delivery} what="emailLink" /> : null}
      {intent ? <input type="hidden" name="intent" value={intent} /> : null}
      <EmailField defaultValue={result?.email} />
      <AuthSubmit busy={busy}>{submit}</AuthSubmit>
    </Form>
  );
}
