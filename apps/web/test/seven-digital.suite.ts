/**
 * 7digital (#37), the licensed catalogue: a DJ finds a 7digital track in the room's song picker (7digital's tracks
 * interleaved with the catalogue's) and queues it; a room plays a 7digital song's 30-second preview in sync (a
 * listener who comes in late hears it from where the room is, on the page's audio element, through the edge's clip
 * route, which redirects to the address it signs) and moves on to the next song when the preview ends. 7digital is
 * the local stand-in (seven-digital-stand-in.ts), named by the edge's SEVENDIGITAL_* settings and allowed by the
 * page's SEVENDIGITAL_PREVIEWS_URL; the stand-in plays only a clip whose address is signed with the key's secret.
 */
import { FAKE_SEVEN_DIGITAL, type FakeSevenDigital, sevenDigitalTrack, TEST_FFMPEG } from "@booth/edge/testing";
import { beforeAll, describe, expect, it } from "vitest";
import { synthesizeMp3 } from "../../edge/src/ports/audio.ts";
import { eventually, expectText, newRoom, suiteStack } from "./harness.ts";
import { asUser, signedUpAll } from "./harness-b.ts";
import { audioOf, roomWithDj } from "./listening.ts";
import { sevenDigitalStandIn } from "./seven-digital-stand-in.ts";

const stack = suiteStack();
// The stand-in's tracks have no artwork: 7digital's image CDN is not for a test's browser to reach.
let fake: FakeSevenDigital;
const clipRoute = (id: number) => `${stack.edgeUrl}/api/playlist-service/song-data/clip/sevenDigital/${id}`;

beforeAll(async () => {
  fake = await sevenDigitalStandIn();
  // A 30-second clip, as 7digital's previews are.
  fake.audio.mp3 = await synthesizeMp3({
    ffmpeg: TEST_FFMPEG,
    seconds: 30,
    frequencies: [392, 587],
    title: "Preview",
    artist: "7digital",
  });
  const { config } = stack.t.deps;
  stack.t.deps.config = {
    ...config,
    providers: {
      ...config.providers,
      sevenDigitalApiUrl: fake.apiUrl,
      sevenDigitalPreviewsUrl: fake.previewsUrl,
      sevenDigitalConsumerKey: FAKE_SEVEN_DIGITAL.key,
      sevenDigitalConsumerSecret: FAKE_SEVEN_DIGITAL.secret,
    },
  };
}, 120_000);

describe("the song picker with 7digital", { timeout: 180_000 }, () => {
  it("finds a 7digital track by its words and queues it", async () => {
    fake.add(sevenDigitalTrack(7002, "Lighthouse Keeper", { artist: "Harbour Lights", duration: 233, image: null }));
    const [dj] = await signedUpAll(stack, "Licensed Picker");
    await newRoom(dj.page, "Lighthouse", "lighthouse");
    await dj.page.fill("[data-testid=song-search]", "lighthouse keeper");
    const row = dj.page.locator("[data-testid=song-result]", { hasText: "Lighthouse Keeper" });
    await eventually(async () => expect(await row.count()).toBe(1), 20_000);
    await row.locator("[data-testid=queue-add]").click();
    await expectText(dj.page, "[data-testid=song-result] >> [data-testid=queue-add]", "Queued", 20_000);
    const queue = await (await asUser(stack, dj.uuid))("GET", "/api/playlist-service/crate/special/queue/songs");
    expect(queue.body).toMatchObject([
      {
        trackName: "Lighthouse Keeper",
        duration: 30,
        musicProviders: { sevenDigital: "7002" },
        streamUrls: { http: "/api/playlist-service/song-data/clip/sevenDigital/7002" },
      },
    ]);
    expect(dj.errors).toEqual([]);
  });
});

describe("a 7digital song in a room", { timeout: 240_000 }, () => {
  it("plays its preview in sync for a listener who comes in late, then the room moves on", async () => {
    fake.add(sevenDigitalTrack(7001, "Open Water", { artist: "Sea Glass", duration: 245, image: null }));
    fake.add(sevenDigitalTrack(7003, "Second Wind", { artist: "Sea Glass", duration: 198, image: null }));
    const songs: { songId: string; duration: number }[] = [];
    for (const id of ["7001", "7003"]) {
      const found = await stack.t.request("GET", `/api/playlist-service/song-data/${id}/sevenDigital`);
      expect(found.status).toBe(200);
      songs.push(found.body.song);
    }
    const [first, second] = songs as [{ songId: string; duration: number }, { songId: string; duration: number }];
    expect(first.duration).toBe(30);

    const { room, client } = await roomWithDj(stack, "Licensed DJ", { name: "Open Water" }, [
      first.songId,
      second.songId,
    ]);
    await eventually(() => expect(client.state?.nowPlaying?.song.songId).toBe(first.songId), 20_000);
    const startTime = client.state?.nowPlaying?.startTime ?? 0;
    const roomAt = () => (Date.now() - startTime) / 1000;
    // The listener comes in once the room is some seconds into the preview (time itself is what is tested).
    await eventually(() => expect(roomAt()).toBeGreaterThan(5), 20_000);

    const listener = await stack.person();
    const clips: number[] = [];
    listener.page.on("response", (res) => {
      if (new URL(res.url()).pathname.startsWith("/clip/")) clips.push(res.status());
    });
    await listener.page.goto(`/rooms/${room.slug}`);
    await expectText(listener.page, "[data-testid=track-name]", "Open Water", 20_000);
    await eventually(async () => {
      const audio = await audioOf(listener.page);
      expect(audio.src).toBe(clipRoute(7001));
      expect(audio.paused).toBe(false);
      expect(audio.time).toBeGreaterThan(1);
    }, 20_000);
    // Where the room is, not the clip's start; and it goes on.
    const at = await audioOf(listener.page);
    expect(at.time).toBeGreaterThan(5);
    expect(Math.abs(at.time - roomAt())).toBeLessThan(1.5);
    await eventually(async () => expect((await audioOf(listener.page)).time).toBeGreaterThan(at.time + 2), 20_000);
    // The page followed the edge's redirect to 7digital's clip, signed with Booth's key (the stand-in plays no other).
    const asked = fake.requests.filter((r) => r.path === "/clip/7001");
    expect(asked.length).toBeGreaterThan(0);
    expect(asked.every((r) => r.query.oauth_consumer_key === FAKE_SEVEN_DIGITAL.key && r.query.oauth_signature)).toBe(
      true,
    );
    expect(clips.length).toBeGreaterThan(0);
    expect(clips.every((status) => status === 200 || status === 206)).toBe(true);

    // The preview is the song: 30 s after it began, the room plays the next one, and so does the listener.
    await eventually(() => expect(client.state?.nowPlaying?.song.songId).toBe(second.songId), 45_000);
    expect(roomAt()).toBeGreaterThan(29);
    await expectText(listener.page, "[data-testid=track-name]", "Second Wind", 20_000);
    await eventually(async () => {
      const audio = await audioOf(listener.page);
      expect(audio.src).toBe(clipRoute(7003));
      expect(audio.paused).toBe(false);
    }, 20_000);
    client.close();
    expect(listener.errors).toEqual([]);
  });
});
