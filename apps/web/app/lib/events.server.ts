import type { Schema } from "@booth/sdk";
import { timeField } from "./event-times.server.ts";
import { field } from "./forms.ts";
import type { Booth } from "./sdk.server.ts";

export type BoothEvent = Schema<"room", "Event">;

/** The rooms the viewer runs (owner, co-owner, moderator): where the edge lets them schedule an event. */
export const roomsToHost = (booth: Booth) =>
  booth.room
    .GET("/rooms/mine/list", {})
    .then((r) => (r.data ?? []).map((room) => ({ uuid: room.uuid, name: room.name })))
    .catch(() => [] as { uuid: string; name: string }[]);

/** The event form's fields as the edge's EventInput has them (an empty room: none). */
export function eventBody(form: FormData) {
  const roomUuid = field(form, "roomUuid");
  return {
    name: field(form, "name"),
    description: field(form, "description"),
    roomUuid: roomUuid || null,
    startsAt: timeField(form, "startsAt"),
    endsAt: timeField(form, "endsAt"),
  };
}
