import type { Schema } from "@booth/sdk";
import { ROOM_RANK, roomRank } from "@booth/sdk/live/permissions";
import { data, redirect } from "@remix-run/node";
import { userMessage } from "../../lib/errors.server.ts";
import { field } from "../../lib/forms.ts";
import { DJ_TYPES, ROOM_DESIGNS } from "../../lib/room-designs.ts";
import { currentRoomRoles, roomBySlug } from "../../lib/rooms.server.ts";
import { type Booth, sdkFor } from "../../lib/sdk.server.ts";
import { requireViewer } from "../../lib/session.server.ts";

type Room = Schema<"room", "Room">;

/** The platform roles that set guest passwords (the edge's `/rooms/admin/guest-password`: admins). */
const GUEST_PASSWORD_ROLES = ["superUser", "admin"];

/**
 * What the viewer may change here, as the edge ranks them: co-owners change how the room looks and plays, owners
 * (and the platform's moderators and up) also who may enter, admins the guest password; moderators read.
 */
export function permissionsOf(room: Room, viewer: { uuid: string; roles: string[] }, roomRoles: string[]) {
  const rank = roomRank(room, viewer.uuid, viewer.roles, roomRoles as never);
  return {
    read: rank >= ROOM_RANK.moderator,
    play: rank >= ROOM_RANK.coOwner,
    entry: rank >= ROOM_RANK.owner,
    guestPassword: viewer.roles.some((r) => GUEST_PASSWORD_ROLES.includes(r)),
  };
}

async function roomAndRank(booth: Booth, slug: string, viewer: { uuid: string; roles: string[] }) {
  const room = await roomBySlug(booth, slug);
  const roles = await currentRoomRoles(booth, room, viewer);
  return { room, may: permissionsOf(room, viewer, roles) };
}

/** The room's settings for its moderators and up; others are told who may see them. */
export async function loadRoomSettings(request: Request, slug: string) {
  const { token, viewer } = await requireViewer(request);
  const { room, may } = await roomAndRank(sdkFor(token), slug, viewer);
  return { room, may };
}

const PERCENT = /^\d{1,3}$/;
export const VOTE_SKIP_RANGE = "Vote-skip must be a share of the room from 1 to 100 percent.";

/**
 * Saves the settings the viewer may change, each group through the edge's route for it (the edge decides again):
 * how the room looks and plays (`PATCH /rooms/{id}`), its seats (`dj-seats`), who may enter (`infrastructure`:
 * owners), the guest password (admins). Passwords change only when asked to: a new one, or "remove".
 */
export async function saveRoomSettings(request: Request, slug: string) {
  const { token, viewer } = await requireViewer(request);
  const booth = sdkFor(token);
  const { room, may } = await roomAndRank(booth, slug, viewer);
  const form = await request.formData();
  const id = { params: { path: { id: room.uuid } } };
  const number = (name: string) => {
    const value = field(form, name);
    return value === "" ? null : Number(value);
  };
  const voteSkip = field(form, "voteSkipPercent");
  if (voteSkip && (!PERCENT.test(voteSkip) || Number(voteSkip) < 1 || Number(voteSkip) > 100))
    return data({ error: VOTE_SKIP_RANGE, saved: false }, { status: 400 });
  const design = ROOM_DESIGNS.find((d) => d === field(form, "design"));
  const djType = DJ_TYPES.find((d) => d === field(form, "djType"));
  const look = {
    name: field(form, "name"),
    description: field(form, "description"),
    ...(design ? { design } : {}),
    ...(djType ? { djType } : {}),
    songsPerDj: number("songsPerDj"),
    voteSkipThreshold: voteSkip ? Number(voteSkip) / 100 : null,
    waitlistEnabled: form.get("waitlistEnabled") === "on",
    idleDjMinutes: number("idleDjMinutes"),
  };
  try {
    if (!may.play) {
      // Not theirs to change: the edge says so in its words (a moderator, or someone whose role was taken back).
      await booth.room.PATCH("/rooms/{id}", { ...id, body: look });
    } else if (may.entry) {
      const password = field(form, "password");
      const passwordChange = form.get("removePassword") === "on" ? { password: null } : password ? { password } : {};
      await booth.room.PATCH("/rooms/{id}/infrastructure", {
        ...id,
        body: {
          ...look,
          numberOfDjs: number("numberOfDjs") ?? room.numberOfDjs,
          type: field(form, "type") === "PRIVATE" ? "PRIVATE" : "PUBLIC",
          ...passwordChange,
        },
      });
    } else {
      await booth.room.PATCH("/rooms/{id}", { ...id, body: look });
      const seats = number("numberOfDjs");
      if (seats !== null && seats !== room.numberOfDjs)
        await booth.room.PATCH("/rooms/dj-seats/{id}/infrastructure", { ...id, body: { numberOfDjs: seats } });
    }
    if (may.guestPassword) {
      const guestPassword = field(form, "guestPassword");
      if (form.get("removeGuestPassword") === "on" && room.isGuestPasswordProtected)
        await booth.room.DELETE("/rooms/admin/guest-password", { body: { roomUuid: room.uuid } });
      else if (guestPassword)
        await booth.room.POST("/rooms/admin/guest-password", { body: { roomUuid: room.uuid, guestPassword } });
    }
  } catch (error) {
    return data({ error: userMessage(error, request), saved: false }, { status: 400 });
  }
  return redirect(`/rooms/${room.slug}/settings?saved=1`);
}
