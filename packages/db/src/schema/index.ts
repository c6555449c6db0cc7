export * from "./audit.ts";
export * from "./enums.ts";
export * from "./social.ts";
export * from "./user.ts";
