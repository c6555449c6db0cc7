/**
 * The live room's enumerations, shared by the database schema (@booth/db re-exports them), the edge's validators,
 * the room and its clients. It imports only `enumOf`, which imports nothing, so any of them may load it.
 */
import { type EnumValue, enumOf } from "../enumeration.ts";

/** Who may take a seat in the booth (the room's `djType`). */
export const DjType = enumOf("EVERYONE", "INVITE_ONLY", "PRO_PLAN_OWNER", "VERIFIED_ONLY");
export type DjType = EnumValue<typeof DjType>;

/** A role someone holds in one room: its staff (owner, coOwner, moderator), its invited DJs, and its sanctions. */
export const RoomRoleName = enumOf(
  "moderator",
  "owner",
  "coOwner",
  "banned",
  "kicked",
  "chatDisabled",
  "djDisabled",
  "dj",
);
export type RoomRoleName = EnumValue<typeof RoomRoleName>;

/**
 * The roles that sanction someone. The room enforces them but shows them only to its moderators (and each to the
 * person it names): `settings.roomRoles` in the shared state never holds one.
 */
export const SANCTION_ROLES: readonly RoomRoleName[] = ["banned", "kicked", "chatDisabled", "djDisabled"];
