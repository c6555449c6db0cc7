/**
 * What the edge tells a live room after a change made over REST: POST `/parties/main/{roomUuid}` with one of these
 * as its JSON body, and a service token. The edge sends a `LiveRoomEvent`; the room parses it with
 * `EdgeEventSchema` and acts on the `EdgeEvent` that results.
 */
import { z } from "zod";
import { ChatConsumableSchema, RoomSettingsSchema } from "./protocol.ts";

export const EdgeEventSchema = z.discriminatedUnion("type", [
  z.object({ type: z.literal("updateRoomSettings"), settings: RoomSettingsSchema }),
  z.object({ type: z.literal("updateRoles") }),
  /** `reason` is what the user reads (at most 100 characters); the room says its own words without one. */
  z.object({
    type: z.literal("kickUser"),
    userUuid: z.uuid(),
    // A close frame's reason holds at most 123 bytes.
    reason: z.string().trim().min(1).max(100).optional(),
  }),
  z.object({ type: z.literal("resetRoom") }),
  z.object({ type: z.literal("clearChat") }),
  z.object({
    type: z.literal("showConsumable"),
    buyer: z.object({ uuid: z.uuid(), nickname: z.string().max(100) }),
    consumable: ChatConsumableSchema,
  }),
  /** The user's queue crate changed: a room where they are a DJ reads it again (and plays, if it was silent). */
  z.object({ type: z.literal("queueChanged"), userUuid: z.uuid() }),
]);

/** An event as the room reads it, once parsed. */
export type EdgeEvent = z.infer<typeof EdgeEventSchema>;
/** An event as the edge sends it. */
export type LiveRoomEvent = z.input<typeof EdgeEventSchema>;
