import { schema } from "@booth/db";
import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { DISCORD_MODE_HEADER, EXPLICIT_IN_DISCORD } from "../../lib/discord-mode.ts";
import { shortId } from "../../lib/ids.ts";
import { expectRefusal, ok, openTestApp } from "../../testing.ts";

/** Discord mode's rule (decision 0028): explicit songs only for a profile that allows explicit audio. */
const t = openTestApp();
const ids: Record<string, string> = {};
const discord = { [DISCORD_MODE_HEADER]: "discord" };

beforeAll(async () => {
  const rows = await t.db
    .insert(schema.songs)
    .values([
      { shortId: shortId(), trackName: "Wumpus Clean Anthem", artistName: "Guild Band", genre: "pop" },
      { shortId: shortId(), trackName: "Wumpus Swearing", artistName: "Guild Band", genre: "pop", explicit: true },
    ])
    .returning();
  for (const r of rows) ids[r.trackName] = r.id;
});

const titles = (body: unknown) => (body as { trackName: string }[]).map((s) => s.trackName).sort();
const search = (token: string | undefined, headers: Record<string, string> = {}) =>
  t.request("GET", "/api/playlist-service/search", { query: { q: "wumpus", explicit: "true" }, token, headers });
const searchPage = (token: string | undefined, headers: Record<string, string> = {}) =>
  t.request("GET", "/api/playlist-service/search/v2", { query: { q: "wumpus", explicit: "true" }, token, headers });
const allowExplicit = (uuid: string, allowed: boolean) =>
  t.db.update(schema.profiles).set({ allowExplicitAudio: allowed }).where(eq(schema.profiles.userUuid, uuid));

describe("Discord mode", () => {
  it("leaves explicit songs out of search unless the profile allows explicit audio", async () => {
    const me = await t.createUser();
    const both = ["Wumpus Clean Anthem", "Wumpus Swearing"];
    // Outside Discord, explicit=true is the search's own choice.
    expect(titles((await search(me.token)).body)).toEqual(both);
    expect(titles((await search(undefined)).body)).toEqual(both);
    // In Discord mode, not for a profile that does not allow it, nor for a visitor.
    expect(titles((await search(me.token, discord)).body)).toEqual(["Wumpus Clean Anthem"]);
    expect(titles((await search(undefined, discord)).body)).toEqual(["Wumpus Clean Anthem"]);
    expect(titles(((await searchPage(me.token, discord)).body as { data: unknown }).data)).toEqual([
      "Wumpus Clean Anthem",
    ]);
    await allowExplicit(me.user.uuid, true);
    expect(titles((await search(me.token, discord)).body)).toEqual(both);
    expect(titles(((await searchPage(me.token, discord)).body as { data: unknown }).data)).toEqual(both);
  });

  it("refuses an explicit song into the queue unless the profile allows explicit audio", async () => {
    const me = await t.createUser();
    const other = await t.createUser();
    const add = (songId: string, headers: Record<string, string> = discord, token = me.token) =>
      t.request("POST", "/api/playlist-service/crate/special/queue/songs", {
        body: { songIds: [songId] },
        token,
        headers,
      });
    const queued = async (token = me.token) =>
      ok(await t.api(token).playlist.GET("/crate/special/queue/songs")).map((s) => s.trackName);
    expectRefusal(await add(ids["Wumpus Swearing"] as string), 400, EXPLICIT_IN_DISCORD);
    expect(await queued()).toEqual([]);
    expect((await add(ids["Wumpus Clean Anthem"] as string)).status).toBe(201);
    // With the profile's consent it goes in; outside Discord mode it goes in as ever.
    await allowExplicit(me.user.uuid, true);
    expect((await add(ids["Wumpus Swearing"] as string)).status).toBe(201);
    expect(await queued()).toEqual(["Wumpus Clean Anthem", "Wumpus Swearing"]);
    expect((await add(ids["Wumpus Swearing"] as string, {}, other.token)).status).toBe(201);
    expect(await queued(other.token)).toEqual(["Wumpus Swearing"]);
  });
});
