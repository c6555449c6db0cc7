/**
 * Booth as a Discord Activity (docs/discord.md, decision 0028): how the web server tells that a request comes from
 * Discord's Activity frame, the URL mappings every call leaving the frame goes through (Discord's proxy paths
 * `/.proxy/<prefix>/...`), and what differs in the answers: the cookies of a third-party frame, the page's policy,
 * who may frame it.
 *
 * A request is the Activity's when it carries the query Discord adds when it opens the Activity (frame_id,
 * instance_id, platform), or the Activity cookie the first such page set. Outside Discord the cookie is never set
 * (the Activity's pages are on Discord's own origin, `<application id>.discordsays.com`, whose cookies no other page
 * sees), so nothing changes there. Without DISCORD_CLIENT_ID no request is the Activity's.
 */
import { mediaOrigin } from "@booth/sdk/media";
import type { WebConfig } from "../config.server.ts";
import { DISCORD_MODE_HEADER } from "./visitor.server.ts";

export { DISCORD_MODE_HEADER };

/** The query Discord adds to the Activity's first page. */
export const ACTIVITY_QUERY = ["frame_id", "instance_id", "platform"] as const;
/** The cookie that keeps a browser in Activity mode after the first page (SameSite=None, Partitioned). */
export const ACTIVITY_COOKIE = "booth_activity";
/** Where Discord's proxy serves each URL mapping, from the frame's own origin. */
export const PROXY_ROOT = "/.proxy";

export interface UrlMapping {
  /** The path the browser calls instead, on the frame's origin: `/.proxy/<prefix>`. */
  prefix: string;
  /** The host (and port, and path) Discord's proxy forwards to: what the Developer Portal's mapping names. */
  target: string;
}

const hostOf = (url: string | null | undefined) => {
  if (!url) return null;
  try {
    const u = new URL(url);
    return u.host + (u.pathname === "/" ? "" : u.pathname.replace(/\/+$/, ""));
  } catch {
    return null;
  }
};

/** Whether `request` comes from the Activity frame (Discord's query, or the cookie of an earlier page). */
export function isActivityRequest(request: Request, config: WebConfig): boolean {
  if (!config.settings.DISCORD_CLIENT_ID) return false;
  const query = new URL(request.url).searchParams;
  if (ACTIVITY_QUERY.every((name) => query.has(name))) return true;
  const cookies = request.headers.get("cookie") ?? "";
  return cookies.split(";").some((c) => c.trim() === `${ACTIVITY_COOKIE}=1`);
}

/**
 * The Activity's URL mappings, made from the settings: the edge (`/edge`), the live rooms (`/party`), the bucket or
 * MEDIA_BASE_URL songs' segments come from (`/media`), the providers' player scripts and APIs, and the media and
 * image hosts without a wildcard (their host name with dashes: `/p-scdn-co`), then DISCORD_PROXY_MAPPINGS. Each
 * target once (the first name wins). The Developer Portal needs the same list (`GET /discord-activity/mappings`).
 */
export function activityMappings(config: WebConfig): UrlMapping[] {
  const { settings, players } = config;
  const named: [string, string | null][] = [
    ["edge", hostOf(config.publicEdgeUrl)],
    ["party", hostOf(config.publicPartyUrl)],
    ["media", hostOf(mediaOrigin(settings))],
    ["youtube", hostOf(new URL(players.youtube).origin)],
    ["soundcloud", hostOf(new URL(players.soundcloud).origin)],
    ["soundcloud-widget", hostOf(new URL(players.soundcloudWidget).origin)],
    ["spotify-sdk", hostOf(new URL(players.spotify).origin)],
    ["spotify-api", hostOf(players.spotifyApi)],
    ["musickit", hostOf(new URL(players.musicKit).origin)],
  ];
  for (const host of [...settings.CSP_MEDIA_HOSTS, ...settings.CSP_IMAGE_HOSTS]) {
    if (host.includes("*")) continue;
    const h = hostOf(host.includes("://") ? host : `https://${host}`);
    if (h) named.push([h.replace(/[^a-z0-9]+/gi, "-").toLowerCase(), h]);
  }
  for (const { prefix, target } of settings.DISCORD_PROXY_MAPPINGS) named.push([prefix, target]);
  const seen = new Set<string>();
  const out: UrlMapping[] = [];
  for (const [prefix, target] of named) {
    if (!target || seen.has(target)) continue;
    seen.add(target);
    out.push({ prefix: `${PROXY_ROOT}/${prefix}`, target });
  }
  return out;
}

/** What the Activity's page needs: Booth's Discord application and the mappings (the root's meta tag). */
export const activitySettings = (config: WebConfig) => ({
  clientId: config.settings.DISCORD_CLIENT_ID ?? "",
  mappings: activityMappings(config),
});
export type ActivitySettings = ReturnType<typeof activitySettings>;

/**
 * The cookie attributes of a third-party frame: sent with the frame's requests (SameSite=None, which needs Secure),
 * and kept apart per top-level site (Partitioned: Chromium's CHIPS, so the cookie works where third-party cookies are
 * blocked).
 */
export const THIRD_PARTY_COOKIE = { sameSite: "none", secure: true, partitioned: true } as const;

/** The Activity cookie, set by the Activity's first page. */
export const activityCookie = () =>
  `${ACTIVITY_COOKIE}=1; Path=/; HttpOnly; SameSite=None; Secure; Partitioned; Max-Age=${30 * 24 * 3600}`;

/**
 * A request the Activity's pages did not make themselves: one of another site's (Sec-Fetch-Site cross-site or
 * same-site) that changes something. The Activity's cookies are SameSite=None, so the browser sends them with
 * another site's form posts too: those are refused (the SameSite=Lax cookie refuses them outside the Activity).
 */
export function crossSiteChange(request: Request): boolean {
  if (request.method === "GET" || request.method === "HEAD" || request.method === "OPTIONS") return false;
  // Behind Discord's proxy the Origin header is Discord's (the frame's), not this server's: Sec-Fetch-Site, which
  // every browser Discord runs in sends, tells the frame's own requests apart. A client that sends none is no browser
  // another site can drive.
  const site = request.headers.get("sec-fetch-site");
  return !!site && site !== "same-origin" && site !== "none";
}
