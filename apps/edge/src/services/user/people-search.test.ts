import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../../testing.ts";

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const P = "/api/user-service";
const nicknames = (body: { nickname: string }[]) => body.map((p) => p.nickname);

describe("people search", () => {
  it("finds people by part of their nickname, in any case, those it starts with first", async () => {
    const me = await t.createUser({ nickname: "searcher" });
    for (const nickname of ["MixMaster", "the_mixer", "Remix Queen", "Drummer"]) await t.createUser({ nickname });
    const found = await t.request("GET", `${P}/users/search`, { token: me.token, query: { q: "MIX" } });
    expect(found.status).toBe(200);
    expect(nicknames(found.body)).toEqual(["MixMaster", "Remix Queen", "the_mixer"]);
    expect(found.body[0]).toMatchObject({ nickname: "MixMaster", isBot: false });
    expect(found.body[0]).not.toHaveProperty("email");
    const one = await t.request("GET", `${P}/users/search`, { token: me.token, query: { q: "mix", limit: 1 } });
    expect(nicknames(one.body)).toEqual(["MixMaster"]);
    // Wildcards are letters like any other.
    const percent = await t.request("GET", `${P}/users/search`, { token: me.token, query: { q: "%" } });
    expect(percent.body).toEqual([]);
  });

  it("does not find banned or deactivated people", async () => {
    const me = await t.createUser({ nickname: "looker" });
    const admin = await t.createUser({ roles: ["admin"] });
    const banned = await t.createUser({ nickname: "hidden-banned" });
    const gone = await t.createUser({ nickname: "hidden-gone" });
    expect(
      (await t.request("POST", `${P}/users/ban`, { token: admin.token, body: { userUuid: banned.user.uuid } })).status,
    ).toBeLessThan(300);
    expect(
      (await t.request("DELETE", `${P}/users/deactivate/${gone.user.uuid}`, { token: admin.token })).status,
    ).toBeLessThan(300);
    await t.createUser({ nickname: "hidden-not" });
    const found = await t.request("GET", `${P}/users/search`, { token: me.token, query: { q: "hidden" } });
    expect(nicknames(found.body)).toEqual(["hidden-not"]);
  });

  it("answers only the signed in, refuses empty or overlong words, and limits the pace", async () => {
    expect((await t.request("GET", `${P}/users/search`, { query: { q: "mix" } })).status).toBe(401);
    const me = await t.createUser({ nickname: "pacer" });
    const empty = await t.request("GET", `${P}/users/search`, { token: me.token, query: { q: "  " } });
    expect(empty.status).toBe(400);
    const long = await t.request("GET", `${P}/users/search`, { token: me.token, query: { q: "x".repeat(101) } });
    expect(long.status).toBe(400);
    const many = await t.request("GET", `${P}/users/search`, { token: me.token, query: { q: "x", limit: 51 } });
    expect(many.status).toBe(400);
    let last = 200;
    for (let i = 0; i < 60 && last === 200; i++)
      last = (await t.request("GET", `${P}/users/search`, { token: me.token, query: { q: "pa" } })).status;
    expect(last).toBe(200);
    const over = await t.request("GET", `${P}/users/search`, { token: me.token, query: { q: "pa" } });
    expect(over.status).toBe(429);
    expect(over.headers.get("retry-after")).toBeTruthy();
    // The contract says so: a client generated from the document knows the headers of a 429.
    const document = await t.request("GET", `${P}/openapi.json`);
    expect(Object.keys(document.body.paths["/users/search"].get.responses["429"].headers)).toEqual([
      "Retry-After",
      "RateLimit-Limit",
      "RateLimit-Remaining",
      "RateLimit-Reset",
    ]);
  });
});
