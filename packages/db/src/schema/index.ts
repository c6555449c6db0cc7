export * from "./enums.ts";
export * from "./user.ts";
