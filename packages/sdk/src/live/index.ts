export {
  LiveRoomClient,
  type LiveRoomClientOptions,
  LiveRoomError,
  type WebSocketConstructor,
  type WebSocketLike,
} from "./client.ts";
export * from "./edge-events.ts";
export * from "./permissions.ts";
export * from "./protocol.ts";
