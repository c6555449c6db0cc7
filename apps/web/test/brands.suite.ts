/**
 * The catalogue brand (#37 part 4, decision 0027): a Booth whose web and edge run with BOOTH_BRAND=catalogue shows its
 * own name ("Booth Records") and colours, in the header, the pages' titles and the installable app's manifest; its
 * song picker offers uploads and the licensed catalogue's songs and never Spotify's or YouTube's; its connected
 * accounts screen offers no music provider's account, and its crates no playlist import. The streaming brand (every
 * other suite) is as it was; its name and colours are checked here too, against the stack the other suites run on.
 */
import { schema } from "@booth/db";
import { beforeAll, describe, expect, it } from "vitest";
import { eventually, expectCount, expectText, hydrated, newRoom, shot, suiteStack } from "./harness.ts";
import { signedUpAll } from "./harness-b.ts";

const stack = suiteStack({ songs: 4, webEnv: { BOOTH_BRAND: "catalogue" } });

/** Songs of each source, all found by the word "Lantern". */
const SONGS: { trackName: string; musicProviders: Record<string, string> }[] = [
  { trackName: "Lantern Licensed", musicProviders: { sevenDigital: "8675309" } },
  { trackName: "Lantern Spotify", musicProviders: { spotify: "4uLU6hMCjMI75M1A2tKUQC" } },
  { trackName: "Lantern Tube", musicProviders: { youtube: "dQw4w9WgXcQ" } },
];

beforeAll(async () => {
  // The edge of this stack is the catalogue brand's too (BOOTH_BRAND, as the web's).
  stack.t.deps.config = { ...stack.t.deps.config, brand: "catalogue" };
  await stack.t.db.insert(schema.songs).values(
    SONGS.map((song, i) => ({
      ...song,
      shortId: `LANTERN${i}`,
      artistName: "Lamp Lighters",
      duration: 120,
      previews: (song.musicProviders.sevenDigital
        ? { sevenDigital: "https://previews.7digital.com/clip/8675309" }
        : {}) as Record<string, string>,
    })),
  );
}, 120_000);

describe("the catalogue brand", { timeout: 240_000 }, () => {
  it("shows its name and colours in the header, the title, the browser's bar and the manifest", async () => {
    const { page, errors } = await stack.person();
    await page.goto("/");
    await hydrated(page);
    await expectText(page, "[data-testid=brand-name]", "Booth Records");
    expect(await page.title()).toBe("Booth Records · Rooms");
    expect(await page.locator("html").getAttribute("data-brand")).toBe("catalogue");
    const colours = await page.evaluate(() => {
      const style = getComputedStyle(document.documentElement);
      return { accent: style.getPropertyValue("--accent").trim(), bg: style.getPropertyValue("--bg").trim() };
    });
    expect(colours).toEqual({ accent: "#0f766e", bg: "#07100f" });
    expect(await page.locator("meta[name=theme-color]").getAttribute("content")).toBe("#07100f");
    const manifest = await (await page.request.get("/manifest.webmanifest")).json();
    expect(manifest).toMatchObject({ name: "Booth Records", short_name: "Booth Records", theme_color: "#07100f" });
    await shot(page, "rooms-catalogue-brand");
    expect(errors).toEqual([]);
  });

  it("offers uploads and the licensed catalogue in the song picker, never Spotify or YouTube", async () => {
    const [dj] = await signedUpAll(stack, "Lamp Picker");
    const { page, errors } = dj;
    await newRoom(page, "Lamp Room", "lamp-room");
    // The picker's first page: the four uploads and the licensed song, not the streaming ones.
    await expectCount(page, "[data-testid=song-result]", 5, 20_000);
    const titles = async () => (await page.locator("[data-testid=song-result] strong").allTextContents()).sort();
    expect(await titles()).toContain("Lantern Licensed");
    expect((await titles()).filter((t) => /Spotify|Tube/.test(t))).toEqual([]);
    // A search: only the licensed song of the three.
    await page.fill("[data-testid=song-search]", "lantern");
    await eventually(async () => expect(await titles()).toEqual(["Lantern Licensed"]), 20_000);
    await page.locator("[data-testid=song-result]").first().locator("[data-testid=queue-add]").click();
    await expectText(page, "[data-testid=song-result] >> [data-testid=queue-add]", "Queued", 20_000);
    expect(errors).toEqual([]);
  });

  it("offers no music provider's account to connect, and no playlist import", async () => {
    const [person] = await signedUpAll(stack, "Lamp Keeper");
    const { page, errors } = person;
    await page.goto("/profile/connections");
    await expectCount(page, "[data-testid=connections] > li", 1);
    expect(await page.locator("[data-testid=connection-discord]").count()).toBe(1);
    for (const provider of ["spotify", "youtube", "soundcloud", "apple"])
      expect(await page.locator(`[data-testid=connection-${provider}]`).count()).toBe(0);
    expect(await page.getByText("The music here comes from the licensed catalogue and uploads.").count()).toBe(1);
    // Nor can Spotify's consent page be started by its address.
    expect((await page.request.get("/connections/spotify/start", { maxRedirects: 0 })).status()).toBe(404);
    await page.goto("/crates");
    await hydrated(page);
    await expectText(page, "h1", /.+/);
    expect(await page.getByText("Import a playlist").count()).toBe(0);
    expect(errors).toEqual([]);
  });
});
