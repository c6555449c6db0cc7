import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../../testing.ts";

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const S = "/api/social-service";

describe("devices", () => {
  it("registers, lists, reads and forgets a user's devices", async () => {
    const u = await t.createUser();
    const phone = await t.request("POST", `${S}/devices`, {
      token: u.token,
      body: { token: "fcm-1", deviceId: "pixel", platform: "android" },
    });
    expect(phone.status).toBe(201);
    await t.request("POST", `${S}/devices`, {
      token: u.token,
      body: { token: "apns-1", deviceId: "iphone", platform: "ios" },
    });
    const again = await t.request("POST", `${S}/devices`, {
      token: u.token,
      body: { token: "fcm-2", deviceId: "pixel", platform: "android" },
    });
    expect(again.body.token).toBe("fcm-2");
    const all = await t.request("GET", `${S}/devices/all-devices/${u.user.uuid}`, { token: u.token });
    expect(all.body.map((d: { token: string }) => d.token).sort()).toEqual(["apns-1", "fcm-2"]);
    expect(
      (await t.request("GET", `${S}/devices/single-device/${u.user.uuid}/iphone`, { token: await t.serviceToken() }))
        .body.platform,
    ).toBe("ios");
    expect((await t.request("DELETE", `${S}/devices/${u.user.uuid}/iphone`, { token: u.token })).status).toBe(204);
    expect((await t.request("DELETE", `${S}/devices/fcm-2`, { token: u.token })).status).toBe(204);
    expect((await t.request("GET", `${S}/devices/all-devices/${u.user.uuid}`, { token: u.token })).body).toEqual([]);
  });

  it("moves a token that another account registers, and keeps devices private", async () => {
    const a = await t.createUser();
    const b = await t.createUser();
    await t.request("POST", `${S}/devices`, {
      token: a.token,
      body: { token: "shared-token", deviceId: "tablet", platform: "web" },
    });
    await t.request("POST", `${S}/devices`, {
      token: b.token,
      body: { token: "shared-token", deviceId: "tablet", platform: "web" },
    });
    expect((await t.request("GET", `${S}/devices/all-devices/${a.user.uuid}`, { token: a.token })).body).toEqual([]);
    expect((await t.request("GET", `${S}/devices/all-devices/${b.user.uuid}`, { token: a.token })).status).toBe(403);
    expect((await t.request("DELETE", `${S}/devices/shared-token`, { token: a.token })).status).toBe(403);
    expect((await t.request("GET", `${S}/devices/single-device/${b.user.uuid}/tablet`)).status).toBe(401);
    expect(
      (
        await t.request("POST", `${S}/devices`, {
          token: a.token,
          body: { token: "x", deviceId: "d", platform: "palm" },
        })
      ).status,
    ).toBe(400);
    expect((await t.request("DELETE", `${S}/devices/nope`, { token: a.token })).status).toBe(404);
  });
});
