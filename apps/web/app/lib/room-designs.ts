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

/** Each design's colours in small: a room card's picture, the design picker's swatch. */
export const DESIGN_SWATCHES: Record<string, string> = {
  CLUB: "linear-gradient(135deg,#6d28d9,#db2777)",
  CLUB_UA: "linear-gradient(135deg,#1d4ed8,#facc15)",
  BARN: "linear-gradient(135deg,#92400e,#f59e0b)",
  BARN_UA: "linear-gradient(135deg,#78350f,#2563eb)",
  CHAT_ONLY: "linear-gradient(135deg,#334155,#64748b)",
  FERRY_BUILDING: "linear-gradient(135deg,#0e7490,#f97316)",
  FESTIVAL: "linear-gradient(135deg,#16a34a,#eab308)",
  STADIUM: "linear-gradient(135deg,#1e3a8a,#22d3ee)",
  THEATER: "linear-gradient(135deg,#7f1d1d,#f43f5e)",
  TOMORROWLAND: "linear-gradient(135deg,#4c1d95,#f0abfc)",
  UNDERGROUND: "linear-gradient(135deg,#111827,#7c3aed)",
  YACHT: "linear-gradient(135deg,#0369a1,#e0f2fe)",
};

/** Each design's stage behind the booth (a design without one keeps the stage's own). */
export const STAGE_BACKGROUNDS: Record<string, string> = {
  CLUB: "linear-gradient(180deg, #2a0e4f 0%, #0d0818 100%)",
  UNDERGROUND: "linear-gradient(180deg, #111827 0%, #05040a 100%)",
  FESTIVAL: "linear-gradient(180deg, #14532d 0%, #0b1a10 70%, #1c1404 100%)",
  STADIUM: "linear-gradient(180deg, #1e3a8a 0%, #050b1f 100%)",
  THEATER: "linear-gradient(180deg, #5b0f1d 0%, #140306 100%)",
  TOMORROWLAND: "linear-gradient(180deg, #4c1d95 0%, #831843 60%, #0d0818 100%)",
  YACHT: "linear-gradient(180deg, #0c4a6e 0%, #082f49 60%, #0b1220 100%)",
  FERRY_BUILDING: "linear-gradient(180deg, #7c2d12 0%, #0c4a6e 100%)",
  BARN: "linear-gradient(180deg, #78350f 0%, #1c0f05 100%)",
  BARN_UA: "linear-gradient(180deg, #78350f 0%, #1c0f05 100%)",
  CLUB_UA: "linear-gradient(180deg, #1d4ed8 0%, #422006 100%)",
  CHAT_ONLY: "linear-gradient(180deg, #1f2937 0%, #0b0f17 100%)",
};
