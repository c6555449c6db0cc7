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

/** A labelled `<input>`: every other prop is the input's own. */
export function InputField({
  label,
  hint,
  hintTestId,
  fieldStyle,
  ...input
}: Framed & InputHTMLAttributes<HTMLInputElement> & { id: string }) {
  return (
    <Field {...{ id: input.id, label, hint, hintTestId, fieldStyle }} hintId={input["aria-describedby"]}>
      <input {...input} />
    </Field>
  );
}

/** A labelled `<textarea>`: every other prop is the textarea's own. */
export function TextAreaField({
  label,
  hint,
  hintTestId,
  fieldStyle,
  ...textarea
}: Framed & TextareaHTMLAttributes<HTMLTextAreaElement> & { id: string }) {
  return (
    <Field {...{ id: textarea.id, label, hint, hintTestId, fieldStyle }} hintId={textarea["aria-describedby"]}>
      <textarea {...textarea} />
    </Field>
  );
}

/** A labelled `<select>`, its options the children: every other prop is the select's own. */
export function SelectField({
  label,
  hint,
  hintTestId,
  fieldStyle,
  children,
  ...select
}: Framed & SelectHTMLAttributes<HTMLSelectElement> & { id: string }) {
  return (
    <Field {...{ id: select.id, label, hint, hintTestId, fieldStyle }} hintId={select["aria-describedby"]}>
      <select {...select}>{children}</select>
    </Field>
  );
}
