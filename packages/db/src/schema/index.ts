export * from "./audit.ts";
export * from "./enums.ts";
export * from "./merch.ts";
export * from "./playlist.ts";
export * from "./room.ts";
export * from "./social.ts";
export * from "./upload.ts";
export * from "./user.ts";
