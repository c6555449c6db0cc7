import { describe, expect, it } from "vitest";
import { ok, openTestApp } from "../../testing.ts";

const t = openTestApp();

describe("devices", () => {
  it("registers, lists, reads and forgets a user's devices", async () => {
    const u = await t.createUser();
    const api = t.api(u.token);
    const phone = await api.social.POST("/devices", {
      body: { token: "fcm-1", deviceId: "pixel", platform: "android" },
    });
    expect(phone.response.status).toBe(201);
    ok(await api.social.POST("/devices", { body: { token: "apns-1", deviceId: "iphone", platform: "ios" } }));
    const again = await api.social.POST("/devices", {
      body: { token: "fcm-2", deviceId: "pixel", platform: "android" },
    });
    expect(again.data?.token).toBe("fcm-2");
    const mine = { params: { path: { id: u.user.uuid } } };
    const all = ok(await api.social.GET("/devices/all-devices/{id}", mine));
    expect(all.map((d) => d.token).sort()).toEqual(["apns-1", "fcm-2"]);
    const iphone = { params: { path: { a: u.user.uuid, b: "iphone" } } };
    expect(
      (await t.api(await t.serviceToken()).social.GET("/devices/single-device/{a}/{b}", iphone)).data?.platform,
    ).toBe("ios");
    expect((await api.social.DELETE("/devices/{a}/{b}", iphone)).response.status).toBe(204);
    expect(
      (await api.social.DELETE("/devices/{token}", { params: { path: { token: "fcm-2" } } })).response.status,
    ).toBe(204);
    expect((await api.social.GET("/devices/all-devices/{id}", mine)).data).toEqual([]);
  });

  it("moves a token that another account registers, and keeps devices private", async () => {
    const a = await t.createUser();
    const b = await t.createUser();
    const device = { body: { token: "shared-token", deviceId: "tablet", platform: "web" } } as const;
    ok(await t.api(a.token).social.POST("/devices", device));
    ok(await t.api(b.token).social.POST("/devices", device));
    const asA = t.api(a.token);
    expect((await asA.social.GET("/devices/all-devices/{id}", { params: { path: { id: a.user.uuid } } })).data).toEqual(
      [],
    );
    expect(
      (await asA.social.GET("/devices/all-devices/{id}", { params: { path: { id: b.user.uuid } } })).response.status,
    ).toBe(403);
    expect(
      (await asA.social.DELETE("/devices/{token}", { params: { path: { token: "shared-token" } } })).response.status,
    ).toBe(403);
    expect(
      (
        await t
          .api()
          .social.GET("/devices/single-device/{a}/{b}", { params: { path: { a: b.user.uuid, b: "tablet" } } })
      ).response.status,
    ).toBe(401);
    // A platform the contract does not name: only an untyped request can send it.
    expect(
      (
        await t.request("POST", "/api/social-service/devices", {
          token: a.token,
          body: { token: "x", deviceId: "d", platform: "palm" },
        })
      ).status,
    ).toBe(400);
    expect((await asA.social.DELETE("/devices/{token}", { params: { path: { token: "nope" } } })).response.status).toBe(
      404,
    );
  });
});
