/** A text field of a submitted form, trimmed ("" when absent). */
export const field = (form: FormData, name: string) => {
  const value = form.get(name);
  return typeof value === "string" ? value.trim() : "";
};
