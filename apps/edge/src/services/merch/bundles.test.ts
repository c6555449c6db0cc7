import { describe, expect, it } from "vitest";
import { multipart, ok, openTestApp } from "../../testing.ts";

const t = openTestApp();

const PNG = Uint8Array.from(
  atob("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg=="),
  (ch) => ch.charCodeAt(0),
);

describe("token bundles", () => {
  it("admins create, change, illustrate and delete (with POST) bundles; anyone lists them", async () => {
    const admin = t.api((await t.createUser({ roles: ["user", "admin"] })).token);
    const user = t.api((await t.createUser()).token);
    const anyone = t.api();
    const small = await admin.merch.POST("/api/v1/token-bundles", {
      body: { productId: "prod_small", name: "Handful", tokens: 100 },
    });
    expect(small.response.status).toBe(201);
    const id = ok(small).id;
    ok(
      await admin.merch.POST("/api/v1/token-bundles", { body: { productId: "prod_big", name: "Crate", tokens: 1000 } }),
    );
    expect(
      (await admin.merch.POST("/api/v1/token-bundles", { body: { productId: "prod_small", name: "Again", tokens: 5 } }))
        .response.status,
    ).toBe(409);
    expect(
      (await user.merch.POST("/api/v1/token-bundles", { body: { productId: "p", name: "n", tokens: 1 } })).response
        .status,
    ).toBe(403);
    expect(
      (await admin.merch.POST("/api/v1/token-bundles", { body: { productId: "p", name: "n", tokens: 0 } })).response
        .status,
    ).toBe(400);
    expect(ok(await anyone.merch.GET("/api/v1/token-bundles")).map((b) => b.tokens)).toEqual([100, 1000]);
    expect(
      (await anyone.merch.GET("/api/v1/token-bundles/count", { params: { query: { productId: "prod_big" } } })).data,
    ).toEqual({ count: 1 });
    const path = { params: { path: { id } } };
    expect(ok(await admin.merch.PATCH("/api/v1/token-bundles/{id}", { ...path, body: { tokens: 150 } })).tokens).toBe(
      150,
    );
    const form = new FormData();
    form.set("file", new File([PNG], "t.png", { type: "image/png" }));
    const thumb = await admin.merch.PATCH("/api/v1/token-bundles/{id}/thumbnail", { ...path, ...multipart(form) });
    expect(ok(thumb).thumbnail).toMatch(/^\/api\/merch-service\/files\//);
    expect((await user.merch.POST("/api/v1/token-bundles/{id}", path)).response.status).toBe(403);
    expect((await admin.merch.POST("/api/v1/token-bundles/{id}", path)).response.status).toBe(204);
    expect((await anyone.merch.GET("/api/v1/token-bundles/{id}", path)).response.status).toBe(404);
  });
});
