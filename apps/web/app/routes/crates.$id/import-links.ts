/**
 * Track links a person pastes to import, read into what the edge's track import takes: a catalogue song id, or the
 * track's id at a music provider. Links of providers the import does not support still say which provider they
 * name, so the edge can answer its own message for them.
 */
export type ImportSong = { songId: string } | { musicProviders: Record<string, string> };

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

const rules: { host: RegExp; provider: string; id: (u: URL) => string | null | undefined }[] = [
  { host: /(^|\.)spotify\.com$/, provider: "spotify", id: (u) => u.pathname.match(/\/track\/([A-Za-z0-9]{22})/)?.[1] },
  {
    host: /(^|\.)music\.apple\.com$/,
    provider: "apple",
    id: (u) => u.searchParams.get("i") ?? u.pathname.match(/\/song\/(?:[^/]+\/)?(\d+)/)?.[1],
  },
  {
    host: /(^|\.)soundcloud\.com$/,
    provider: "soundcloud",
    id: (u) => (/^\/[\w-]+\/[\w-]+\/?$/.test(u.pathname) ? u.pathname.replace(/^\/|\/$/g, "") : null),
  },
  { host: /(^|\.)7digital\.com$/, provider: "sevenDigital", id: (u) => u.pathname.match(/\/(\d+)$/)?.[1] },
  {
    host: /(^|\.)(youtube\.com|music\.youtube\.com)$/,
    provider: "youtube",
    id: (u) => u.searchParams.get("v") ?? u.pathname.match(/\/(?:shorts|embed)\/([\w-]{11})/)?.[1],
  },
  { host: /^youtu\.be$/, provider: "youtube", id: (u) => u.pathname.match(/^\/([\w-]{11})/)?.[1] },
  {
    host: /(^|\.)audius\.co$/,
    provider: "audius",
    id: (u) => (/^\/[\w.-]+\/[\w.-]+\/?$/.test(u.pathname) ? u.pathname.replace(/^\/|\/$/g, "") : null),
  },
  { host: /(^|\.)deezer\.com$/, provider: "deezer", id: (u) => u.pathname.match(/\/track\/(\d+)/)?.[1] },
  { host: /(^|\.)tidal\.com$/, provider: "tidal", id: (u) => u.pathname.match(/\/track\/(\d+)/)?.[1] },
];

/** One pasted line: a Booth song id or song link, a spotify:track: URI, or a provider's track link; else null. */
export function parseImportLine(line: string): ImportSong | null {
  const text = line.trim();
  if (UUID.test(text)) return { songId: text.toLowerCase() };
  const uri = text.match(/^spotify:track:([A-Za-z0-9]{22})$/);
  if (uri?.[1]) return { musicProviders: { spotify: uri[1] } };
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return null;
  }
  if (url.protocol !== "https:" && url.protocol !== "http:") return null;
  const booth = url.pathname.match(/\/songs\/([0-9a-f-]{36})(?:\/|$)/i)?.[1];
  if (booth && UUID.test(booth)) return { songId: booth.toLowerCase() };
  const host = url.hostname.toLowerCase();
  for (const rule of rules) {
    if (!rule.host.test(host)) continue;
    const id = rule.id(url);
    return id ? { musicProviders: { [rule.provider]: id } } : null;
  }
  return null;
}

/** The distinct non-empty lines of what was pasted, at most `max`. */
export const importLines = (text: string, max = 100) =>
  [
    ...new Set(
      text
        .split(/\r?\n/)
        .map((l) => l.trim())
        .filter(Boolean),
    ),
  ].slice(0, max);
