/** The room's settings as the room keeps them, and the sanctions split from what everyone sees. */
import { type RoomRole, type RoomSettings, SANCTION_ROLES } from "@booth/sdk/live/protocol";

/**
 * The settings as the room keeps them: without what the edge only knows from the room itself (who is in it, what
 * plays) or that changes with every report (updatedAt), so a join does not announce a change that is none.
 */
export function liveSettings(settings: RoomSettings): RoomSettings {
  const {
    numberOfUsersInRoom: _u,
    numberOfActiveDjs: _d,
    song: _s,
    updatedAt: _t,
    favorited: _f,
    ...rest
  } = settings as RoomSettings & Record<string, unknown>;
  return rest as RoomSettings;
}

const isSanction = (r: RoomRole) => SANCTION_ROLES.includes(r.role);

/** The edge's settings split in two: what everyone in the room sees, and the sanctions only moderators see. */
export function splitSettings(fromEdge: RoomSettings): { settings: RoomSettings; sanctions: RoomRole[] } {
  const settings = liveSettings(fromEdge);
  return {
    settings: { ...settings, roomRoles: settings.roomRoles.filter((r) => !isSanction(r)) },
    sanctions: settings.roomRoles.filter(isSanction),
  };
}

/** The settings with every role in force, sanctions included: what the rules are checked against. */
export function roomRules(state: { live: { settings: RoomSettings }; sanctions: RoomRole[] }): RoomSettings {
  const settings = state.live.settings;
  return state.sanctions.length ? { ...settings, roomRoles: [...settings.roomRoles, ...state.sanctions] } : settings;
}
