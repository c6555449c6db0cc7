import { Link, useLocation } from "@remix-run/react";
import { useTranslation } from "react-i18next";

/**
 * Previous / next links for a list paged by an offset in the address (`param`, default "offset"), keeping the
 * other search parameters. Hidden when everything fits on one page.
 */
export function Pager({
  offset,
  pageSize,
  total,
  param = "offset",
  testId,
}: {
  offset: number;
  pageSize: number;
  total: number;
  param?: string;
  testId?: string;
}) {
  const { t } = useTranslation("lists");
  const location = useLocation();
  if (total <= pageSize && offset === 0) return null;
  const to = (next: number) => {
    const params = new URLSearchParams(location.search);
    if (next > 0) params.set(param, String(next));
    else params.delete(param);
    const qs = params.toString();
    return `${location.pathname}${qs ? `?${qs}` : ""}`;
  };
  const page = Math.floor(offset / pageSize) + 1;
  const pages = Math.max(1, Math.ceil(total / pageSize));
  return (
    <nav className="row" style={{ justifyContent: "center", marginTop: "1rem" }} data-testid={testId}>
      {offset > 0 ? (
        <Link className="btn btn-small" to={to(Math.max(0, offset - pageSize))} rel="prev">
          ← {t("previous")}
        </Link>
      ) : null}
      <span className="small muted">{t("page", { page, pages })}</span>
      {offset + pageSize < total ? (
        <Link className="btn btn-small" to={to(offset + pageSize)} rel="next">
          {t("next")} →
        </Link>
      ) : null}
    </nav>
  );
}
