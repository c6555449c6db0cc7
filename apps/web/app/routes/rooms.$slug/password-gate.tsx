import { Link, useFetcher } from "@remix-run/react";
import { useEffect } from "react";
import { useTranslation } from "react-i18next";
import { FormError } from "../../components/form-alert.tsx";

/** What `checkRoomPassword` (room.server.ts) answers. */
type Checked =
  | { ok: "enter"; kind: "password" | "guestPassword"; password: string }
  | { error: string; kind: "password" | "guestPassword" };

/**
 * The prompt of a room with a password (or, for guests, a guest password): the edge checks what was typed, and only
 * then does the page enter the room with it (`onAdmitted`); a refusal is shown in the edge's words.
 */
export function PasswordGate({
  room,
  kind,
  onAdmitted,
}: {
  room: { slug: string; name: string };
  kind: "password" | "guestPassword";
  onAdmitted: (admitted: { kind: "password" | "guestPassword"; password: string }) => void;
}) {
  const { t } = useTranslation("rooms");
  const check = useFetcher<Checked>();
  const answer = check.data as Checked | undefined;
  const admitted = answer && "ok" in answer ? answer : null;
  useEffect(() => {
    if (admitted) onAdmitted({ kind: admitted.kind, password: admitted.password });
  }, [admitted, onAdmitted]);
  const error = answer && "error" in answer ? answer.error : null;
  return (
    <section className="card narrow stack" data-testid="password-gate">
      <h1>{room.name}</h1>
      <h2>{kind === "guestPassword" ? t("enter.guestTitle") : t("enter.title")}</h2>
      <p className="muted small">{kind === "guestPassword" ? t("enter.guestHelp") : t("enter.help")}</p>
      <check.Form method="post" action={`/rooms/${room.slug}?enter`} className="stack">
        <FormError error={error} />
        <input type="hidden" name="kind" value={kind} />
        <div className="field">
          <label htmlFor="room-password">{t("enter.password")}</label>
          <input
            id="room-password"
            name="password"
            type="password"
            autoComplete="current-password"
            required
            maxLength={128}
            // biome-ignore lint/a11y/noAutofocus: the prompt is the whole page: its one field is where typing goes
            autoFocus
          />
        </div>
        <div className="row">
          <button
            type="submit"
            className="btn btn-primary"
            disabled={check.state === "submitting"}
            data-testid="enter-room"
          >
            {check.state === "submitting" ? t("enter.checking") : t("enter.submit")}
          </button>
          <Link to="/" className="btn btn-ghost" aria-label={t("enter.leave")}>
            ←
          </Link>
        </div>
      </check.Form>
    </section>
  );
}
