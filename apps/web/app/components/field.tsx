import type {
  CSSProperties,
  InputHTMLAttributes,
  ReactNode,
  SelectHTMLAttributes,
  TextareaHTMLAttributes,
} from "react";

interface Framed {
  /** The label's text. */
  label: ReactNode;
  /** A line under the control; it takes the control's `aria-describedby` as its id. */
  hint?: ReactNode;
  hintTestId?: string;
  /** The style of the `.field` around the label and the control. */
  fieldStyle?: CSSProperties;
}

/** A form's labelled field: `.field` around the label, the control (`children`) and an optional hint under it. */
export function Field({
  id,
  label,
  hint,
  hintId,
  hintTestId,
  fieldStyle,
  children,
}: Framed & { id: string; hintId?: string; children: ReactNode }) {
  return (
    <div className="field" style={fieldStyle}>
      <label htmlFor={id}>{label}</label>
      {children}
      {hint ? (
        <span id={hintId} className="small muted" data-testid={hintTestId}>
          {hint}
        </span>
      ) : null}
    </div>
  );
}

/** Splits a labelled control's props: what frames it (for `Field`), and the control's own. */
function framed<P extends Framed & { id: string; "aria-describedby"?: string }>({
  label,
  hint,
  hintTestId,
  fieldStyle,
  ...control
}: P) {
  const frame = { id: control.id, label, hint, hintTestId, fieldStyle, hintId: control["aria-describedby"] };
  return [frame, control] as const;
}

/** A labelled `<input>`: every other prop is the input's own. */
export function InputField(props: Framed & InputHTMLAttributes<HTMLInputElement> & { id: string }) {
  const [frame, input] = framed(props);
  return (
    <Field {...frame}>
      <input {...input} />
    </Field>
  );
}

/** A labelled `<textarea>`: every other prop is the textarea's own. */
export function TextAreaField(props: Framed & TextareaHTMLAttributes<HTMLTextAreaElement> & { id: string }) {
  const [frame, textarea] = framed(props);
  return (
    <Field {...frame}>
      <textarea {...textarea} />
    </Field>
  );
}

/** A labelled `<select>`, its options the children: every other prop is the select's own. */
export function SelectField(props: Framed & SelectHTMLAttributes<HTMLSelectElement> & { id: string }) {
  const [frame, select] = framed(props);
  return (
    <Field {...frame}>
      <select {...select} />
    </Field>
  );
}

/** A checkbox with its text after it: every other prop is the input's own. */
export function CheckboxField({ label, ...input }: { label: ReactNode } & InputHTMLAttributes<HTMLInputElement>) {
  return (
    <label className="row small">
      <input type="checkbox" {...input} />
      {label}
    </label>
  );
}

/** A form's main button, on a row of its own. */
export function SubmitRow({ busy, testId, children }: { busy: boolean; testId: string; children: ReactNode }) {
  return (
    <div className="row">
      <button type="submit" className="btn btn-primary" disabled={busy} data-testid={testId}>
        {children}
      </button>
    </div>
  );
}
