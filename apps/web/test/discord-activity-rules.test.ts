/** The web server's rules of the Discord Activity (lib/discord-activity.server.ts), without a browser or a server. */
import { describe, expect, it } from "vitest";
import { configOf, readWebSettings } from "../app/config.server.ts";
import { activityMappings, crossSiteChange, isActivityRequest } from "../app/lib/discord-activity.server.ts";
import { activitySecurityPolicy } from "../app/lib/security.server.ts";

const config = (env: Record<string, string> = {}) =>
  configOf(
    readWebSettings({
      DISCORD_CLIENT_ID: "1234567890",
      BOOTH_EDGE_URL: "http://edge.internal:8787",
      BOOTH_PUBLIC_EDGE_URL: "https://api.booth.example",
      BOOTH_PUBLIC_PARTY_URL: "https://live.booth.example",
      CSP_MEDIA_HOSTS: "https://p.scdn.co https://*.sndcdn.com",
      CSP_IMAGE_HOSTS: "https://i.scdn.co",
      ...env,
    }),
  );
const ACTIVITY = "?frame_id=f&instance_id=i&platform=desktop&guild_id=1&channel_id=2";

describe("Activity mode", () => {
  it("is Discord's query or the Activity's cookie, and never without DISCORD_CLIENT_ID", () => {
    const c = config();
    expect(isActivityRequest(new Request(`https://booth.example/${ACTIVITY}`), c)).toBe(true);
    expect(
      isActivityRequest(
        new Request("https://booth.example/rooms/x", { headers: { cookie: "a=b; booth_activity=1" } }),
        c,
      ),
    ).toBe(true);
    expect(isActivityRequest(new Request("https://booth.example/?frame_id=f"), c)).toBe(false);
    expect(
      isActivityRequest(new Request("https://booth.example/rooms/x", { headers: { cookie: "booth_activity=0" } }), c),
    ).toBe(false);
    const off = configOf(readWebSettings({}));
    expect(isActivityRequest(new Request(`https://booth.example/${ACTIVITY}`), off)).toBe(false);
  });

  it("maps the edge, the party, the players and the exact media and image hosts to /.proxy prefixes", () => {
    const mappings = activityMappings(config({ DISCORD_PROXY_MAPPINGS: "cdn=cdn.booth.example" }));
    expect(mappings.slice(0, 2)).toEqual([
      { prefix: "/.proxy/edge", target: "api.booth.example" },
      { prefix: "/.proxy/party", target: "live.booth.example" },
    ]);
    expect(mappings).toEqual(
      expect.arrayContaining([
        { prefix: "/.proxy/youtube", target: "www.youtube.com" },
        { prefix: "/.proxy/p-scdn-co", target: "p.scdn.co" },
        { prefix: "/.proxy/i-scdn-co", target: "i.scdn.co" },
        { prefix: "/.proxy/cdn", target: "cdn.booth.example" },
      ]),
    );
    // A wildcard host cannot be a mapping's target.
    expect(mappings.some((m) => m.target.includes("*"))).toBe(false);
    expect(new Set(mappings.map((m) => m.target)).size).toBe(mappings.length);
    expect(() => readWebSettings({ DISCORD_PROXY_MAPPINGS: "no-equals-sign" })).toThrow(/DISCORD_PROXY_MAPPINGS/);
    expect(() => readWebSettings({ DISCORD_PROXY_MAPPINGS: "Bad Prefix=x.com" })).toThrow(/DISCORD_PROXY_MAPPINGS/);
  });

  it("refuses another site's changes, not the frame's own nor reads", () => {
    const post = (site: string | null, method = "POST") =>
      new Request("https://booth.example/discord-activity/sign-in", {
        method,
        headers: site ? { "sec-fetch-site": site } : {},
      });
    expect(crossSiteChange(post("cross-site"))).toBe(true);
    expect(crossSiteChange(post("same-site"))).toBe(true);
    expect(crossSiteChange(post("same-origin"))).toBe(false);
    expect(crossSiteChange(post("cross-site", "GET"))).toBe(false);
    expect(crossSiteChange(post(null))).toBe(false);
  });

  it("has a policy of 'self' alone, framed by Discord's ancestors", () => {
    const policy = activitySecurityPolicy("n0nce", config().settings.DISCORD_FRAME_ANCESTORS);
    expect(policy).toContain("connect-src 'self';");
    expect(policy).toContain("script-src 'self' 'nonce-n0nce';");
    expect(policy).toContain("frame-ancestors https://discord.com https://*.discord.com https://*.discordsays.com");
    expect(policy).not.toContain("edge.internal");
    expect(activitySecurityPolicy("n", [])).toContain("frame-ancestors 'none'");
  });
});
