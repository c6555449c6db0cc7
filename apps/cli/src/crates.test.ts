// `booth crates import <link>`: a provider playlist becomes a crate, with a running count on stderr and the crate's id
// on stdout; the providers are the edge's local fakes.
import { schema } from "@booth/db";
import { type FakeProviders, startFakeProviders, type TestApp, youtubeVideo } from "@booth/edge/testing";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type CliWorld, startCliWorld } from "./testing.ts";

let world: CliWorld;
let fake: FakeProviders;
let t: TestApp;
beforeAll(async () => {
  fake = await startFakeProviders();
  world = await startCliWorld({ homePrefix: "booth-cli-crates-", timeout: 60_000, app: { config: fake.config } });
  t = world.t;
});
afterAll(async () => {
  await world?.close();
  await fake?.close();
});

const booth = (...args: string[]) => world.booth(...args);

const video = (id: string, title: string) => youtubeVideo(id, title, "Lumen", "PT2M");

describe("booth crates import", () => {
  it("imports a playlist with a running count, then prints the new crate's id", async () => {
    const refusedAnonymous = await booth("crates", "import", "https://www.youtube.com/playlist?list=PLcli");
    expect(refusedAnonymous.code).toBe(3);

    const user = await t.createUser();
    expect((await booth("login", "-e", user.email, "-p", user.password)).code).toBe(0);
    const videoIds = Array.from({ length: 34 }, (_, i) => `cli${String(i).padStart(8, "0")}`);
    for (const [i, id] of videoIds.entries()) if (i !== 7) fake.youtubeVideos.set(id, video(id, `Take ${i}`));
    fake.youtubePlaylists.set("PLcli", { title: "Studio takes", videoIds });

    const res = await booth("crates", "import", "https://www.youtube.com/playlist?list=PLcli", "--interval", "0.2");
    expect(res.code, res.stderr).toBe(0);
    const crateUuid = /^crate ([0-9a-f-]{36})$/m.exec(res.stdout)?.[1];
    expect(crateUuid).toBeDefined();
    expect(res.stdout).toContain('"Studio takes": 33 imported, 1 skipped of 34');
    expect(res.stdout).toContain("1 of 34 tracks could not be imported.");
    // Not a terminal: one line per step, the last one the whole playlist.
    const counts = [...res.stderr.matchAll(/^import "Studio takes" (\d+)\/34 /gm)].map((m) => Number(m[1]));
    expect(counts.at(-1)).toBe(34);
    expect(counts).toEqual([...counts].sort((a, b) => a - b));

    const [crate] = await t.db
      .select()
      .from(schema.crates)
      .where(eq(schema.crates.id, crateUuid ?? ""));
    expect(crate).toMatchObject({ name: "Studio takes", userUuid: user.user.uuid, importStatus: "COMPLETE" });
    const songs = await t.db
      .select()
      .from(schema.crateSongs)
      .where(eq(schema.crateSongs.crateId, crateUuid ?? ""));
    expect(songs).toHaveLength(33);

    const json = await booth("crates", "import", "https://www.youtube.com/playlist?list=PLcli", "--json");
    expect(json.code, json.stderr).toBe(0);
    expect(JSON.parse(json.stdout)).toMatchObject({ state: "complete", imported: 33, skipped: 1, total: 34 });
  }, 120_000);

  it("says why a link is refused, a playlist missing, or an import stopped, with exit codes scripts can read", async () => {
    const user = await t.createUser();
    expect((await booth("login", "-e", user.email, "-p", user.password)).code).toBe(0);
    const bad = await booth("crates", "import", "https://open.spotify.com/track/7ouMYWpwJ422jRcDASZB7P");
    expect(bad.code).toBe(5);
    expect(bad.stderr).toContain("Error 400: This is not a Spotify, YouTube or SoundCloud playlist link.");
    const missing = await booth("crates", "import", "https://soundcloud.com/nobody/sets/nothing");
    expect(missing.code).toBe(4);
    expect(missing.stderr).toContain("This playlist does not exist or is private.");

    fake.youtubePlaylists.set("PLbroken", { title: "Broken", videoIds: ["brk00000001"] });
    fake.outages.push({ match: /\/youtube-api\/playlistItems\?.*playlistId=PLbroken/, status: 500 });
    const stopped = await booth(
      "crates",
      "import",
      "https://www.youtube.com/playlist?list=PLbroken",
      "--interval",
      "0.2",
    );
    expect(stopped.code).toBe(1);
    expect(stopped.stderr).toMatch(
      /the import stopped after 0 of 1 tracks: YouTube answered 500\. \(what was imported is in crate [0-9a-f-]{36}\)/,
    );
  }, 120_000);
});
