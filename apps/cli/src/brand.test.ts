// `booth brand` names the instance's brand (BOOTH_BRAND) and its sources; in the catalogue brand, importing a
// streaming provider's playlist is refused with the edge's message and makes nothing (decision 0027).
import { schema } from "@booth/db";
import type { TestApp } from "@booth/edge/testing";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type CliWorld, startCliWorld } from "./testing.ts";

let world: CliWorld;
let t: TestApp;
beforeAll(async () => {
  world = await startCliWorld({ homePrefix: "booth-cli-brand-", timeout: 60_000 });
  t = world.t;
});
afterAll(async () => {
  await world?.close();
});

const booth = (...args: string[]) => world.booth(...args);
const catalogue = () => {
  t.deps.config = { ...t.deps.config, brand: "catalogue" };
};

describe("booth brand", () => {
  it("names the brand and its sources, as text and as JSON; the catalogue brand refuses a Spotify playlist", async () => {
    const streaming = await booth("brand");
    expect(streaming.code, streaming.stderr).toBe(0);
    expect(streaming.stdout).toMatch(/^streaming \(Booth\): uploadService, youtube, spotify, /);
    expect(streaming.stdout).toContain("sevenDigital");

    catalogue();
    const text = await booth("brand");
    expect(text.stdout.trim()).toBe("catalogue (Booth Records): uploadService, sevenDigital");
    const json = await booth("brand", "--json");
    expect(JSON.parse(json.stdout)).toEqual({
      brand: "catalogue",
      name: "Booth Records",
      sources: ["uploadService", "sevenDigital"],
    });

    const user = await t.createUser();
    expect((await booth("login", "-e", user.email, "-p", user.password)).code).toBe(0);
    const refused = await booth("crates", "import", "https://open.spotify.com/playlist/37i9dQZF1DXcBWIGoYBM5M");
    expect(refused.code).not.toBe(0);
    expect(refused.stderr).toContain(
      "This Booth plays uploads and the licensed catalogue only: Spotify playlists are not offered.",
    );
    const crates = await t.db.select().from(schema.crates).where(eq(schema.crates.userUuid, user.user.uuid));
    expect(crates.filter((c) => c.kind === "default")).toEqual([]);
  });
});
