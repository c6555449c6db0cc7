import { describe, expect, it } from "vitest";
import { GeoUnavailableError, ipScope, parseIp } from "./geo.ts";
import { dbipGeo, dbipGeoLocator } from "./geo-dbip.ts";

const must = (text: string) => {
  const ip = parseIp(text);
  if (!ip) throw new Error(`${text} did not parse`);
  return ip;
};

describe("parseIp", () => {
  it("reads IPv4 and IPv6 into canonical text", () => {
    expect(parseIp("81.2.69.160")).toMatchObject({ version: 4, text: "81.2.69.160" });
    expect(parseIp(" 8.8.8.8 ")).toMatchObject({ version: 4, text: "8.8.8.8" });
    expect(parseIp("2001:0DB8:0000:0000:0000:0000:0000:0001")).toMatchObject({ version: 6, text: "2001:db8::1" });
    expect(parseIp("::1")?.text).toBe("::1");
    expect(parseIp("::")?.text).toBe("::");
    expect(parseIp("2001:db8:0:0:1:0:0:1")?.text).toBe("2001:db8::1:0:0:1");
    expect(parseIp("fe80::1:2")?.text).toBe("fe80::1:2");
    expect(parseIp("1:2:3:4:5:6:7:8")?.text).toBe("1:2:3:4:5:6:7:8");
    expect(parseIp("64:ff9b::192.0.2.33")?.text).toBe("64:ff9b::c000:221");
  });

  it("answers an IPv4-mapped IPv6 address as its IPv4", () => {
    expect(parseIp("::ffff:8.8.8.8")).toMatchObject({ version: 4, text: "8.8.8.8" });
    expect(parseIp("::ffff:0808:0808")).toMatchObject({ version: 4, text: "8.8.8.8" });
  });

  it("refuses anything that is not exactly an address", () => {
    for (const bad of [
      "",
      "x",
      "1.2.3",
      "1.2.3.4.5",
      "256.1.1.1",
      "01.2.3.4",
      "1.2.3.4:80",
      "[::1]",
      "::1::",
      ":::",
      "1:2:3:4:5:6:7:8:9",
      "1:2:3:4:5:6:7",
      "1:2:3:4:5:6:7:8::",
      "12345::",
      "fe80::1%eth0",
      "g::1",
      "::1.2.3",
      "1.2.3.4::",
      "a".repeat(100),
    ])
      expect(parseIp(bad), bad).toBeNull();
  });
});

describe("ipScope", () => {
  it("tells public addresses from the ones no database can place", () => {
    const cases: [string, string][] = [
      ["8.8.8.8", "public"],
      ["2a00:1450:4001:80b::200e", "public"],
      ["10.1.2.3", "private"],
      ["172.16.0.1", "private"],
      ["172.32.0.1", "public"],
      ["192.168.1.1", "private"],
      ["100.64.0.1", "private"],
      ["127.0.0.1", "loopback"],
      ["169.254.1.1", "linkLocal"],
      ["0.0.0.0", "reserved"],
      ["192.0.2.1", "reserved"],
      ["224.0.0.1", "reserved"],
      ["255.255.255.255", "reserved"],
      ["::1", "loopback"],
      ["::", "reserved"],
      ["fd00::1", "private"],
      ["fe80::1", "linkLocal"],
      ["ff02::1", "reserved"],
      ["2001:db8::1", "reserved"],
      ["::ffff:192.168.0.1", "private"],
    ];
    for (const [text, scope] of cases) expect(ipScope(must(text)), text).toBe(scope);
  });
});

describe("the DB-IP locator", () => {
  it("places public IPv4 and IPv6 addresses from the offline database", async () => {
    expect(await dbipGeo.lookup(must("81.2.69.160"))).toMatchObject({ country: "GB", region: "England" });
    expect(await dbipGeo.lookup(must("8.8.8.8"))).toMatchObject({ country: "US" });
    expect((await dbipGeo.lookup(must("2a00:1450:4001:80b::200e")))?.country).toBe("DE");
    expect(dbipGeo.source).toContain("db-ip.com");
  });

  it("answers null for an address the database does not place", async () => {
    expect(await dbipGeo.lookup(must("10.0.0.1"))).toBeNull();
  });

  it("fails with GeoUnavailableError when the database cannot be read, and tries again next time", async () => {
    const geo = dbipGeoLocator({ dir: "/nonexistent-geo-dir" });
    await expect(geo.lookup(must("8.8.8.8"))).rejects.toBeInstanceOf(GeoUnavailableError);
    await expect(geo.lookup(must("8.8.8.8"))).rejects.toBeInstanceOf(GeoUnavailableError);
  });
});
