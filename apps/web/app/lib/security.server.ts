import { mediaOrigin } from "@booth/sdk/media";
import { type WebConfig, webConfig } from "../config.server.ts";
import { playerSourcesOf } from "./player-scripts.server.ts";

/**
 * Hardening headers every response of the web app carries. The opener policy keeps other sites' windows that open
 * Booth from reaching it; it allows popups Booth itself opens, because the only ones are sign-in windows that must
 * answer their opener (MusicKit's `authorize`, on the connected-accounts screen): under `same-origin` Chromium severs
 * them, and MusicKit sees its window as closed at once. Booth's links to other sites open with `noopener`.
 */
export const SECURITY_HEADERS: Record<string, string> = {
  "x-content-type-options": "nosniff",
  "referrer-policy": "strict-origin-when-cross-origin",
  "x-frame-options": "DENY",
  "cross-origin-opener-policy": "same-origin-allow-popups",
};

/** A fresh nonce for one response's inline scripts. */
export function newNonce() {
  return Buffer.from(crypto.getRandomValues(new Uint8Array(18))).toString("base64");
}

const origin = (url: string) => {
  try {
    return new URL(url).origin;
  } catch {
    return null;
  }
};

/** The party's sockets: ws(s) on the party's host, as the live-room client opens them. */
const socketOrigin = (url: string) => origin(url.replace(/^http/, "ws"));

/**
 * Where pages may load from besides their own origin: the edge (API, HLS, covers and avatars), the party's sockets,
 * and the streaming providers' CDNs whose previews and covers the catalogue links to. The provider lists can be set
 * (`CSP_MEDIA_HOSTS`, `CSP_IMAGE_HOSTS`, `CSP_FRAME_HOSTS`; empty for none); their defaults are the hosts the edge's
 * provider adapters hand out today. Audius's full-length streams play from `AUDIUS_MEDIA_HOSTS`, 7digital's clips from
 * the origin of `SEVENDIGITAL_PREVIEWS_URL` (media only). Songs'
 * encrypted segments may come from the bucket (or MEDIA_BASE_URL) the edge names in its playlists: the same settings
 * as the edge's tell its origin.
 */
export const contentSourcesOf = ({ publicEdgeUrl, publicPartyUrl, settings, players }: WebConfig) => ({
  edge: origin(publicEdgeUrl),
  party: [origin(publicPartyUrl), socketOrigin(publicPartyUrl)],
  media: [
    ...settings.CSP_MEDIA_HOSTS,
    ...settings.AUDIUS_MEDIA_HOSTS,
    new URL(settings.SEVENDIGITAL_PREVIEWS_URL).origin,
  ],
  /** Where hls.js (connect-src) and a browser's own HLS (media-src) fetch songs' segments, besides the edge. */
  segments: mediaOrigin(settings),
  images: settings.CSP_IMAGE_HOSTS,
  frames: settings.CSP_FRAME_HOSTS,
  /** Where the pages send their errors: the origin of SENTRY_BROWSER_DSN, when set (lib/error-reports.ts). */
  sentry: settings.SENTRY_BROWSER_DSN ? origin(settings.SENTRY_BROWSER_DSN) : null,
  /** The providers' players (player-scripts.server.ts): their scripts, frames and API calls. */
  players: playerSourcesOf(players),
});

export type ContentSources = Omit<ReturnType<typeof contentSourcesOf>, "sentry" | "segments"> & {
  sentry?: string | null;
  segments?: string | null;
};

let sources: ContentSources | undefined;
/** This server's sources, from its configuration (made at the first page). */
const contentSources = () => {
  sources ??= contentSourcesOf(webConfig());
  return sources;
};

/**
 * The page's Content-Security-Policy: scripts only from this origin and the inline ones Remix writes with this
 * response's nonce; nothing a room or a song names can run, frame the page, or be fetched from elsewhere.
 * Style attributes stay allowed (React's `style` props); style sheets come from this origin only.
 */
export function contentSecurityPolicy(nonce: string, sources: ContentSources = contentSources()) {
  const edge = sources.edge ? [sources.edge] : [];
  const sentry = sources.sentry ? [sources.sentry] : [];
  const party = sources.party.filter((o): o is string => !!o);
  const segments = sources.segments ? [sources.segments] : [];
  const directives: Record<string, string[]> = {
    "default-src": ["'self'"],
    "script-src": ["'self'", `'nonce-${nonce}'`, ...sources.players.scripts],
    "style-src": ["'self'"],
    "style-src-attr": ["'unsafe-inline'"],
    "img-src": ["'self'", "data:", "blob:", ...edge, ...sources.images],
    // hls.js plays through Media Source Extensions: the audio element's source is a blob: URL.
    "media-src": ["'self'", "blob:", ...edge, ...segments, ...sources.media],
    "connect-src": ["'self'", ...edge, ...segments, ...party, ...sources.players.connect, ...sentry],
    "font-src": ["'self'"],
    "worker-src": ["'self'"],
    "frame-src": ["'self'", ...sources.frames, ...sources.players.frames],
    "object-src": ["'none'"],
    "base-uri": ["'self'"],
    // Buying a bundle ends on the checkout page (Stripe's, or the edge's local test checkout), even without scripts.
    "form-action": ["'self'", ...edge, "https://checkout.stripe.com"],
    "frame-ancestors": ["'none'"],
  };
  return Object.entries(directives)
    .map(([name, values]) => `${name} ${[...new Set(values)].join(" ")}`)
    .join("; ");
}

/**
 * The policy of the Discord Activity's pages. In the Activity every call that leaves the frame goes through Discord's
 * proxy, on the frame's own origin (`/.proxy/<prefix>/...`, the page's URL mappings: discord-activity.server.ts), so
 * everything the page loads, plays, frames or connects to is 'self' (CSP 3's 'self' covers the origin's ws:/wss:
 * sockets too), and scripts are this origin's and the nonced inline ones. Only Discord may frame the page
 * (DISCORD_FRAME_ANCESTORS).
 */
export function activitySecurityPolicy(nonce: string, frameAncestors: readonly string[]) {
  const directives: Record<string, string[]> = {
    "default-src": ["'self'"],
    "script-src": ["'self'", `'nonce-${nonce}'`],
    "style-src": ["'self'"],
    "style-src-attr": ["'unsafe-inline'"],
    "img-src": ["'self'", "data:", "blob:"],
    "media-src": ["'self'", "blob:"],
    "connect-src": ["'self'"],
    "font-src": ["'self'"],
    "worker-src": ["'self'"],
    "frame-src": ["'self'"],
    "object-src": ["'none'"],
    "base-uri": ["'self'"],
    "form-action": ["'self'"],
    "frame-ancestors": frameAncestors.length > 0 ? [...frameAncestors] : ["'none'"],
  };
  return Object.entries(directives)
    .map(([name, values]) => `${name} ${values.join(" ")}`)
    .join("; ");
}
