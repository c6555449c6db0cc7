import { createServer } from "node:http";
import { schema } from "@booth/db";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { firstRow } from "../../lib/rows.ts";
import { embeddedGenerator, httpGenerator } from "../../ports/song-generator.ts";
import { listenLocally, requestText } from "../../testing/local-server.ts";
import { until } from "../../testing/until.ts";
import { createTestApp, expectErrorLog, ok, TEST_FFMPEG, type TestApp } from "../../testing.ts";
import { credit } from "../merch/ledger.ts";

let t: TestApp;
let failing: TestApp;
beforeAll(async () => {
  t = await createTestApp();
  failing = await createTestApp({
    songGenerator: { kind: "broken", generate: async () => Promise.reject(new Error("provider down")) },
  });
});
afterAll(async () => {
  await t.close();
  await failing.close();
});

const U = "/api/upload-service/api/v1/gen-songs";
async function funded(app: TestApp, tokens: number) {
  const u = await app.createUser();
  const account = ok(await app.api(u.token).merch.POST("/api/v1/token-accounts"));
  await app.db.transaction((tx) => credit(tx, { accountId: account.id, amount: tokens }, app.clock.now()));
  return { ...u, accountId: account.id as string };
}
const balance = async (app: TestApp, accountId: string) =>
  (await app.db.select().from(schema.tokenAccounts).where(eq(schema.tokenAccounts.id, accountId)))[0];
/** The held tokens of that account released (the generation settled either way). */
const released = (app: TestApp, accountId: string) =>
  until(async () => (await balance(app, accountId))?.held === 0, "the held tokens released", 60_000);

describe("generated songs", () => {
  it("quotes by duration, holds the tokens, makes a playable song and then spends them", async () => {
    const quote = await t.api().upload.POST("/api/v1/gen-songs/cost", { body: { duration: 61 } });
    expect(quote.data).toEqual({ duration: 61, tokenCost: 20 });
    const u = await funded(t, 50);
    const started = await t.api(u.token).upload.POST("/api/v1/gen-songs", {
      body: { prompt: "sunny synth pop", duration: 15, tokenCost: 10, title: "Sunny" },
    });
    expect(started.response.status).toBe(202);
    expect(await balance(t, u.accountId)).toMatchObject({ balance: 40, held: 10 });
    await released(t, u.accountId);
    expect(await balance(t, u.accountId)).toMatchObject({ balance: 40, held: 0 });
    const song = await t.api(u.token).upload.GET("/songs/{id}", { params: { path: { id: ok(started).id } } });
    expect(song.data).toMatchObject({
      status: "VERIFIED",
      transcodingStatus: "TRANSCODING_SUCCEED",
      tags: { title: "Sunny" },
    });
    const catalogue = await firstRow(t.db, schema.songs, eq(schema.songs.id, ok(song).songId!));
    expect(catalogue).toMatchObject({ isGenerated: true, trackName: "Sunny", duration: 15 });
  }, 60_000);

  it("refuses a stale quote with the mismatched-token-cost code, and a short balance, holding nothing", async () => {
    const u = await funded(t, 5);
    const stale = await t
      .api(u.token)
      .upload.POST("/api/v1/gen-songs", { body: { prompt: "lofi beats", duration: 30, tokenCost: 5 } });
    expect(stale.response.status).toBe(409);
    expect(stale.error?.code).toBe("mismatched-token-cost");
    const short = await t
      .api(u.token)
      .upload.POST("/api/v1/gen-songs", { body: { prompt: "lofi beats", duration: 30, tokenCost: 10 } });
    expect(short.response.status).toBe(402);
    expect(await balance(t, u.accountId)).toMatchObject({ balance: 5, held: 0 });
    const nobody = await t.createUser();
    expect(
      (
        await t
          .api(nobody.token)
          .upload.POST("/api/v1/gen-songs", { body: { prompt: "x y z", duration: 30, tokenCost: 10 } })
      ).response.status,
    ).toBe(404);
    expect(
      (await t.api().upload.POST("/api/v1/gen-songs", { body: { prompt: "x y z", duration: 30, tokenCost: 10 } }))
        .response.status,
    ).toBe(401);
    expect((await t.api().upload.POST("/api/v1/gen-songs/cost", { body: { duration: 5 } })).response.status).toBe(400);
  });

  it("gives the tokens back when generation fails", async () => {
    expectErrorLog("song generation failed");
    const u = await funded(failing, 20);
    const started = await failing
      .api(u.token)
      .upload.POST("/api/v1/gen-songs", { body: { prompt: "anything", duration: 20, tokenCost: 10 } });
    expect(started.response.status).toBe(202);
    await released(failing, u.accountId);
    expect(await balance(failing, u.accountId)).toMatchObject({ balance: 20, held: 0 });
    const resolution = await firstRow(
      failing.db,
      schema.tokenTransactions,
      eq(schema.tokenTransactions.holdId, ok(started).holdId),
    );
    expect(resolution?.type).toBe("voided");
  });

  it("a retried request with the same idempotency key starts one song", async () => {
    const u = await funded(t, 100);
    const send = () =>
      t.request("POST", U, {
        token: u.token,
        body: { prompt: "twice", duration: 15, tokenCost: 10 },
        headers: { "idempotency-key": "gen-1" },
      });
    const [a, b] = [await send(), await send()];
    expect(b.body.id).toBe(a.body.id);
    await released(t, u.accountId);
    expect((await balance(t, u.accountId))?.balance).toBe(90);
  }, 60_000);
});

describe("generator adapters", () => {
  it("the HTTP adapter posts the prompt to the configured provider and returns its audio", async () => {
    const audio = await embeddedGenerator(TEST_FFMPEG).generate({ prompt: "x", seconds: 2, title: "T", artist: "A" });
    const seen: { auth?: string; body: string }[] = [];
    const server = createServer(async (req, res) => {
      const body = await requestText(req);
      seen.push({ auth: req.headers.authorization, body });
      res.setHeader("content-type", "audio/mpeg");
      res.end(Buffer.from(audio));
    });
    const baseUrl = await listenLocally(server);
    try {
      const generator = httpGenerator({ baseUrl, apiKey: "k" });
      const bytes = await generator.generate({ prompt: "calm piano", seconds: 30, title: "Calm", artist: "A" });
      expect(bytes).toEqual(audio);
      expect(seen[0]?.auth).toBe("Bearer k");
      expect(JSON.parse(seen[0]?.body ?? "{}")).toEqual({ prompt: "calm piano", duration: 30, title: "Calm" });
    } finally {
      server.close();
    }
  });
});
