/** The web's Content-Security-Policy and hardening headers, against the built app (no browser). */
import { beforeAll, describe, expect, it } from "vitest";
import { configOf, readWebSettings } from "../app/config.server.ts";
import { contentSecurityPolicy, contentSourcesOf } from "../app/lib/security.server.ts";
import { createWebHandler } from "../server.ts";
import { buildOnce } from "./harness.ts";

let handle: (request: Request) => Promise<Response>;
beforeAll(async () => {
  await buildOnce();
  handle = await createWebHandler();
}, 240_000);

const page = (path: string) =>
  handle(new Request(`http://127.0.0.1:3000${path}`, { headers: { accept: "text/html" } }));
const directive = (policy: string, name: string) =>
  policy
    .split(";")
    .map((d) => d.trim().split(/\s+/))
    .find(([n]) => n === name)
    ?.slice(1);

describe("content security policy", () => {
  it("sends every page a policy whose fresh nonce is on each of the page's scripts, and nothing inline else runs", async () => {
    const nonces = new Set<string>();
    // Pages with the app's scripts that need no edge (the sign-in screens have none: "sends the sign-in screens as
    // HTML alone"; an address that is no page is answered by the app's own page, scripts and all).
    for (const path of ["/no-such-page", "/nowhere/at/all", "/missing"]) {
      const res = await page(path);
      const policy = res.headers.get("content-security-policy") ?? "";
      const nonce = policy.match(/'nonce-([A-Za-z0-9+/=]+)'/)?.[1] ?? "";
      expect(nonce.length).toBeGreaterThanOrEqual(16);
      nonces.add(nonce);
      const html = await res.text();
      const scripts = [...html.matchAll(/<script\b[^>]*>/g)].map((m) => m[0]);
      expect(scripts.length).toBeGreaterThan(0);
      for (const script of scripts)
        expect({ path, script }).toEqual({ path, script: expect.stringContaining(`nonce="${nonce}"`) });
      expect(html).not.toMatch(/\son[a-z]+="/);
      // Besides the page's own: the providers' player scripts, from their own hosts by default.
      expect(directive(policy, "script-src")).toEqual([
        "'self'",
        `'nonce-${nonce}'`,
        "https://www.youtube.com",
        "https://w.soundcloud.com",
        "https://sdk.scdn.co",
        "https://js-cdn.music.apple.com",
      ]);
      expect(directive(policy, "frame-ancestors")).toEqual(["'none'"]);
      expect(directive(policy, "object-src")).toEqual(["'none'"]);
      expect(directive(policy, "connect-src")).toEqual(
        expect.arrayContaining(["'self'", "http://127.0.0.1:8787", "ws://127.0.0.1:1999"]),
      );
      expect(res.headers.get("x-content-type-options")).toBe("nosniff");
      expect(res.headers.get("referrer-policy")).toBe("strict-origin-when-cross-origin");
      expect(res.headers.get("x-frame-options")).toBe("DENY");
    }
    expect(nonces.size).toBe(3);
    const file = await handle(new Request("http://127.0.0.1:3000/favicon.svg"));
    expect(file.status).toBe(200);
    expect(file.headers.get("x-content-type-options")).toBe("nosniff");
  });

  it("sends the sign-in screens as HTML alone: no script, no module to preload, under the same policy", async () => {
    for (const path of [
      "/login?next=/ranking",
      "/signup",
      "/forgot-password",
      "/reset-password?token=x",
      "/magic-link",
      "/phone",
    ]) {
      const res = await page(path);
      expect({ path, status: res.status }).toEqual({ path, status: 200 });
      const html = await res.text();
      expect({ path, scripts: html.match(/<script\b[^>]*>/g) ?? [] }).toEqual({ path, scripts: [] });
      expect({ path, modules: html.match(/[^"'\s]+\.js\b/g) ?? [] }).toEqual({ path, modules: [] });
      expect(html).toMatch(/<form method="post"/);
      expect(res.headers.get("content-security-policy")).toMatch(/script-src 'self' 'nonce-/);
    }
    // The others keep theirs.
    expect(await (await page("/no-such-page")).text()).toMatch(/<script\b[^>]*type="module"/);
  });

  it("lets media, images and frames come only from Booth's origins and the configured provider hosts", () => {
    const policy = contentSecurityPolicy("abc", {
      edge: "https://api.booth.test",
      party: ["https://party.booth.test", "wss://party.booth.test"],
      media: ["https://p.scdn.co"],
      images: ["https://i.scdn.co"],
      frames: [],
      players: {
        scripts: ["https://www.youtube.com"],
        frames: ["https://w.soundcloud.com"],
        connect: ["https://api.spotify.com"],
      },
    });
    expect(directive(policy, "media-src")).toEqual(["'self'", "blob:", "https://api.booth.test", "https://p.scdn.co"]);
    expect(directive(policy, "img-src")).toEqual([
      "'self'",
      "data:",
      "blob:",
      "https://api.booth.test",
      "https://i.scdn.co",
    ]);
    // The providers' players: their scripts, their frames and their API, nothing more.
    expect(directive(policy, "script-src")).toEqual(["'self'", "'nonce-abc'", "https://www.youtube.com"]);
    expect(directive(policy, "frame-src")).toEqual(["'self'", "https://w.soundcloud.com"]);
    expect(directive(policy, "connect-src")).toEqual([
      "'self'",
      "https://api.booth.test",
      "https://party.booth.test",
      "wss://party.booth.test",
      "https://api.spotify.com",
    ]);
    expect(directive(policy, "default-src")).toEqual(["'self'"]);
    expect(policy).not.toContain("unsafe-eval");
  });

  it("lets 7digital's clips play from the configured preview service's origin, and from 7digital's own by default", () => {
    const media = (environment: Record<string, string>) =>
      directive(contentSecurityPolicy("abc", contentSourcesOf(configOf(readWebSettings(environment)))), "media-src");
    expect(media({ CSP_MEDIA_HOSTS: "" })).toContain("https://previews.7digital.com");
    const configured = media({ SEVENDIGITAL_PREVIEWS_URL: "http://127.0.0.1:4455/", CSP_MEDIA_HOSTS: "" });
    expect(configured).toContain("http://127.0.0.1:4455");
    expect(configured).not.toContain("https://previews.7digital.com");
    expect(
      directive(contentSecurityPolicy("abc", contentSourcesOf(configOf(readWebSettings({})))), "connect-src"),
    ).not.toContain("https://previews.7digital.com");
  });

  it("lets Audius's streams play from the configured Audius hosts only, and from Audius's own by default", () => {
    const media = (environment: Record<string, string>) =>
      directive(contentSecurityPolicy("abc", contentSourcesOf(configOf(readWebSettings(environment)))), "media-src");
    expect(media({})).toEqual(expect.arrayContaining(["https://api.audius.co", "https://*.audius.co"]));
    const configured = media({ AUDIUS_MEDIA_HOSTS: "https://audius.example.net", CSP_MEDIA_HOSTS: "" });
    expect(configured).toContain("https://audius.example.net");
    expect(configured?.filter((h) => h.includes("audius"))).toEqual(["https://audius.example.net"]);
    expect(
      directive(contentSecurityPolicy("abc", contentSourcesOf(configOf(readWebSettings({})))), "img-src"),
    ).not.toContain("https://api.audius.co");
  });

  it("lets the player fetch songs' segments from the bucket or MEDIA_BASE_URL the edge names, told by the edge's settings", () => {
    const sources = (env: Record<string, string>) => {
      const config = configOf(readWebSettings(env));
      return contentSourcesOf(config).segments;
    };
    expect(sources({})).toBeNull();
    expect(sources({ S3_BUCKET: "media", S3_REGION: "eu-west-3" })).toBe("https://media.s3.eu-west-3.amazonaws.com");
    expect(
      sources({ S3_BUCKET: "media", S3_ENDPOINT: "https://acc.r2.cloudflarestorage.com", S3_REGION: "auto" }),
    ).toBe("https://media.acc.r2.cloudflarestorage.com");
    expect(sources({ S3_BUCKET: "m", S3_ENDPOINT: "http://127.0.0.1:9000", S3_FORCE_PATH_STYLE: "true" })).toBe(
      "http://127.0.0.1:9000",
    );
    expect(sources({ S3_BUCKET: "m", MEDIA_BASE_URL: "https://cdn.booth.test/media/" })).toBe("https://cdn.booth.test");
    const policy = contentSecurityPolicy("abc", {
      edge: "https://api.booth.test",
      party: [],
      media: [],
      images: [],
      frames: [],
      players: { scripts: [], frames: [], connect: [] },
      segments: "https://cdn.booth.test",
    });
    expect(directive(policy, "connect-src")).toEqual(["'self'", "https://api.booth.test", "https://cdn.booth.test"]);
    expect(directive(policy, "media-src")).toEqual([
      "'self'",
      "blob:",
      "https://api.booth.test",
      "https://cdn.booth.test",
    ]);
  });
});
