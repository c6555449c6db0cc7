import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../../testing.ts";

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const M = "/api/merch-service/api/v1/token-bundles";
const PNG = Uint8Array.from(
  atob("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg=="),
  (ch) => ch.charCodeAt(0),
);

describe("token bundles", () => {
  it("admins create, change, illustrate and delete (with POST) bundles; anyone lists them", async () => {
    const admin = await t.createUser({ roles: ["user", "admin"] });
    const user = await t.createUser();
    const small = await t.request("POST", M, {
      token: admin.token,
      body: { productId: "prod_small", name: "Handful", tokens: 100 },
    });
    expect(small.status).toBe(201);
    await t.request("POST", M, { token: admin.token, body: { productId: "prod_big", name: "Crate", tokens: 1000 } });
    expect(
      (await t.request("POST", M, { token: admin.token, body: { productId: "prod_small", name: "Again", tokens: 5 } }))
        .status,
    ).toBe(409);
    expect(
      (await t.request("POST", M, { token: user.token, body: { productId: "p", name: "n", tokens: 1 } })).status,
    ).toBe(403);
    expect(
      (await t.request("POST", M, { token: admin.token, body: { productId: "p", name: "n", tokens: 0 } })).status,
    ).toBe(400);
    expect((await t.request("GET", M)).body.map((b: { tokens: number }) => b.tokens)).toEqual([100, 1000]);
    expect((await t.request("GET", `${M}/count`, { query: { productId: "prod_big" } })).body).toEqual({ count: 1 });
    expect(
      (await t.request("PATCH", `${M}/${small.body.id}`, { token: admin.token, body: { tokens: 150 } })).body.tokens,
    ).toBe(150);
    const form = new FormData();
    form.set("file", new File([PNG], "t.png", { type: "image/png" }));
    const thumb = await t.request("PATCH", `${M}/${small.body.id}/thumbnail`, { token: admin.token, body: form });
    expect(thumb.body.thumbnail).toMatch(/^\/api\/merch-service\/files\//);
    expect((await t.request("POST", `${M}/${small.body.id}`, { token: user.token })).status).toBe(403);
    expect((await t.request("POST", `${M}/${small.body.id}`, { token: admin.token })).status).toBe(204);
    expect((await t.request("GET", `${M}/${small.body.id}`)).status).toBe(404);
  });
});
