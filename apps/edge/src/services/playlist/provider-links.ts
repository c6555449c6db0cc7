/** The music providers a link or id can name. */
export const PROVIDERS = [
  "spotify",
  "apple",
  "youtube",
  "soundcloud",
  "audius",
  "deezer",
  "tidal",
  "sevenDigital",
  "napster",
  "amazonMusic",
  "pandora",
  "yandex",
  "spinrilla",
  "uploadService",
] as const;
export type Provider = (typeof PROVIDERS)[number];

export interface ParsedLink {
  provider: Provider;
  /** The provider's id of the track (for SoundCloud and Audius, the track's path). */
  id: string;
}

const rules: { hosts: RegExp; provider: Provider; id: (url: URL) => string | null }[] = [
  {
    hosts: /(^|\.)spotify\.com$/,
    provider: "spotify",
    id: (u) => u.pathname.match(/\/track\/([A-Za-z0-9]{22})/)?.[1] ?? null,
  },
  {
    hosts: /(^|\.)music\.apple\.com$/,
    provider: "apple",
    id: (u) => u.searchParams.get("i") ?? u.pathname.match(/\/song\/(?:[^/]+\/)?(\d+)/)?.[1] ?? null,
  },
  {
    hosts: /(^|\.)(youtube\.com|music\.youtube\.com)$/,
    provider: "youtube",
    id: (u) => u.searchParams.get("v") ?? u.pathname.match(/\/(?:shorts|embed)\/([\w-]{11})/)?.[1] ?? null,
  },
  { hosts: /^youtu\.be$/, provider: "youtube", id: (u) => u.pathname.match(/^\/([\w-]{11})/)?.[1] ?? null },
  {
    hosts: /(^|\.)soundcloud\.com$/,
    provider: "soundcloud",
    id: (u) => (/^\/[\w-]+\/[\w-]+\/?$/.test(u.pathname) ? u.pathname.replace(/^\/|\/$/g, "") : null),
  },
  {
    hosts: /(^|\.)audius\.co$/,
    provider: "audius",
    id: (u) => (/^\/[\w.-]+\/[\w.-]+\/?$/.test(u.pathname) ? u.pathname.replace(/^\/|\/$/g, "") : null),
  },
  { hosts: /(^|\.)deezer\.com$/, provider: "deezer", id: (u) => u.pathname.match(/\/track\/(\d+)/)?.[1] ?? null },
  { hosts: /(^|\.)tidal\.com$/, provider: "tidal", id: (u) => u.pathname.match(/\/track\/(\d+)/)?.[1] ?? null },
  { hosts: /(^|\.)napster\.com$/, provider: "napster", id: (u) => u.pathname.match(/\/track\/([\w.-]+)/)?.[1] ?? null },
  {
    hosts: /(^|\.)music\.amazon\.[a-z.]+$/,
    provider: "amazonMusic",
    id: (u) => u.searchParams.get("trackAsin") ?? u.pathname.match(/\/tracks\/(\w+)/)?.[1] ?? null,
  },
  { hosts: /(^|\.)pandora\.com$/, provider: "pandora", id: (u) => u.pathname.match(/\/(TR:?\w+)$/)?.[1] ?? null },
  {
    hosts: /(^|\.)music\.yandex\.[a-z]+$/,
    provider: "yandex",
    id: (u) => u.pathname.match(/\/track\/(\d+)/)?.[1] ?? null,
  },
  {
    hosts: /(^|\.)spinrilla\.com$/,
    provider: "spinrilla",
    id: (u) => u.pathname.match(/\/songs\/([\w-]+)/)?.[1] ?? null,
  },
  { hosts: /(^|\.)7digital\.com$/, provider: "sevenDigital", id: (u) => u.pathname.match(/\/(\d+)$/)?.[1] ?? null },
];

/** Reads a provider track link (https URL or a spotify:track: URI); null when it is not a track link we know. */
export function parseProviderLink(link: string): ParsedLink | null {
  const uri = link.match(/^spotify:track:([A-Za-z0-9]{22})$/);
  if (uri?.[1]) return { provider: "spotify", id: uri[1] };
  const web = webLink(link);
  if (!web) return null;
  const { url, host } = web;
  for (const rule of rules) {
    if (!rule.hosts.test(host)) continue;
    const id = rule.id(url);
    if (id) return { provider: rule.provider, id };
  }
  return null;
}

/** A link's URL and its host (lowercase, without `www.` or `m.`), when it is an http(s) URL; null for anything else. */
export function webLink(link: string): { url: URL; host: string } | null {
  let url: URL;
  try {
    url = new URL(link);
  } catch {
    return null;
  }
  if (url.protocol !== "https:" && url.protocol !== "http:") return null;
  return { url, host: url.hostname.toLowerCase().replace(/^(www|m)\./, "") };
}
