import { schema } from "@booth/db";
import { describe, expect, it } from "vitest";
import { type TestApp, withTestApp } from "../testing.ts";
import { demoCatalogueOnce } from "./demo-catalogue-once.ts";

/** What a listener of each song can fetch: the master playlist, a rendition's playlist, its key and first segment. */
async function whatPlays(t: TestApp) {
  const { token } = await t.createUser({ roles: ["user", "admin"] });
  const auth = { headers: { authorization: `Bearer ${token}` } };
  const songs = await t.db.select().from(schema.songs).orderBy(schema.songs.trackName);
  return Promise.all(
    songs.map(async (song) => {
      const master = await (await t.app.request(song.streamUrls.hls as string, auth)).text();
      const variant = master.split("\n").find((line) => line.includes("?rendition=")) ?? "";
      const playlist = await (await t.app.request(variant, auth)).text();
      const key = await t.app.request(playlist.match(/URI="([^"]+)"/)?.[1] ?? "", auth);
      const segment = playlist.split("\n").find((line) => line && !line.startsWith("#")) ?? "";
      const first = await t.app.request(segment, auth);
      return {
        id: song.id,
        trackName: song.trackName,
        artistName: song.artistName,
        key: key.status,
        segment: [first.status, (await first.arrayBuffer()).byteLength > 0],
      };
    }),
  );
}

describe("the demo catalogue made once per run", () => {
  it("is made for real by the first test app that asks, then copied whole into the next", async () => {
    const size = { tracks: 2, seconds: 2 + Math.floor(Math.random() * 1000) / 1000 };
    const first = await withTestApp({}, async (t) => ({
      added: await demoCatalogueOnce(t, size),
      plays: await whatPlays(t),
    }));
    const again = await withTestApp({}, async (t) => ({
      added: await demoCatalogueOnce(t, size),
      plays: await whatPlays(t),
    }));
    expect(first.added).toBe(2);
    expect(first.plays).toHaveLength(2);
    for (const song of first.plays) expect(song).toMatchObject({ key: 200, segment: [200, true] });
    // The same songs, ids and all (a new run of the pipeline would give new ones), each playable from the copy.
    expect(again).toEqual(first);
  }, 120_000);
});
