import type { ReactNode } from "react";

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
