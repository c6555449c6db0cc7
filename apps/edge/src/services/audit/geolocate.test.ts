import { describe, expect, it } from "vitest";
import { unavailableGeo } from "../../ports/geo.ts";
import { expectErrorLog, ok, openTestApp, withTestApp } from "../../testing.ts";
import { GEO_UNAVAILABLE } from "./geolocation.ts";

const t = openTestApp();

const A = "/api/audit-service";

describe("GET /geolocate", () => {
  it("places the caller's address from the proxy's headers", async () => {
    const res = await t.api().audit.GET("/geolocate", { headers: { "x-forwarded-for": "81.2.69.160, 10.0.0.1" } });
    expect(res.response.status).toBe(200);
    expect(res.data).toMatchObject({ ip: "81.2.69.160", version: 4, scope: "public", found: true, country: "GB" });
    expect(res.data?.region).toBe("England");
    expect(res.data?.source).toContain("db-ip.com");
    const cf = await t.api().audit.GET("/geolocate", {
      headers: { "cf-connecting-ip": "2a00:1450:4001:80b::200e", "x-forwarded-for": "81.2.69.160" },
    });
    expect(cf.data).toMatchObject({ version: 6, country: "DE" });
    const withPort = await t.api().audit.GET("/geolocate", { headers: { "x-real-ip": "8.8.8.8:51234" } });
    expect(withPort.data).toMatchObject({ ip: "8.8.8.8", country: "US" });
  });

  it("answers a private address with its scope and no place", async () => {
    const res = await t.api().audit.GET("/geolocate", { headers: { "x-forwarded-for": "192.168.1.20" } });
    expect(res.response.status).toBe(200);
    expect(res.data).toMatchObject({ ip: "192.168.1.20", scope: "private", found: false, country: null, region: null });
    const loop = await t.api().audit.GET("/geolocate", { headers: { "x-real-ip": "[::1]:8080" } });
    expect(loop.data).toMatchObject({ ip: "::1", version: 6, scope: "loopback", found: false });
  });

  it("answers unknown when there is no address at all (an in-process request)", async () => {
    const res = await t.api().audit.GET("/geolocate");
    expect(res.response.status).toBe(200);
    expect(res.data).toMatchObject({ ip: null, version: null, scope: "unknown", found: false });
  });

  it("refuses a forwarded address that is not one, and limits how often one address asks", async () => {
    const bad = await t.api().audit.GET("/geolocate", { headers: { "x-forwarded-for": "not-an-ip" } });
    expect(bad.response.status).toBe(400);
    expect(bad.error?.message).toContain("x-forwarded-for");
    const headers = { "x-forwarded-for": "203.0.113.77" };
    const statuses: number[] = [];
    for (let i = 0; i < 61; i++) statuses.push((await t.api().audit.GET("/geolocate", { headers })).response.status);
    expect(statuses.slice(0, 60).every((s) => s === 200)).toBe(true);
    expect(statuses[60]).toBe(429);
  });
});

describe("POST /geolocate", () => {
  it("places any address for a signed-in caller, a guest or a service", async () => {
    const u = await t.createUser();
    const res = await t.api(u.token).audit.POST("/geolocate", { body: { ip: "8.8.8.8" } });
    expect(res.response.status).toBe(200);
    expect(res.data).toMatchObject({ ip: "8.8.8.8", scope: "public", found: true, country: "US" });
    const guest = ok(await t.api().user.GET("/auth/guest")).accessToken as string;
    expect((await t.api(guest).audit.POST("/geolocate", { body: { ip: "1.1.1.1" } })).data?.country).toBe("AU");
    const svc = await t.api(await t.serviceToken()).audit.POST("/geolocate", { body: { ip: "::ffff:81.2.69.160" } });
    expect(svc.data).toMatchObject({ ip: "81.2.69.160", version: 4, country: "GB" });
  });

  it("answers private and reserved addresses without a place", async () => {
    const u = await t.createUser();
    for (const ip of ["10.0.0.1", "fd12::1", "127.0.0.1", "2001:db8::5"]) {
      const res = await t.api(u.token).audit.POST("/geolocate", { body: { ip } });
      expect(res.response.status, ip).toBe(200);
      expect(res.data?.found, ip).toBe(false);
      expect(res.data?.scope, ip).not.toBe("public");
      expect(res.data?.country, ip).toBeNull();
    }
  });

  it("refuses callers without a token, and revoked or banned accounts", async () => {
    expect((await t.api().audit.POST("/geolocate", { body: { ip: "8.8.8.8" } })).response.status).toBe(401);
    expect((await t.api("garbage").audit.POST("/geolocate", { body: { ip: "8.8.8.8" } })).response.status).toBe(401);
    const mod = await t.createUser({ roles: ["user", "admin"] });
    const target = await t.createUser();
    const oldToken = target.token;
    await t.api(mod.token).user.POST("/users/ban", { body: { userUuid: target.user.uuid } });
    expect((await t.api(oldToken).audit.POST("/geolocate", { body: { ip: "8.8.8.8" } })).response.status).toBe(401);
  });

  it("refuses what is not an address, with the field named", async () => {
    const u = await t.createUser();
    for (const body of [
      { ip: "999.1.1.1" },
      { ip: "8.8.8.8:80" },
      { ip: "" },
      {},
      { ip: 8 },
      { ip: "8.8.8.8", x: 1 },
    ]) {
      // Raw: malformed bodies, which the typed client cannot send.
      const res = await t.request("POST", "/api/audit-service/geolocate", { token: u.token, body });
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(JSON.stringify(res.body.message), JSON.stringify(body)).toMatch(/ip|x/);
    }
  });
});

describe("when the database cannot be read", () => {
  it("answers 503 for public addresses, and still answers private ones", async () => {
    expectErrorLog("geolocation database unavailable");
    await withTestApp({ geo: unavailableGeo("no file") }, async (broken) => {
      const u = await broken.createUser();
      const res = await broken.request("POST", `${A}/geolocate`, { token: u.token, body: { ip: "8.8.8.8" } });
      expect(res.status).toBe(503);
      expect(res.body.message).toBe(GEO_UNAVAILABLE);
      const priv = await broken.request("POST", `${A}/geolocate`, { token: u.token, body: { ip: "10.0.0.1" } });
      expect(priv.status).toBe(200);
    });
  });
});
