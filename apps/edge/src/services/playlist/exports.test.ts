import { createHmac } from "node:crypto";
import { createServer, type Server } from "node:http";
import { schema } from "@booth/db";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { defaultConfig } from "../../deps.ts";
import { shortId } from "../../lib/ids.ts";
import { firstRow } from "../../lib/rows.ts";
import { listenLocally, requestText } from "../../testing/local-server.ts";
import { createTestApp, expectRefusal, ok, type TestApp, withTestApp } from "../../testing.ts";

// A local stand-in for the Spotify Web API and the Apple Music API: it records requests and answers like them.
const seen: { method: string; url: string; auth: string; userToken: string; body: unknown }[] = [];
const fake: Server = createServer(async (req, res) => {
  const body = await requestText(req);
  seen.push({
    method: req.method ?? "",
    url: req.url ?? "",
    auth: req.headers.authorization ?? "",
    userToken: String(req.headers["music-user-token"] ?? ""),
    body: body ? JSON.parse(body) : null,
  });
  res.setHeader("content-type", "application/json");
  if (req.headers.authorization === "Bearer expired") {
    res.statusCode = 401;
    return res.end("{}");
  }
  if (req.url === "/v1/me") return res.end(JSON.stringify({ id: "dj user" }));
  if (req.url?.endsWith("/playlists") && req.url.startsWith("/v1/users/"))
    return res.end(JSON.stringify({ id: "pl1", external_urls: { spotify: "https://open.spotify.com/playlist/pl1" } }));
  if (req.url === "/v1/me/library/playlists") return res.end(JSON.stringify({ data: [{ id: "p.apple1" }] }));
  res.statusCode = 201;
  res.end(JSON.stringify({ snapshot_id: "s" }));
});

let t: TestApp;
let crateUuid: string;
let token: string;
beforeAll(async () => {
  const base = await listenLocally(fake);
  t = await createTestApp({
    config: {
      ...defaultConfig,
      providers: {
        ...defaultConfig.providers,
        spotifyApiUrl: base,
        appleMusicApiUrl: base,
        appleMusicDeveloperToken: "dev-token",
        cyaniteWebhookSecret: "cyan",
      },
    },
  });
  const user = await t.createUser();
  token = user.token;
  crateUuid = ok(await t.api(token).playlist.POST("/crate", { body: { name: "Road trip" } })).crateUuid;
  const songs = await t.db
    .insert(schema.songs)
    .values([
      {
        shortId: shortId(),
        trackName: "On Both",
        artistName: "A",
        musicProviders: { spotify: "4uLU6hMCjMI75M1A2tKUQC", apple: "155", cyanite: "cy-1" },
      },
      { shortId: shortId(), trackName: "Only Ours", artistName: "B", musicProviders: { uploadService: "u1" } },
    ])
    .returning();
  await t.api(token).playlist.POST("/crate/{id}/songs", {
    params: { path: { id: crateUuid } },
    body: { songIds: songs.map((s) => s.id) },
  });
});
afterAll(async () => {
  await t.close();
  fake.close();
});

const L = "/api/playlist-service";

