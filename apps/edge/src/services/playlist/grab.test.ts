import { schema } from "@booth/db";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { shortId } from "../../lib/ids.ts";
import { ok } from "../../testing/api.ts";
import { createTestApp, type TestApp } from "../../testing.ts";

let t: TestApp;
let service: string;
beforeAll(async () => {
  t = await createTestApp();
  service = await t.serviceToken();
});
afterAll(() => t.close());

async function song(name: string) {
  const [row] = await t.db
    .insert(schema.songs)
    .values({ shortId: shortId(), trackName: name, artistName: "Grab Artist", duration: 120 })
    .returning();
  return row!;
}

const grabInto = (as: string, userUuid: string, crate: string, songId: string) =>
  t.api(as).playlist.POST("/crate/service/user/{userUuid}/crates/{crate}/songs", {
    params: { path: { userUuid, crate } },
    body: { songId },
  });

describe("a grab (the live room adding the song playing to a listener's crate)", () => {
  it("adds the song to a crate of theirs or their queue, once, and answers 200 when it is there already", async () => {
    const { user, token } = await t.createUser();
    const crate = ok(await t.api(token).playlist.POST("/crate", { body: { name: "Grabbed" } }));
    const s = await song("Grab me");
    const added = await grabInto(service, user.uuid, crate.crateUuid, s.id);
    expect(added.response.status).toBe(201);
    expect(added.data).toMatchObject({ added: true, song: { trackName: "Grab me" } });
    const again = await grabInto(service, user.uuid, crate.crateUuid, s.id);
    expect(again.response.status).toBe(200);
    expect(again.data).toMatchObject({ added: false });
    expect((await grabInto(service, user.uuid, "queue", s.id)).response.status).toBe(201);
    const songs = ok(
      await t.api(token).playlist.GET("/crate/{id}/songs", { params: { path: { id: crate.crateUuid } } }),
    );
    expect(songs.map((x) => x.trackName)).toEqual(["Grab me"]);
  });

  it("never into another's crate, and only for services", async () => {
    const owner = await t.createUser();
    const other = await t.createUser();
    const crate = ok(await t.api(owner.token).playlist.POST("/crate", { body: { name: "Not yours" } }));
    const s = await song("Keep out");
    expect((await grabInto(service, other.user.uuid, crate.crateUuid, s.id)).response.status).toBe(403);
    expect((await grabInto(service, other.user.uuid, crypto.randomUUID(), s.id)).response.status).toBe(404);
    expect((await grabInto(owner.token, owner.user.uuid, crate.crateUuid, s.id)).response.status).toBe(403);
    expect((await grabInto("", owner.user.uuid, crate.crateUuid, s.id)).response.status).toBe(401);
    const bad = await t.request(
      "POST",
      `/api/playlist-service/crate/service/user/${owner.user.uuid}/crates/mine/songs`,
      {
        token: service,
        body: { songId: s.id },
      },
    );
    expect(bad.status).toBe(400);
    const empty = ok(
      await t.api(owner.token).playlist.GET("/crate/{id}/songs", { params: { path: { id: crate.crateUuid } } }),
    );
    expect(empty).toEqual([]);
  });
});
