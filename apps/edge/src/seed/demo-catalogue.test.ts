import { schema } from "@booth/db";
import { describe, expect, it } from "vitest";
import { openTestApp, withTestApp } from "../testing.ts";
import { DEMO_ARTISTS, seedDemoCatalogue } from "./demo-catalogue.ts";

const t = openTestApp();

describe("demo catalogue", () => {
  it("loads playable, searchable tracks across artists and albums, once", async () => {
    const seen: number[] = [];
    const added = await seedDemoCatalogue(t.deps, { perArtist: 1, seconds: 2, progress: (done) => seen.push(done) });
    expect(added).toBe(DEMO_ARTISTS.length);
    expect(seen).toEqual([1, 2, 3, 4]);
    const songs = await t.db.select().from(schema.songs);
    expect(songs).toHaveLength(DEMO_ARTISTS.length);
    expect(songs.every((s) => s.albumId && s.artistId && s.duration >= 2)).toBe(true);
    // Playable by whoever may hear it (here an admin; in a room, its listeners).
    const { token } = await t.createUser({ roles: ["user", "admin"] });
    const auth = { headers: { authorization: `Bearer ${token}` } };
    const master = await t.app.request(songs[0]!.streamUrls.hls as string, auth);
    expect(master.status).toBe(200);
    // Three renditions, as any upload has.
    const variants = (await master.text()).split("\n").filter((line) => line.includes("?rendition="));
    expect(variants.map((v) => v.split("=").pop())).toEqual(["low", "medium", "high"]);
    const playlist = await t.app.request(variants[0] ?? "", auth);
    expect(playlist.status).toBe(200);
    const keyUri = (await playlist.text()).match(/URI="([^"]+)"/)?.[1] ?? "";
    expect((await t.app.request(keyUri)).status).toBe(200);
    const search = await t.request("GET", "/api/playlist-service/search", { query: { q: "oscillators" } });
    expect(search.body).toHaveLength(1);
    expect(await seedDemoCatalogue(t.deps, { perArtist: 1, seconds: 2 })).toBe(0);
    expect(await t.db.select().from(schema.songs)).toHaveLength(DEMO_ARTISTS.length);
  }, 60_000);

  it("makes only as many tracks as asked, the first artists' first", async () => {
    await withTestApp({}, async (fresh) => {
      expect(await seedDemoCatalogue(fresh.deps, { perArtist: 1, seconds: 2, tracks: 2 })).toBe(2);
      const artists = await fresh.db.select({ name: schema.artists.name }).from(schema.artists);
      expect(artists.map((a) => a.name).sort()).toEqual(
        DEMO_ARTISTS.slice(0, 2)
          .map((a) => a.name)
          .sort(),
      );
      expect(await fresh.db.select().from(schema.songs)).toHaveLength(2);
    });
  }, 60_000);
});
