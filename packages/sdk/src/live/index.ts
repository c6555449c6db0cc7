export * from "./client.ts";
export * from "./edge-events.ts";
export * from "./permissions.ts";
export * from "./protocol.ts";
