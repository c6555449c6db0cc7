import { describe, expect, it } from "vitest";
import { ok, openTestApp } from "../../testing.ts";

const t = openTestApp();

const P = "/api/user-service";
const nicknames = (body: { nickname: string }[]) => body.map((p) => p.nickname);

describe("people search", () => {
  it("finds people by part of their nickname, in any case, those it starts with first", async () => {
    const me = await t.createUser({ nickname: "searcher" });
    for (const nickname of ["MixMaster", "the_mixer", "Remix Queen", "Drummer"]) await t.createUser({ nickname });
    const found = await t.api(me.token).user.GET("/users/search", { params: { query: { q: "MIX" } } });
    expect(found.response.status).toBe(200);
    expect(nicknames(ok(found))).toEqual(["MixMaster", "Remix Queen", "the_mixer"]);
    expect(found.data?.[0]).toMatchObject({ nickname: "MixMaster", isBot: false });
    expect(found.data?.[0]).not.toHaveProperty("email");
    const one = await t.api(me.token).user.GET("/users/search", { params: { query: { q: "mix", limit: 1 } } });
    expect(nicknames(ok(one))).toEqual(["MixMaster"]);
    // Wildcards are letters like any other.
    const percent = await t.api(me.token).user.GET("/users/search", { params: { query: { q: "%" } } });
    expect(percent.data).toEqual([]);
  });

  it("does not find banned or deactivated people", async () => {
    const me = await t.createUser({ nickname: "looker" });
    const admin = await t.createUser({ roles: ["admin"] });
    const banned = await t.createUser({ nickname: "hidden-banned" });
    const gone = await t.createUser({ nickname: "hidden-gone" });
    expect(
      (await t.api(admin.token).user.POST("/users/ban", { body: { userUuid: banned.user.uuid } })).response.status,
    ).toBeLessThan(300);
    expect(
      (await t.api(admin.token).user.DELETE("/users/deactivate/{id}", { params: { path: { id: gone.user.uuid } } }))
        .response.status,
    ).toBeLessThan(300);
    await t.createUser({ nickname: "hidden-not" });
    const found = await t.api(me.token).user.GET("/users/search", { params: { query: { q: "hidden" } } });
    expect(nicknames(ok(found))).toEqual(["hidden-not"]);
  });

  it("answers only the signed in, refuses empty or overlong words, and limits the pace", async () => {
    expect((await t.api().user.GET("/users/search", { params: { query: { q: "mix" } } })).response.status).toBe(401);
    const me = await t.createUser({ nickname: "pacer" });
    const empty = await t.api(me.token).user.GET("/users/search", { params: { query: { q: "  " } } });
    expect(empty.response.status).toBe(400);
    const long = await t.api(me.token).user.GET("/users/search", { params: { query: { q: "x".repeat(101) } } });
    expect(long.response.status).toBe(400);
    const many = await t.api(me.token).user.GET("/users/search", { params: { query: { q: "x", limit: 51 } } });
    expect(many.response.status).toBe(400);
    let last = 200;
    for (let i = 0; i < 60 && last === 200; i++)
      last = (await t.api(me.token).user.GET("/users/search", { params: { query: { q: "pa" } } })).response.status;
    expect(last).toBe(200);
    const over = await t.api(me.token).user.GET("/users/search", { params: { query: { q: "pa" } } });
    expect(over.response.status).toBe(429);
    expect(over.response.headers.get("retry-after")).toBeTruthy();
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
