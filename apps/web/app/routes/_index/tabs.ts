export const ROOM_TABS = ["discover", "mine", "recent", "favorites", "communities"] as const;
export type RoomTab = (typeof ROOM_TABS)[number];
/** The spec's room page size. */
export const ROOM_PAGE = 100;
