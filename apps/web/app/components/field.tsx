import type {
  ComponentProps,
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

/** What names a labelled control: its form field's `name`, and its `id` when that is not the name. */
type Named = { name: string; id?: string; "aria-describedby"?: string };

/**
 * A labelled control: `Field` around what `control` makes of every prop but the frame's, the id (the name unless
 * given) on both the label and the control.
 */
function labelled<P extends Named>(control: (props: P & { id: string }) => ReactNode) {
  return ({ label, hint, hintTestId, fieldStyle, ...props }: Framed & P) => {
    const id = props.id ?? props.name;
    return (
      <Field {...{ id, label, hint, hintTestId, fieldStyle }} hintId={props["aria-describedby"]}>
        {/* The rest of P once the frame's props are taken out: TypeScript cannot tell for a generic P. */}
        {control({ ...props, id } as unknown as P & { id: string })}
      </Field>
    );
  };
}

/** A labelled `<input>`: every other prop is the input's own. */
export const InputField = labelled((input: InputHTMLAttributes<HTMLInputElement> & Named) => <input {...input} />);

/** A labelled `<textarea>`: every other prop is the textarea's own. */
export const TextAreaField = labelled((textarea: TextareaHTMLAttributes<HTMLTextAreaElement> & Named) => (
  <textarea {...textarea} />
));

/** A labelled `<select>`, its options the children: every other prop is the select's own. */
export const SelectField = labelled((select: SelectHTMLAttributes<HTMLSelectElement> & Named) => (
  <select {...select} />
));

/** What a room, a community or an event is called: at least 2 characters, as the edge takes them. */
export function NameField(props: Omit<ComponentProps<typeof InputField>, "name" | "required" | "minLength">) {
  return <InputField name="name" required minLength={2} {...props} />;
}

/** What a room, a community or an event is about. */
export function DescriptionField(props: Omit<ComponentProps<typeof TextAreaField>, "name">) {
  return <TextAreaField name="description" {...props} />;
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
