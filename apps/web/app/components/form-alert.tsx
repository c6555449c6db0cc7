/** A line above a form: what went wrong (read out at once), or else what went right; nothing without text. */
function FormAlert({ text, failed }: { text?: string | null; failed: boolean }) {
  return text ? (
    <p
      className={failed ? "alert alert-error" : "alert alert-ok"}
      role={failed ? "alert" : "status"}
      data-testid={failed ? "form-error" : "form-notice"}
    >
      {text}
    </p>
  ) : null;
}

export const FormError = ({ error }: { error?: string | null }) => <FormAlert text={error} failed />;

export const FormNotice = ({ notice }: { notice?: string | null }) => <FormAlert text={notice} failed={false} />;
