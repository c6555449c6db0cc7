/** A text field of a submitted form, trimmed ("" when absent). */
export const field = (form: FormData, name: string) => {
  const value = form.get(name);
  return typeof value === "string" ? value.trim() : "";
};

/** Several text fields of a submitted form by name, each trimmed ("" when absent). */
export const fields = <Name extends string>(form: FormData, ...names: Name[]) =>
  Object.fromEntries(names.map((name) => [name, field(form, name)])) as Record<Name, string>;
