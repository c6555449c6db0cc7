import { describe, expect, it } from "vitest";
import { openDemo } from "../bootstrap.ts";
import { openTestApp } from "../testing.ts";
import { DEMO_BUNDLES, DEMO_CONSUMABLES } from "./demo-shop.ts";

const t = openTestApp();

describe("a fresh instance's demo", () => {
  it("opens its rooms before any track is loaded, stocks the shop, then loads the catalogue", async () => {
    const lines: string[] = [];
    await openDemo(t.deps, (line) => lines.push(line), { perArtist: 1, seconds: 2 });
    const firstTrack = lines.findIndex((l) => l.startsWith("Demo catalogue: 1/"));
    expect(lines[0]).toBe("Demo rooms open: /rooms/booth-lounge, /rooms/ambient-corner");
    expect(lines[1]).toBe("Demo shop stocked: 3 token bundles, 3 consumables");
    expect(firstTrack).toBe(2);
    expect(lines.at(-1)).toMatch(/^Demo catalogue ready: \d+ tracks$/);

    // What a shopper sees: the bundles with their prices and tokens, and the consumables.
    const bundles = await t.request("GET", "/api/merch-service/api/v1/token-bundles");
    expect(bundles.status).toBe(200);
    expect(bundles.body.map((b: { name: string; tokens: number }) => [b.name, b.tokens])).toEqual(
      DEMO_BUNDLES.map((b) => [b.name, b.tokens]),
    );
    const products = await t.request("GET", "/api/payment-service/api/v1/products");
    expect(
      products.body
        .filter((p: { tokens: number | null }) => p.tokens !== null)
        .map((p: { priceCents: number; tokens: number }) => [p.priceCents, p.tokens]),
    ).toEqual(DEMO_BUNDLES.map((b) => [b.priceCents, b.tokens]));
    const consumables = await t.request("GET", "/api/merch-service/api/v1/consumables");
    expect(consumables.body.map((c: { name: string }) => c.name).sort()).toEqual(
      DEMO_CONSUMABLES.map((c) => c.name).sort(),
    );
  }, 120_000);

  it("opens nothing twice, and leaves a shop an admin changed as it is", async () => {
    const admin = await t.createUser({ roles: ["admin"] });
    const [first] = (await t.request("GET", "/api/merch-service/api/v1/consumables")).body;
    expect(
      (await t.request("DELETE", `/api/merch-service/api/v1/consumables/${first.id}`, { token: admin.token })).status,
    ).toBe(204);
    const lines: string[] = [];
    await openDemo(t.deps, (line) => lines.push(line), { perArtist: 1, seconds: 2 });
    expect(lines).toEqual([]);
    const consumables = await t.request("GET", "/api/merch-service/api/v1/consumables");
    expect(consumables.body).toHaveLength(DEMO_CONSUMABLES.length - 1);
  });
});
