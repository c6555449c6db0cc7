/** The room service's front door: what other services may call (decision 0021). */

/** Rooms: find one, load one (404), the caller's rank in one, the role rows that match a filter. */
export { findRoom, loadRoom, ROOM_NOT_FOUND, ROOM_RANK, type Room, roomRank, roomRolesWhere } from "./access.ts";
/** Access to a live room: refuses a caller the room does not admit, else answers their rank and roles there. */
export { requireRoomAdmission } from "./admission.ts";
/** The user service's `POST /agora/token`: a room's voice channel token (handed to `userService`). */
export { agoraToken } from "./agora.handlers.ts";
/**
 * A followed DJ started a song in a room: queued to be posted to the room's guild's channel when it chose one
 * (`announceDjStart`), and posted by the worker (`postDjStart`).
 */
export { announceDjStart, postDjStart } from "./discord-announce.ts";
/** Whether a guest is present in a live room. */
export { guestIsIn } from "./guest-presence.ts";
/** A deleted image stops being the poster of the rooms that show it (handed to `userService`). */
export { forgetPoster } from "./room-changes.ts";
