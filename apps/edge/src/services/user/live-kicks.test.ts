// A ban, a temporary ban, a platform kick or a deactivation reaches the live rooms the user is in at once: each
// room they are present in (as the rooms report it) is told to kick them, and only those rooms.
import { schema } from "@booth/db";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import type { LiveRoomEvent } from "../../ports/live-rooms.ts";
import {
  createTestAppWithRoomsDown,
  openTestApp,
  presentInTwoRooms,
  publicRoom,
  reportPresent,
} from "../../testing.ts";
import { LIVE_KICK_REASONS } from "./live-rooms.ts";

const t = openTestApp();

const U = "/api/user-service";

const kicksSince = (from: number) =>
  t.live.events
    .slice(from)
    .filter(
      (e): e is { roomUuid: string; event: Extract<LiveRoomEvent, { type: "kickUser" }> } =>
        e.event.type === "kickUser",
    );

describe("a disabled account leaves its live rooms", () => {
  const cases = [
    ["POST", "/users/ban", (u: string) => ({ userUuid: u }), 201, LIVE_KICK_REASONS.ban],
    [
      "POST",
      "/users/temporary-ban",
      (u: string) => ({ userUuid: u, durationMinutes: 30 }),
      201,
      LIVE_KICK_REASONS.temporaryBan,
    ],
    ["POST", "/users/kick", (u: string) => ({ userUuid: u }), 201, LIVE_KICK_REASONS.kick],
    ["DELETE", "/users/deactivate/{id}", () => undefined, 204, LIVE_KICK_REASONS.deactivation],
  ] as const;

  for (const [method, path, body, status, reason] of cases)
    it(`${method} ${path} tells every room the user is in, and no other`, async () => {
      const admin = await t.createUser({ roles: ["user", "admin"] });
      const target = await t.createUser();
      const { a, b } = await presentInTwoRooms(t, target);
      const from = t.live.events.length;

      const res = await t.request(method, `${U}${path.replace("{id}", target.user.uuid)}`, {
        token: admin.token,
        body: body(target.user.uuid),
      });
      expect(res.status, JSON.stringify(res.body)).toBe(status);
      const kicks = kicksSince(from);
      expect(kicks.map((k) => k.roomUuid).sort()).toEqual([a, b].sort());
      for (const k of kicks) expect(k.event).toEqual({ type: "kickUser", userUuid: target.user.uuid, reason });

      // Their way back into a room goes through the edge's join, which refuses them with their old token.
      const join = await t
        .api(target.token)
        .room.POST("/rooms/{slug}/join", { params: { path: { slug: a } }, body: {} });
      expect(join.response.status).toBe(401);
    });

  it("tells no room when the moderation is refused", async () => {
    const moderator = await t.createUser({ roles: ["user", "globalModerator"] });
    const admin = await t.createUser({ roles: ["user", "admin"] });
    const owner = await t.createUser();
    const room = await publicRoom(t, owner, "Refused");
    await reportPresent(t, admin.user.uuid, room);
    const from = t.live.events.length;
    // A moderator cannot ban an admin, nor a plain user anyone.
    expect(
      (await t.api(moderator.token).user.POST("/users/ban", { body: { userUuid: admin.user.uuid } })).response.status,
    ).toBe(403);
    expect(
      (await t.api(owner.token).user.POST("/users/ban", { body: { userUuid: admin.user.uuid } })).response.status,
    ).toBe(403);
    expect(kicksSince(from)).toEqual([]);
  });
});

describe("a room that cannot be told", () => {
  it("does not undo or fail the ban: it is recorded, answered 201, and the failure logged", async () => {
    const { app: other, logged } = await createTestAppWithRoomsDown();
    try {
      const admin = await other.createUser({ roles: ["user", "admin"] });
      const owner = await other.createUser();
      const target = await other.createUser();
      const room = await publicRoom(other, owner, "Down");
      await reportPresent(other, target.user.uuid, room);
      const res = await other.api(admin.token).user.POST("/users/ban", { body: { userUuid: target.user.uuid } });
      expect(res.response.status).toBe(201);
      const rows = await other.db
        .select()
        .from(schema.sanctions)
        .where(eq(schema.sanctions.userUuid, target.user.uuid));
      expect(rows).toHaveLength(1);
      expect(logged).toContainEqual(
        expect.objectContaining({ level: "warn", roomUuid: room, error: "Error: the party is down" }),
      );
    } finally {
      await other.close();
    }
  });
});
