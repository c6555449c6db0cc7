/**
 * The live room's enumerations, shared by the database schema (@booth/db re-exports them), the edge's validators,
 * the room and its clients. This file imports nothing, so any of them may load it.
 */

/** Who may take a seat in the booth (the room's `djType`). */
export const DjType = {
  EVERYONE: "EVERYONE",
  INVITE_ONLY: "INVITE_ONLY",
  PRO_PLAN_OWNER: "PRO_PLAN_OWNER",
  VERIFIED_ONLY: "VERIFIED_ONLY",
} as const;
export type DjType = (typeof DjType)[keyof typeof DjType];

/** A role someone holds in one room: its staff (owner, coOwner, moderator), its invited DJs, and its sanctions. */
export const RoomRoleName = {
  moderator: "moderator",
  owner: "owner",
  coOwner: "coOwner",
  banned: "banned",
  kicked: "kicked",
  chatDisabled: "chatDisabled",
  djDisabled: "djDisabled",
  dj: "dj",
} as const;
export type RoomRoleName = (typeof RoomRoleName)[keyof typeof RoomRoleName];

/**
 * The roles that sanction someone. The room enforces them but shows them only to its moderators (and each to the
 * person it names): `settings.roomRoles` in the shared state never holds one.
 */
export const SANCTION_ROLES: readonly RoomRoleName[] = ["banned", "kicked", "chatDisabled", "djDisabled"];
