export const ROOM_DESIGNS = [
  "CLUB",
  "UNDERGROUND",
  "FESTIVAL",
  "STADIUM",
  "THEATER",
  "TOMORROWLAND",
  "YACHT",
  "FERRY_BUILDING",
  "BARN",
  "CLUB_UA",
  "BARN_UA",
  "CHAT_ONLY",
] as const;
export type RoomDesign = (typeof ROOM_DESIGNS)[number];
export const DJ_TYPES = ["EVERYONE", "INVITE_ONLY", "VERIFIED_ONLY", "PRO_PLAN_OWNER"] as const;
