/**
 * Uploading a song in the browser: refused without the capability, a real WAV file sent with progress, its status
 * followed every second (tags asked for, then transcoded until ready), a file that is not audio refused with the
 * upload service's words and nothing left behind, the ready song previewed by its uploader and queued; a file larger
 * than an upload takes refused before a byte of it is sent, in the person's language.
 */
import { rm, truncate, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { schema } from "@booth/db";
import { MAX_UPLOAD_BYTES } from "@booth/sdk/limits";
import { eq } from "drizzle-orm";
import type { Request } from "playwright-core";
import { beforeAll, describe, expect, it } from "vitest";
import { changeAnswered, eventually, expectCount, expectText, shot, suiteStack } from "./harness.ts";
import { type SignedUp, signedUp, wavFile } from "./harness-b.ts";

const stack = suiteStack();
let ana: SignedUp;
beforeAll(async () => {
  ana = await signedUp(stack, "Ana");
}, 300_000);

describe("upload", { timeout: 180_000 }, () => {
  it("uploads a WAV with progress, asks for its tags, polls until it is ready and queues it", async () => {
    const { page, errors } = ana;
    await page.goto("/upload");
    await expectText(page, "h1", "Upload songs");
    await expectText(
      page,
      "[data-testid=upload-not-allowed]",
      "Uploading music needs the uploadMusic capability. Ask a moderator to give it to you.",
    );
    expect(await page.locator("[data-testid=upload-input]").isDisabled()).toBe(true);

    await stack.t.db
      .update(schema.users)
      .set({ capabilities: ["uploadMusic"] })
      .where(eq(schema.users.uuid, ana.uuid));
    // Written past the edge: the edge's cached account is told, as its own changes do.
    await stack.t.accountChanged(ana.uuid);
    await page.reload();
    await expectCount(page, "[data-testid=upload-not-allowed]", 0);
    await page.waitForSelector("[data-testid=upload-input]:not([disabled])", { state: "attached" });

    // Not audio: refused with the service's message, and no empty upload is left in the list.
    await page.setInputFiles("[data-testid=upload-input]", {
      name: "notes.mp3",
      mimeType: "audio/mpeg",
      buffer: Buffer.from("these are not sounds, just words in a file".repeat(20)),
    });
    await expectText(
      page,
      "[data-testid=upload-error]",
      "The file is not an audio file (mp3, flac, wav, ogg or m4a).",
      20_000,
    );
    await expectCount(page, "[data-testid=upload-row]", 0);

    // A real WAV without tags: sent with progress, then it needs a title and an artist.
    const progress: string[] = [];
    await page.exposeFunction("reportProgress", (state: string) => progress.push(state));
    await page.evaluate(() => {
      const seen = new MutationObserver(() => {
        const state = document.querySelector("[data-testid=upload-progress]")?.getAttribute("data-state");
        if (state) (window as unknown as { reportProgress: (s: string) => void }).reportProgress(state);
      });
      seen.observe(document.body, { subtree: true, attributes: true, childList: true });
    });
    await page.setInputFiles("[data-testid=upload-input]", {
      name: "evening-chord.wav",
      mimeType: "audio/wav",
      buffer: wavFile(3),
    });
    await expectText(page, "[data-testid=upload-state]", "Uploaded", 30_000);
    expect(progress).toContain("uploading");
    await expectText(page, "[data-testid=upload-row] [data-testid=upload-phase]", "Needs title and artist", 20_000);
    await page.fill("[data-testid=tags-form] input[name=title]", "Evening Chord");
    await page.fill("[data-testid=tags-form] input[name=artist]", "Ana");
    await page.fill("[data-testid=tags-form] input[name=genre]", "ambient");
    await page.click("[data-testid=tags-form] button[type=submit]");
    // Transcoding runs in the background; the page looks every second until the song is ready.
    await expectText(page, "[data-testid=upload-row] [data-testid=upload-phase]", "Ready", 60_000);
    await expectText(page, "[data-testid=upload-row] strong", "Evening Chord");
    // The uploader hears it first: the preview plays the song's HLS with the key the edge grants its uploader.
    await page.click("[data-testid=upload-preview]");
    await eventually(async () => {
      const time = await page.$eval("[data-testid=upload-audio]", (a) => (a as HTMLAudioElement).currentTime);
      expect(time).toBeGreaterThan(1);
    }, 20_000);
    await page.click("[data-testid=upload-preview]");
    // "In your queue" shows at once; the test leaves the page only once the edge has answered (leaving earlier
    // cancels the request).
    const queued = changeAnswered(page, /\/search\.data/);
    await page.click("[data-testid=upload-queue]");
    await expectText(page, "[data-testid=upload-queue]", /In your queue/);
    await queued;
    await shot(page, "upload");

    const [song] = await stack.t.db.select().from(schema.songs).where(eq(schema.songs.trackName, "Evening Chord"));
    expect(song?.artistName).toBe("Ana");
    await page.goto("/crates/queue");
    await expectText(page, "[data-testid=crate-song] [data-testid=song-title]", "Evening Chord");
    expect(errors).toEqual([]);
  });

  it("refuses a file larger than an upload takes before sending it, in English and in Spanish", async () => {
    const { page, errors } = ana;
    await stack.t.db
      .update(schema.users)
      .set({ capabilities: ["uploadMusic"] })
      .where(eq(schema.users.uuid, ana.uuid));
    await stack.t.accountChanged(ana.uuid);
    const uploads = async () =>
      (await stack.t.db.select().from(schema.songUploads).where(eq(schema.songUploads.ownerUuid, ana.uuid))).length;
    const before = await uploads();
    // One byte over the limit, as a sparse file: chromium takes it by its path, and would read it only to send it.
    const big = join(tmpdir(), `booth-too-large-${crypto.randomUUID()}.wav`);
    await writeFile(big, "");
    await truncate(big, MAX_UPLOAD_BYTES + 1);
    const sent: string[] = [];
    const watch = (request: Request) => {
      if (request.url().includes("/upload-file")) sent.push(request.url());
    };
    page.on("request", watch);
    try {
      for (const [lang, help, refusal] of [
        [
          "es",
          "mp3, flac, wav, ogg o m4a, 50 MB como máximo. Con las etiquetas de título y artista queda lista al momento.",
          "El archivo pesa más de 50 MB.",
        ],
        [
          "en",
          "mp3, flac, wav, ogg or m4a, at most 50 MB. Title and artist tags make it ready at once.",
          "The file is larger than 50 MB.",
        ],
      ] as const) {
        await page.goto(`/upload?lang=${lang}`);
        await expectText(page, "[data-testid=upload-help]", help);
        await page.waitForSelector("[data-testid=upload-input]:not([disabled])", { state: "attached" });
        await page.setInputFiles("[data-testid=upload-input]", big);
        await expectText(page, "[data-testid=upload-error]", refusal);
        expect(await page.getAttribute("[data-testid=upload-progress]", "data-state")).toBe("error");
      }
    } finally {
      page.off("request", watch);
      await rm(big, { force: true });
    }
    // Nothing went to the web's upload route, so nothing reached the edge: no upload was started.
    expect(sent).toEqual([]);
    expect(await uploads()).toBe(before);
    expect(errors).toEqual([]);
  });
});
