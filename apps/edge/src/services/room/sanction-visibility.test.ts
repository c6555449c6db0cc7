// Room sanctions (banned, kicked, chatDisabled, djDisabled) are the room's moderators' to see, in every answer that
// carries the room's roles: the join answer, a promoter's answer, the roles list. The live room reads them all with
// its service token.
import type { RoomRole } from "@booth/db/schema";
import { describe, expect, it } from "vitest";
import { ok, openTestApp } from "../../testing.ts";

const t = openTestApp();

const R = "/api/room-service";
const SANCTIONS = ["banned", "kicked", "chatDisabled", "djDisabled"];
// The contract of the promote route leaves its roomRoles untyped (unknown[]).
const rolesIn = (body: { roomRoles: unknown[] }) =>
  (body.roomRoles as { role: string; userUuid: string | null }[]).map((r) => `${r.role}:${r.userUuid}`).sort();

describe("who sees a room's sanctions", () => {
  it("moderators and the live room do; a member, a guest and a promoter never do", async () => {
    const { owner, moderator, member, promoter } = await t.createUsers("owner", "moderator", "member", "promoter");
    await t.changeUser(promoter.user.uuid, { capabilities: ["promoteRoom"] });
    const [muted, barred, banned] = [await t.createUser(), await t.createUser(), await t.createUser()];
    const created = await t
      .api(owner.token)
      .room.POST("/rooms/infrastructure", { body: { name: "Sanctioned room", type: "PUBLIC" } });
    const room: string = ok(created).uuid;
    const grant = async (userUuid: string, role: RoomRole, token = owner.token) => {
      const res = await t
        .api(token)
        .room.POST("/roomUserRoles/{room}", { params: { path: { room } }, body: { userUuid, role } });
      expect(res.response.status, JSON.stringify(res.error ?? res.data)).toBe(201);
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
    const guest = ok(await t.api().user.GET("/auth/guest")).accessToken as string;
    for (const token of [member.token, guest, muted.token]) {
      const res = await join(token);
      expect(res.status).toBe(200);
      expect(rolesIn(res.body)).toEqual(publicRoles);
      for (const role of SANCTIONS) expect(JSON.stringify(res.body)).not.toContain(role);
    }
    for (const token of [owner.token, moderator.token]) expect(rolesIn((await join(token)).body)).toEqual(everyRole);
    const service = await t
      .api(await t.serviceToken())
      .room.GET("/rooms/service/room/{id}", { params: { path: { id: room } } });
    expect(rolesIn(ok(service))).toEqual(everyRole);

    const promoted = await t
      .api(promoter.token)
      .room.PATCH("/rooms/promote/{id}/infrastructure", { params: { path: { id: room } }, body: { promoted: true } });
    expect(promoted.response.status, JSON.stringify(promoted.error ?? promoted.data)).toBe(200);
    expect(rolesIn(ok(promoted))).toEqual(publicRoles);

    const listed = await t.api(member.token).room.GET("/roomUserRoles/{room}", { params: { path: { room } } });
    expect(listed.data?.map((r) => r.role).sort()).toEqual(["moderator", "owner"]);
  });
});
