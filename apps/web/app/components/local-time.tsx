import { useEffect, useState } from "react";

/**
 * The minutes the viewer's clock is behind UTC (`Date#getTimezoneOffset`), once the page runs in their browser; 0 on
 * the server, which does not know where they are. Forms send it with their times (`tzOffset`).
 */
export function useTimeZoneOffset() {
  const [offset, setOffset] = useState<number | null>(null);
  useEffect(() => setOffset(new Date().getTimezoneOffset()), []);
  return offset;
}

/** The name of the viewer's time zone, or UTC before the page runs in their browser. */
export function useTimeZoneName() {
  const [zone, setZone] = useState("UTC");
  useEffect(() => setZone(Intl.DateTimeFormat().resolvedOptions().timeZone || "UTC"), []);
  return zone;
}

/** `iso` as a `datetime-local` value in the zone `offset` minutes behind UTC. */
export function toLocalInput(iso: string, offset: number) {
  return new Date(Date.parse(iso) - offset * 60_000).toISOString().slice(0, 16);
}

/** A date and time in the viewer's zone (UTC until the page runs in their browser, then theirs). */
export function LocalTime({ iso, lang }: { iso: string; lang: string }) {
  const zone = useTimeZoneName();
  const text = new Intl.DateTimeFormat(lang, {
    dateStyle: "medium",
    timeStyle: "short",
    timeZone: zone,
  }).format(new Date(iso));
  return <time dateTime={iso}>{text}</time>;
}
