export {
  LiveRoomClient,
  type LiveRoomClientOptions,
  LiveRoomError,
  type WebSocketConstructor,
  type WebSocketLike,
} from "./client.ts";
export * from "./protocol.ts";
