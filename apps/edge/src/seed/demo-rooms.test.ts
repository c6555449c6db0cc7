import { describe, expect, it } from "vitest";
import { createAccount } from "../services/user/accounts.ts";
import { openTestApp } from "../testing.ts";
import { DEMO_EMAIL } from "./demo-catalogue.ts";
import { seedDemoRooms } from "./demo-rooms.ts";

const t = openTestApp();

describe("demo rooms", () => {
  it("open once the demo account exists, in the public list with the lounge promoted, and only once", async () => {
    expect(await seedDemoRooms(t.deps)).toBe(0);
    await t.db.transaction((tx) =>
      createAccount(tx, { email: DEMO_EMAIL, nickname: "Booth Demo", emailStatus: "VERIFIED", now: t.clock.now() }),
    );
    expect(await seedDemoRooms(t.deps)).toBe(2);
    expect(await seedDemoRooms(t.deps)).toBe(0);
    const listed = await t.request("GET", "/api/room-service/rooms/public");
    expect(listed.body.data.map((r: { slug: string }) => r.slug).sort()).toEqual(["ambient-corner", "booth-lounge"]);
    const lounge = await t.request("GET", "/api/room-service/rooms/booth-lounge");
    expect(lounge.status).toBe(200);
    expect(lounge.body).toMatchObject({ name: "Booth Lounge", type: "PUBLIC", promoted: true });
    // Anyone signed in may join it.
    const visitor = await t.createUser();
    const joined = await t.request("POST", `/api/room-service/rooms/booth-lounge/join`, { token: visitor.token });
    expect(joined.status, JSON.stringify(joined.body)).toBe(200);
  });
});
