import { describe, expect, it } from "vitest";
import {
  canDj,
  highestRole,
  isRoomModerator,
  mayDeleteChat,
  mayRemoveDj,
  maySkip,
  ROOM_RANK,
  type RoleGrant,
  type RoomRules,
  rolesInForce,
  roomModeratorRole,
  roomRank,
} from "./permissions.ts";

const NOW = Date.parse("2026-06-01T12:00:00Z");
const OWNER = "00000000-0000-4000-8000-0000000000ff";
const ALICE = "00000000-0000-4000-8000-000000000001";
const BOB = "00000000-0000-4000-8000-000000000002";
const later = new Date(NOW + 60_000).toISOString();
const earlier = new Date(NOW - 60_000).toISOString();

const rules = (roomRoles: RoleGrant[] = [], patch: Partial<RoomRules> = {}): RoomRules => ({
  roomRoles,
  ownerUuid: OWNER,
  djType: "EVERYONE",
  ...patch,
});
const grant = (userUuid: string, role: RoleGrant["role"], expirationTime: string | null = null): RoleGrant => ({
  userUuid,
  role,
  expirationTime,
});
const person = (uuid: string, globalRoles: string[] = ["user"]) => ({ uuid, globalRoles });
const candidate = (uuid: string, patch: Partial<Parameters<typeof canDj>[0]> = {}) => ({
  uuid,
  globalRoles: ["user"],
  tokenRole: "user" as const,
  verified: false,
  badges: [] as string[],
  ...patch,
});

describe("roles in force", () => {
  it("holds roles without an expiration or expiring later, and drops expired ones", () => {
    const room = rules([
      grant(ALICE, "moderator", later),
      grant(ALICE, "dj"),
      grant(ALICE, "chatDisabled", earlier),
      grant(BOB, "banned"),
    ]);
    expect(rolesInForce(room, ALICE, NOW)).toEqual(["moderator", "dj"]);
    // At the very moment of its expiration, a role is over.
    expect(rolesInForce(room, ALICE, Date.parse(later))).toEqual(["dj"]);
  });
});

describe("the room's owner", () => {
  it("moderates and ranks as owner without holding any role", () => {
    const room = rules();
    expect(isRoomModerator(person(OWNER), room, NOW)).toBe(true);
    expect(roomModeratorRole(room, OWNER, NOW)).toBe("owner");
    expect(highestRole(person(OWNER), room, NOW)).toBe("owner");
    expect(roomRank(room, OWNER, ["user"], [])).toBe(ROOM_RANK.owner);
  });

  it("is whoever the room names: an owner role in force counts too, an expired one does not", () => {
    const room = rules([grant(ALICE, "owner", later), grant(BOB, "owner", earlier)]);
    expect(roomModeratorRole(room, ALICE, NOW)).toBe("owner");
    expect(isRoomModerator(person(BOB), room, NOW)).toBe(false);
    expect(roomModeratorRole(room, BOB, NOW)).toBe(null);
  });

  it("may DJ in an invite-only room, and a banned owner may not", () => {
    expect(canDj(candidate(OWNER), rules([], { djType: "INVITE_ONLY" }), NOW)).toBe(true);
    expect(canDj(candidate(OWNER), rules([grant(OWNER, "banned")], { djType: "INVITE_ONLY" }), NOW)).toBe(false);
  });
});

