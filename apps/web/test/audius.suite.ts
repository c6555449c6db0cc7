/**
 * Audius (#37): a DJ finds an Audius track in the room's song picker (Audius's tracks interleaved with the
 * catalogue's) and queues it; a DJ queues an Audius song found by its link, and a listener who comes in late hears
 * its full-length stream on the page's audio element, from where the room is, advancing.
 * Audius is the local stand-in (audius-stand-in.ts), named by the edge's AUDIUS_API_URL and allowed by the page's
 * AUDIUS_MEDIA_HOSTS.
 */
import { audiusTrack, type FakeAudius, TEST_FFMPEG } from "@booth/edge/testing";
import { beforeAll, describe, expect, it } from "vitest";
import { synthesizeMp3 } from "../../edge/src/ports/audio.ts";
import { audiusStandIn } from "./audius-stand-in.ts";
import { eventually, expectText, newRoom, suiteStack } from "./harness.ts";
import { asUser, signedUpAll } from "./harness-b.ts";
import { audioOf, roomWithDj } from "./listening.ts";

const stack = suiteStack();
let audius: FakeAudius;
beforeAll(async () => {
  audius = await audiusStandIn();
  audius.audio.mp3 = await synthesizeMp3({
    ffmpeg: TEST_FFMPEG,
    seconds: 90,
    frequencies: [330, 495],
    title: "Open Water",
    artist: "Sea Glass",
  });
  audius.add(audiusTrack("Au001", "Open Water", { artist: "Sea Glass", duration: 90 }));
  const { config } = stack.t.deps;
  stack.t.deps.config = {
    ...config,
    providers: { ...config.providers, audiusApiUrl: audius.base, audiusAppName: "booth-browser-test" },
  };
}, 120_000);

describe("an Audius song in a room", { timeout: 240_000 }, () => {
  it("plays its full stream for a listener who comes in late, from where the room is", async () => {
    const linked = await stack.t.request(
      "GET",
      `/api/playlist-service/song-data/${encodeURIComponent("https://audius.co/seaglass/open-water")}`,
    );
    expect(linked.status).toBe(200);
    const song = linked.body.song as { songId: string; streamUrls: { http: string } };
    const stream = `${audius.base}/v1/tracks/Au001/stream?app_name=booth-browser-test`;
    expect(song.streamUrls.http).toBe(stream);

    const { room, client } = await roomWithDj(stack, "Audius DJ", { name: "Open Water" }, [song.songId]);
    await eventually(() => expect(client.state?.nowPlaying?.song.songId).toBe(song.songId), 20_000);
    const startTime = client.state?.nowPlaying?.startTime ?? 0;
    const roomAt = () => (Date.now() - startTime) / 1000;
    // The listener comes in once the room is some seconds into the song (time itself is what is tested).
    await eventually(() => expect(roomAt()).toBeGreaterThan(5), 20_000);

    const listener = await stack.person();
    await listener.page.goto(`/rooms/${room.slug}`);
    await expectText(listener.page, "[data-testid=track-name]", "Open Water", 20_000);
    await eventually(async () => {
      const audio = await audioOf(listener.page);
      expect(audio.src).toBe(stream);
      expect(audio.paused).toBe(false);
      expect(audio.time).toBeGreaterThan(1);
    }, 30_000);
    // Where the room is, not the song's start; and it goes on.
    const first = await audioOf(listener.page);
    expect(first.time).toBeGreaterThan(5);
    expect(Math.abs(first.time - roomAt())).toBeLessThan(1.5);
    await eventually(async () => expect((await audioOf(listener.page)).time).toBeGreaterThan(first.time + 2), 30_000);
    // The audio came from Audius's stream (redirected to its content node), with Booth's app name.
    expect(
      audius.requests.some((r) => r.path === "/v1/tracks/Au001/stream" && r.query.app_name === "booth-browser-test"),
    ).toBe(true);
    expect(audius.requests.some((r) => r.path === "/content/Au001.mp3")).toBe(true);
    client.close();
    expect(listener.errors).toEqual([]);
  });
});

describe("the song picker with Audius", { timeout: 180_000 }, () => {
  it("finds an Audius track by its words and queues it", async () => {
    audius.add(audiusTrack("Au002", "Tidepool Drift", { artist: "Sea Glass", duration: 90 }));
    const [dj] = await signedUpAll(stack, "Tide Picker");
    await newRoom(dj.page, "Tidepool", "tidepool");
    await dj.page.fill("[data-testid=song-search]", "tidepool drift");
    const row = dj.page.locator("[data-testid=song-result]", { hasText: "Tidepool Drift" });
    await eventually(async () => expect(await row.count()).toBe(1), 20_000);
    await row.locator("[data-testid=queue-add]").click();
    await expectText(dj.page, "[data-testid=song-result] >> [data-testid=queue-add]", "Queued", 20_000);
    const queue = await (await asUser(stack, dj.uuid))("GET", "/api/playlist-service/crate/special/queue/songs");
    expect(queue.body).toMatchObject([
      {
        trackName: "Tidepool Drift",
        musicProviders: { audius: "Au002" },
        streamUrls: { http: `${audius.base}/v1/tracks/Au002/stream?app_name=booth-browser-test` },
      },
    ]);
    expect(dj.errors).toEqual([]);
  });
});
