import { data, redirect } from "@remix-run/node";
import { userMessage } from "../../lib/errors.server.ts";
import { type BoothEvent, eventBody, roomsToHost } from "../../lib/events.server.ts";
import { sdkFor } from "../../lib/sdk.server.ts";
import { readSession, requireViewer } from "../../lib/session.server.ts";

/** Events on now and to come (anyone), and for a signed-in person the rooms they may schedule one in. */
export async function loadEvents(request: Request) {
  const { token } = await readSession(request);
  const booth = sdkFor(token);
  const [events, rooms] = await Promise.all([
    booth.room
      .GET("/events/upcoming", { params: { query: { limit: 50, offset: 0 } } })
      .then((r) => ({ list: r.data?.data ?? [], error: null as string | null }))
      .catch((e) => ({ list: [] as BoothEvent[], error: userMessage(e, request) })),
    token ? roomsToHost(booth) : Promise.resolve(null),
  ]);
  return { events: events.list, error: events.error, rooms, signedIn: !!token };
}

/** Schedules an event hosted by the viewer (any signed-in person; in a room, the edge wants its moderators). */
export async function createEvent(request: Request) {
  const { token } = await requireViewer(request);
  const form = await request.formData();
  try {
    const made = await sdkFor(token).room.POST("/events", { body: eventBody(form) });
    return redirect(`/events/${made.data?.slug}?scheduled=1`);
  } catch (e) {
    return data({ error: userMessage(e, request) }, { status: 400 });
  }
}
