// `booth crates import <link>`: a provider playlist becomes a crate, with a running count on stderr and the crate's id
// on stdout; the providers are the edge's local fakes.
import { execFile } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { schema } from "@booth/db";
import { createTestApp, type FakeProviders, startFakeProviders, type TestApp } from "@booth/edge/testing";
import { serve } from "@hono/node-server";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildCli } from "../scripts/build.mjs";

const run = promisify(execFile);
let BIN: string;
let fake: FakeProviders;
let t: TestApp;
let server: ReturnType<typeof serve>;
let home: string;
let api: string;
beforeAll(async () => {
  BIN = await buildCli();
  fake = await startFakeProviders();
  t = await createTestApp({ config: fake.config });
  t.clock.now = () => new Date();
  server = serve({ fetch: t.app.fetch, port: 0, hostname: "127.0.0.1" });
  await new Promise((r) => server.once("listening", r));
  api = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  home = await mkdtemp(join(tmpdir(), "booth-cli-crates-"));
});
afterAll(async () => {
  server?.close();
  await t?.close();
  await fake?.close();
  await rm(home, { recursive: true, force: true });
});

async function booth(...args: string[]) {
  try {
    const { stdout, stderr } = await run(process.execPath, [BIN, ...args], {
      env: { ...process.env, XDG_CONFIG_HOME: home, BOOTH_API_URL: api },
      timeout: 60_000,
    });
    return { code: 0, stdout, stderr };
  } catch (err) {
    const e = err as { code: number; stdout: string; stderr: string };
    return { code: e.code, stdout: e.stdout, stderr: e.stderr };
  }
}

const video = (id: string, title: string) => ({
  id,
  snippet: { title, channelTitle: "Lumen", publishedAt: "2023-01-02T00:00:00Z", thumbnails: {} },
  contentDetails: { duration: "PT2M" },
});

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
