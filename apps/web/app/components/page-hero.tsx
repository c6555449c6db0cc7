import type { ReactNode } from "react";

/** The head of a list screen: its title, a line under it, and what it offers on the right (`children`). */
export function PageHero({
  title,
  subtitle,
  children,
}: {
  title: ReactNode;
  subtitle: ReactNode;
  children?: ReactNode;
}) {
  return (
    <section className="hero">
      <div>
        <h1>{title}</h1>
        <p className="muted">{subtitle}</p>
      </div>
      {children}
    </section>
  );
}