describe("exports", () => {
  it("creates a Spotify playlist with the songs Spotify knows", async () => {
    seen.length = 0;
    const res = await t
      .api(token)
      .playlist.POST("/exports/spotify", { body: { crateUuid, accessToken: "user-token" } });
    expect(res.response.status).toBe(200);
    expect(res.data).toEqual({
      playlistId: "pl1",
      url: "https://open.spotify.com/playlist/pl1",
      exported: 1,
      skipped: 1,
    });
    expect(seen.map((r) => `${r.method} ${r.url}`)).toEqual([
      "GET /v1/me",
      "POST /v1/users/dj%20user/playlists",
      "POST /v1/playlists/pl1/tracks",
    ]);
    expect(seen[2]?.body).toEqual({ uris: ["spotify:track:4uLU6hMCjMI75M1A2tKUQC"] });
    expect(seen.every((r) => r.auth === "Bearer user-token")).toBe(true);
  });

  it("passes Spotify's refusal of the token on as a 401", async () => {
    const res = await t.api(token).playlist.POST("/exports/spotify", { body: { crateUuid, accessToken: "expired" } });
    expectRefusal(res, 401, "Spotify refused the access token.");
  });

  it("creates an Apple Music library playlist with the developer and user tokens", async () => {
    seen.length = 0;
    const res = await t.api(token).playlist.POST("/exports/apple", { body: { crateUuid, musicUserToken: "mut" } });
    expect(res.data).toMatchObject({ playlistId: "p.apple1", exported: 1, skipped: 1 });
    expect(seen[0]).toMatchObject({ auth: "Bearer dev-token", userToken: "mut" });
    expect(seen[0]?.body).toMatchObject({ relationships: { tracks: { data: [{ id: "155", type: "songs" }] } } });
  });

  it("refuses other users' private crates and anonymous callers", async () => {
    const other = await t.createUser();
    const queue = ok(await t.api(token).playlist.GET("/crate/special/queue")).crateUuid;
    expect(
      (await t.api(other.token).playlist.POST("/exports/spotify", { body: { crateUuid: queue, accessToken: "x" } }))
        .response.status,
    ).toBe(403);
    expect(
      (await t.api().playlist.POST("/exports/spotify", { body: { crateUuid, accessToken: "x" } })).response.status,
    ).toBe(401);
    // Raw: an Apple export without its music user token, which the typed client cannot send.
    expect(
      (await t.request("POST", "/api/playlist-service/exports/apple", { token, body: { crateUuid } })).status,
    ).toBe(400);
  });
});

describe("Cyanite webhook", () => {
  const sign = (body: string, secret = "cyan") => createHmac("sha512", secret).update(body).digest("hex");
  it("stores a signed analysis on the song it is about", async () => {
    const body = JSON.stringify({
      resource: { id: "cy-1", type: "LibraryTrack" },
      event: { type: "AudioAnalysisV6", status: "finished" },
    });
    const res = await t.app.request(`${L}/cyanite/webhook`, {
      method: "POST",
      headers: { "content-type": "application/json", signature: sign(body) },
      body,
    });
    expect(res.status).toBe(200);
    const song = await firstRow(t.db, schema.songs, eq(schema.songs.id, (await res.json()).songId));
    expect(song?.analysis).toMatchObject({ event: { status: "finished" } });
  });

  it("refuses a bad signature and unknown songs", async () => {
    const body = JSON.stringify({ resource: { id: "cy-1" } });
    const bad = await t.app.request(`${L}/cyanite/webhook`, {
      method: "POST",
      headers: { "content-type": "application/json", signature: sign(body, "wrong") },
      body,
    });
    expect(bad.status).toBe(401);
    const unknown = JSON.stringify({ resource: { id: "cy-404" } });
    const res = await t.app.request(`${L}/cyanite/webhook`, {
      method: "POST",
      headers: { "content-type": "application/json", signature: sign(unknown) },
      body: unknown,
    });
    expect(res.status).toBe(404);
  });
});

describe("migrate links", () => {
  it("maps links to catalogue songs", async () => {
    const res = await t.api().playlist.POST("/song-data/migrate-links", {
      body: {
        links: [
          "https://open.spotify.com/track/4uLU6hMCjMI75M1A2tKUQC",
          "https://open.spotify.com/track/0000000000000000000000",
          "https://example.com",
        ],
      },
    });
    expect(res.data?.map((r: { song: { trackName: string } | null }) => r.song?.trackName ?? null)).toEqual([
      "On Both",
      null,
      null,
    ]);
    expect(res.data?.[2]?.provider).toBeNull();
    expect((await t.api().playlist.POST("/song-data/migrate-links", { body: { links: [] } })).response.status).toBe(
      400,
    );
  });
});

describe("unconfigured providers", () => {
  it("answers 503 naming the missing setting", async () => {
    await withTestApp({}, async (bare) => {
      const { token: tk } = await bare.createUser();
      const crate = ok(await bare.api(tk).playlist.POST("/crate", { body: {} })).crateUuid;
      const apple = await bare
        .api(tk)
        .playlist.POST("/exports/apple", { body: { crateUuid: crate, musicUserToken: "m" } });
      expect(apple.response.status).toBe(503);
      expect(apple.error?.message).toContain("APPLE_MUSIC_DEVELOPER_TOKEN");
      const cyanite = await bare.api().playlist.POST("/cyanite/webhook", { body: {} });
      expect(cyanite.error?.message).toContain("CYANITE_WEBHOOK_SECRET");
    });
  });
});
