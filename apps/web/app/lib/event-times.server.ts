import { field } from "./forms.ts";

const LOCAL = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}$/;

/**
 * A `datetime-local` field read in the person's zone (`tzOffset`: minutes behind UTC, sent by the page; UTC when
 * absent), as the ISO time the edge takes. Anything else is passed on as typed, for the edge to refuse in its words.
 */
export function timeField(form: FormData, name: string) {
  const value = field(form, name);
  if (!LOCAL.test(value)) return value;
  const offset = Number.parseInt(field(form, "tzOffset"), 10);
  const utc = Date.parse(`${value}:00Z`);
  if (Number.isNaN(utc)) return value;
  return new Date(utc + (Number.isFinite(offset) && Math.abs(offset) <= 24 * 60 ? offset : 0) * 60_000).toISOString();
}
