import { Link } from "@remix-run/react";
import { useTranslation } from "react-i18next";

/**
 * An error boundary's card (the root's and the room page's): what went wrong, a way back to the rooms, and a retry
 * where there is one to offer.
 */
export function ErrorCard({
  title,
  message,
  retry,
  testId,
}: {
  title: string;
  message: string;
  retry?: { label: string; onClick: () => void; busy: boolean; testId: string } | undefined;
  testId?: string;
}) {
  const { t } = useTranslation();
  const back = (
    <Link to="/" className={retry ? "btn btn-ghost" : "btn btn-primary"}>
      {t("error.back")}
    </Link>
  );
  return (
    <section className="card narrow error-page" data-testid={testId}>
      <h1>{title}</h1>
      <p>{message}</p>
      {retry ? (
        <div className="row">
          <button
            type="button"
            className="btn btn-primary"
            onClick={retry.onClick}
            disabled={retry.busy}
            data-testid={retry.testId}
          >
            {retry.label}
          </button>
          {back}
        </div>
      ) : (
        back
      )}
    </section>
  );
}
