import { schema } from "@booth/db";
import { beforeAll, describe, expect, it } from "vitest";
import { shortId } from "../../lib/ids.ts";
import { ok, openTestApp } from "../../testing.ts";

const t = openTestApp();
let known: { id: string };
beforeAll(async () => {
  const rows = await t.db
    .insert(schema.songs)
    .values({
      shortId: shortId(),
      trackName: "Known",
      artistName: "A",
      musicProviders: { spotify: "sp-known", youtube: "yt-known" },
    })
    .returning();
  known = rows[0]!;
});

describe("track import", () => {
  it("imports catalogue tracks into the queue and says why the others were skipped", async () => {
    const { token } = await t.createUser();
    const res = await t.api(token).playlist.POST("/api/v1/track-import", {
      body: {
        songs: [
          { musicProviders: { spotify: "sp-known" } },
          { musicProviders: { youtube: "yt-known" } },
          { musicProviders: { spotify: "sp-unknown" } },
          { musicProviders: { spotify: "sp-known" } },
        ],
      },
    });
    expect(res.response.status).toBe(200);
    expect(res.data?.imported).toBe(1);
    expect(res.data?.skipped).toEqual([
      { index: 1, message: "Sorry, this song does not have any supported music providers to import from." },
      { index: 2, message: "Sorry, this song is not in our catalog and can't be imported." },
      { index: 3, message: "This song is already in the crate." },
    ]);
    expect(res.data?.crate).toMatchObject({ kind: "queue", importStatus: "COMPLETE", crateSongsNumber: 1 });
  });

  it("marks the crate FAILED when nothing could be imported", async () => {
    const { token } = await t.createUser();
    const crate = ok(await t.api(token).playlist.POST("/crate", { body: {} }));
    const res = await t.api(token).playlist.POST("/api/v1/track-import", {
      body: { crateUuid: crate.crateUuid, songs: [{ musicProviders: { tidal: "1" } }] },
    });
    expect(res.data?.crate).toMatchObject({
      importStatus: "FAILED",
      importMessage: "Sorry, this song does not have any supported music providers to import from.",
    });
    const other = await t.createUser();
    expect(
      (
        await t.api(other.token).playlist.POST("/api/v1/track-import", {
          body: { crateUuid: crate.crateUuid, songs: [{ songId: known.id }] },
        })
      ).response.status,
    ).toBe(403);
    expect(
      (await t.api().playlist.POST("/api/v1/track-import", { body: { songs: [{ songId: known.id }] } })).response
        .status,
    ).toBe(401);
    expect((await t.api(token).playlist.POST("/api/v1/track-import", { body: { songs: [] } })).response.status).toBe(
      400,
    );
  });

  it("adds a song to a playlist at the end or at the start", async () => {
    const { token } = await t.createUser();
    const crate = ok(await t.api(token).playlist.POST("/crate", { body: {} }));
    const [other] = await t.db
      .insert(schema.songs)
      .values({ shortId: shortId(), trackName: "First", artistName: "B" })
      .returning();
    await t.api(token).playlist.POST("/api/v1/playlists/{crateUuid}/tracks", {
      params: { path: { crateUuid: crate.crateUuid } },
      body: { songId: known.id },
    });
    const res = await t.api(token).playlist.POST("/api/v1/playlists/{crateUuid}/tracks", {
      params: { path: { crateUuid: crate.crateUuid } },
      body: { songId: other!.id, append: false },
    });
    expect(res.response.status).toBe(201);
    expect(res.data?.map((s) => s.trackName)).toEqual(["First", "Known"]);
    expect(
      (
        await t.api(token).playlist.POST("/api/v1/playlists/{crateUuid}/tracks", {
          params: { path: { crateUuid: crate.crateUuid } },
          body: { songId: crypto.randomUUID() },
        })
      ).response.status,
    ).toBe(404);
  });
});
