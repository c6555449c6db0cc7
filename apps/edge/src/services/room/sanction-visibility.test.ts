// Room sanctions (banned, kicked, chatDisabled, djDisabled) are the room's moderators' to see, in every answer that
// carries the room's roles: the join answer, a promoter's answer, the roles list. The live room reads them all with
// its service token.
import { schema } from "@booth/db";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../../testing.ts";

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const R = "/api/room-service";
const SANCTIONS = ["banned", "kicked", "chatDisabled", "djDisabled"];
const rolesIn = (body: { roomRoles: { role: string; userUuid: string }[] }) =>
  body.roomRoles.map((r) => `${r.role}:${r.userUuid}`).sort();

describe("who sees a room's sanctions", () => {
  it("moderators and the live room do; a member, a guest and a promoter never do", async () => {
    const owner = await t.createUser();
    const moderator = await t.createUser();
    const member = await t.createUser();
    const promoter = await t.createUser();
    await t.db
      .update(schema.users)
      .set({ capabilities: ["promoteRoom"] })
      .where(eq(schema.users.uuid, promoter.user.uuid));
    await t.accountChanged(promoter.user.uuid);
    const [muted, barred, banned] = [await t.createUser(), await t.createUser(), await t.createUser()];
    const created = await t.request("POST", `${R}/rooms/infrastructure`, {
      token: owner.token,
      body: { name: "Sanctioned room", type: "PUBLIC" },
    });
    const room: string = created.body.uuid;
    const grant = async (userUuid: string, role: string, token = owner.token) => {
      const res = await t.request("POST", `${R}/roomUserRoles/${room}`, { token, body: { userUuid, role } });
      expect(res.status, JSON.stringify(res.body)).toBe(201);
    };
    await grant(moderator.user.uuid, "moderator");
    await grant(muted.user.uuid, "chatDisabled", moderator.token);
    await grant(barred.user.uuid, "djDisabled", moderator.token);
    await grant(banned.user.uuid, "banned", moderator.token);
    const everyRole = [
      `owner:${owner.user.uuid}`,
      `moderator:${moderator.user.uuid}`,
      `chatDisabled:${muted.user.uuid}`,
      `djDisabled:${barred.user.uuid}`,
      `banned:${banned.user.uuid}`,
    ].sort();
    const publicRoles = [`owner:${owner.user.uuid}`, `moderator:${moderator.user.uuid}`].sort();

    const join = (token: string) => t.request("POST", `${R}/rooms/${room}/join`, { token, body: {} });
    const guest = (await t.request("GET", "/api/user-service/auth/guest")).body.accessToken as string;
    for (const token of [member.token, guest, muted.token]) {
      const res = await join(token);
      expect(res.status).toBe(200);
      expect(rolesIn(res.body)).toEqual(publicRoles);
      for (const role of SANCTIONS) expect(JSON.stringify(res.body)).not.toContain(role);
    }
    for (const token of [owner.token, moderator.token]) expect(rolesIn((await join(token)).body)).toEqual(everyRole);
    const service = await t.request("GET", `${R}/rooms/service/room/${room}`, { token: await t.serviceToken() });
    expect(rolesIn(service.body)).toEqual(everyRole);

    const promoted = await t.request("PATCH", `${R}/rooms/promote/${room}/infrastructure`, {
      token: promoter.token,
      body: { promoted: true },
    });
    expect(promoted.status, JSON.stringify(promoted.body)).toBe(200);
    expect(rolesIn(promoted.body)).toEqual(publicRoles);

    const listed = await t.request("GET", `${R}/roomUserRoles/${room}`, { token: member.token });
    expect(listed.body.map((r: { role: string }) => r.role).sort()).toEqual(["moderator", "owner"]);
  });
});