describe("moderators", () => {
  it("moderate while their role is in force, and no longer once it expires", () => {
    const room = rules([grant(ALICE, "moderator", later), grant(BOB, "coOwner", earlier)]);
    expect(isRoomModerator(person(ALICE), room, NOW)).toBe(true);
    expect(roomModeratorRole(room, ALICE, NOW)).toBe("moderator");
    expect(isRoomModerator(person(ALICE), room, Date.parse(later) + 1)).toBe(false);
    expect(roomModeratorRole(room, ALICE, Date.parse(later) + 1)).toBe(null);
    expect(isRoomModerator(person(BOB), room, NOW)).toBe(false);
    expect(highestRole(person(BOB), room, NOW)).toBe(undefined);
  });

  it("show the strongest of their roles", () => {
    const room = rules([grant(ALICE, "dj"), grant(ALICE, "moderator"), grant(ALICE, "coOwner")]);
    expect(roomModeratorRole(room, ALICE, NOW)).toBe("coOwner");
    expect(highestRole(person(ALICE), room, NOW)).toBe("coOwner");
    expect(highestRole(person(BOB), rules([grant(BOB, "dj")]), NOW)).toBe("dj");
  });

  it("include the platform's moderators and up, above any owner", () => {
    const room = rules();
    for (const role of ["globalModerator", "staff", "admin", "superUser"]) {
      expect(isRoomModerator(person(ALICE, ["user", role]), room, NOW)).toBe(true);
      expect(highestRole(person(ALICE, [role]), room, NOW)).toBe(role);
      expect(roomRank(room, ALICE, [role], [])).toBeGreaterThan(ROOM_RANK.owner);
    }
    expect(roomRank(room, ALICE, ["admin"], [])).toBeGreaterThan(roomRank(room, ALICE, ["staff"], []));
    // A platform moderator (the `moderator` account role) is no room's moderator.
    expect(isRoomModerator(person(ALICE, ["moderator", "promoter"]), room, NOW)).toBe(false);
  });

  it("rank owner > coOwner > moderator > everyone else", () => {
    const room = rules();
    expect(roomRank(room, ALICE, [], ["coOwner", "moderator"])).toBe(ROOM_RANK.coOwner);
    expect(roomRank(room, ALICE, [], ["moderator", "dj"])).toBe(ROOM_RANK.moderator);
    expect(roomRank(room, ALICE, ["promoter"], ["dj"])).toBe(ROOM_RANK.none);
  });

  it("may remove any DJ, skip any song and delete any message; others only their own", () => {
    const room = rules([grant(ALICE, "moderator", later)]);
    expect(mayRemoveDj(person(ALICE), BOB, room, NOW)).toBe(true);
    expect(maySkip(person(ALICE), BOB, room, NOW)).toBe(true);
    expect(mayDeleteChat(person(ALICE), BOB, room, NOW)).toBe(true);
    expect(mayRemoveDj(person(BOB), ALICE, room, NOW)).toBe(false);
    expect(mayRemoveDj(person(BOB), BOB, room, NOW)).toBe(true);
    expect(maySkip(person(BOB), BOB, room, NOW)).toBe(true);
    expect(mayDeleteChat(person(BOB), BOB, room, NOW)).toBe(true);
    expect(mayDeleteChat(person(ALICE), BOB, room, Date.parse(later))).toBe(false);
  });
});

describe("who may DJ", () => {
  it("never a guest, nor someone banned or djDisabled while it lasts", () => {
    expect(canDj(candidate(ALICE, { tokenRole: "guest" }), rules(), NOW)).toBe(false);
    expect(canDj(candidate(ALICE), rules([grant(ALICE, "banned")]), NOW)).toBe(false);
    expect(canDj(candidate(ALICE), rules([grant(ALICE, "djDisabled", later)]), NOW)).toBe(false);
    expect(canDj(candidate(ALICE), rules([grant(ALICE, "djDisabled", earlier)]), NOW)).toBe(true);
  });

  it("as the room's djType says", () => {
    expect(canDj(candidate(ALICE), rules(), NOW)).toBe(true);
    const invite = rules([grant(BOB, "dj", later)], { djType: "INVITE_ONLY" });
    expect(canDj(candidate(ALICE), invite, NOW)).toBe(false);
    expect(canDj(candidate(BOB), invite, NOW)).toBe(true);
    expect(canDj(candidate(BOB), invite, Date.parse(later))).toBe(false);
    const verified = rules([], { djType: "VERIFIED_ONLY" });
    expect(canDj(candidate(ALICE), verified, NOW)).toBe(false);
    expect(canDj(candidate(ALICE, { verified: true }), verified, NOW)).toBe(true);
    const pro = rules([], { djType: "PRO_PLAN_OWNER" });
    expect(canDj(candidate(ALICE, { badges: ["VERIFIED"] }), pro, NOW)).toBe(false);
    expect(canDj(candidate(ALICE, { badges: ["PLATINUM"] }), pro, NOW)).toBe(true);
    // Moderators may always DJ.
    expect(canDj(candidate(ALICE, { globalRoles: ["staff"] }), pro, NOW)).toBe(true);
    expect(canDj(candidate(ALICE), rules([grant(ALICE, "moderator")], { djType: "INVITE_ONLY" }), NOW)).toBe(true);
  });
});
