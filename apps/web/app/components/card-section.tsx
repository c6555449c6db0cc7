import type { ReactNode } from "react";

/** A card of its own on a page (a form to create or change something): its heading, a line of help, its content. */
export function CardSection({
  id,
  title,
  help,
  testId,
  children,
}: {
  /** The heading's id, which labels the section. */
  id: string;
  title: ReactNode;
  help?: ReactNode;
  testId?: string;
  children: ReactNode;
}) {
  return (
    <section className="card stack" aria-labelledby={id} data-testid={testId}>
      {help ? (
        <div>
          <h2 id={id}>{title}</h2>
          <p className="small muted">{help}</p>
        </div>
      ) : (
        <h2 id={id}>{title}</h2>
      )}
      {children}
    </section>
  );
}
