import type { ReactNode } from "react";
import { useTranslation } from "react-i18next";

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

export function FormError({ error }: { error?: string | null }) {
  return error ? (
    <p className="alert alert-error" role="alert" data-testid="form-error">
      {error}
    </p>
  ) : null;
}

export function FormNotice({ notice }: { notice?: string | null }) {
  return notice ? (
    <p className="alert alert-ok" role="status" data-testid="form-notice">
      {notice}
    </p>
  ) : null;
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
