import { schema } from "@booth/db";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../../testing.ts";
import { shortId } from "./crates.ts";

let t: TestApp;
let service: string;
beforeAll(async () => {
  t = await createTestApp();
  service = await t.serviceToken();
});
afterAll(() => t.close());

const L = "/api/playlist-service";

async function song(name: string) {
  const [row] = await t.db
    .insert(schema.songs)
    .values({ shortId: shortId(), trackName: name, artistName: "Queue Artist", duration: 120 })
    .returning();
  return row!;
}
const names = (songs: { trackName: string }[]) => songs.map((s) => s.trackName);

describe("the live room's view of a DJ's crates", () => {
  it("answers the next songs of the queue and moves past each played song, wrapping around", async () => {
    const { user, token } = await t.createUser();
    const base = `${L}/crate/service/user/${user.uuid}/queue`;
    expect((await t.request("GET", `${base}/upcoming`, { token: service })).body).toEqual({ songs: [] });
    const [a, b, c] = await Promise.all(["A", "B", "C"].map(song));
    await t.request("POST", `${L}/crate/special/queue/songs`, { token, body: { songIds: [a!.id, b!.id, c!.id] } });
    const first = await t.request("GET", `${base}/upcoming`, { token: service });
    expect(first.status).toBe(200);
    expect(names(first.body.songs)).toEqual(["A", "B"]);
    let next = await t.request("POST", `${base}/advance`, {
      token: service,
      body: { crateSongUuid: first.body.songs[0].crateSongUuid },
    });
    expect(names(next.body.songs)).toEqual(["B", "C"]);
    const crateSongC = next.body.songs[1].crateSongUuid;
    next = await t.request("POST", `${base}/advance`, { token: service, body: { crateSongUuid: crateSongC } });
    expect(names(next.body.songs)).toEqual(["A", "B"]);
    // A song that is not in the queue moves nothing.
    next = await t.request("POST", `${base}/advance`, { token: service, body: { crateSongUuid: crypto.randomUUID() } });
    expect(names(next.body.songs)).toEqual(["A", "B"]);
    const own = await t.request("GET", `${L}/crate/special/queue`, { token });
    expect(own.body.currentPosition).toBe(0);
  });

  it("adds a starred song to the likes crate once", async () => {
    const { user, token } = await t.createUser();
    const s = await song("Starred");
    const url = `${L}/crate/service/user/${user.uuid}/likes/songs`;
    const added = await t.request("POST", url, { token: service, body: { songId: s.id } });
    expect(added.status).toBe(201);
    expect(added.body.song.trackName).toBe("Starred");
    const again = await t.request("POST", url, { token: service, body: { songId: s.id } });
    expect(again.status).toBe(200);
    expect(again.body.added).toBe(false);
    const likes = await t.request("GET", `${L}/crate/special/likes/songs`, { token });
    expect(names(likes.body)).toEqual(["Starred"]);
  });

  it("is for services only, and refuses bad input", async () => {
    const { user, token } = await t.createUser();
    const base = `${L}/crate/service/user/${user.uuid}`;
    expect((await t.request("GET", `${base}/queue/upcoming`)).status).toBe(401);
    expect((await t.request("GET", `${base}/queue/upcoming`, { token })).status).toBe(403);
    expect(
      (await t.request("POST", `${base}/likes/songs`, { token, body: { songId: crypto.randomUUID() } })).status,
    ).toBe(403);
    expect(
      (await t.request("POST", `${base}/queue/advance`, { token: service, body: { crateSongUuid: "x" } })).status,
    ).toBe(400);
    expect((await t.request("GET", `${base}/queue/upcoming`, { token: service, query: { limit: 0 } })).status).toBe(
      400,
    );
    expect(
      (await t.request("POST", `${base}/likes/songs`, { token: service, body: { songId: crypto.randomUUID() } }))
        .status,
    ).toBe(404);
    const nobody = `${L}/crate/service/user/${crypto.randomUUID()}`;
    expect((await t.request("GET", `${nobody}/queue/upcoming`, { token: service })).status).toBe(404);
  });
});
