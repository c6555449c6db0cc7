import { ROOM_RANK, roomRank } from "@booth/sdk/live/permissions";
import { data, redirect } from "@remix-run/node";
import { foundOr404, userMessage } from "../../lib/errors.server.ts";
import { type BoothEvent, eventBody, roomsToHost } from "../../lib/events.server.ts";
import { field } from "../../lib/forms.ts";
import { hasRole, STAFF_ROLES } from "../../lib/roles.ts";
import { currentRoomRoles } from "../../lib/rooms.server.ts";
import { type Booth, sdkFor } from "../../lib/sdk.server.ts";
import { readSession, requireViewer } from "../../lib/session.server.ts";

function eventOf(booth: Booth, slug: string): Promise<BoothEvent> {
  return foundOr404("Event", booth.room.GET("/events/slug/{slug}", { params: { path: { slug } } }));
}

/**
 * Whether the viewer may change or cancel the event, as the edge ranks them: its host, staff, and the owners and
 * co-owners of its room (and the platform's moderators, who outrank them). The edge checks again on every change.
 */
async function mayManage(booth: Booth, event: BoothEvent, viewer: { uuid: string; roles: string[] } | null) {
  if (!viewer) return false;
  if (event.hostUuid === viewer.uuid || hasRole(viewer, STAFF_ROLES)) return true;
  if (!event.room) return false;
  try {
    const room = (await booth.room.GET("/rooms/{slug}", { params: { path: { slug: event.room.slug } } })).data;
    if (!room) return false;
    const roles = await currentRoomRoles(booth, room, viewer);
    return roomRank(room, viewer.uuid, viewer.roles, roles as never) >= ROOM_RANK.coOwner;
  } catch {
    return false;
  }
}

/** The event (anyone), its host's name, and whether the viewer may change it (then the rooms they may move it to). */
export async function loadEvent(request: Request, slug: string) {
  const { token, viewer } = await readSession(request);
  const booth = sdkFor(token);
  const event = await eventOf(booth, slug);
  const [manage, host] = await Promise.all([
    mayManage(booth, event, viewer),
    booth.user
      .GET("/users/profiles", { params: { query: { users: event.hostUuid } } })
      .then((r) => r.data?.[0]?.nickname ?? null)
      .catch(() => null),
  ]);
  let rooms: { uuid: string; name: string }[] = [];
  if (manage) {
    rooms = await roomsToHost(booth);
    // Its own room stays a choice even for someone who does not run it (staff, a host whose role ended).
    if (event.room && !rooms.some((r) => r.uuid === event.room?.uuid))
      rooms = [{ uuid: event.room.uuid, name: event.room.name }, ...rooms];
  }
  return { event, host, isHost: viewer?.uuid === event.hostUuid, may: { manage }, rooms };
}

/** Saves or cancels the event through the edge, which decides; its refusals are shown in its words. */
export async function changeEvent(request: Request, slug: string) {
  const { token } = await requireViewer(request);
  const booth = sdkFor(token);
  const form = await request.formData();
  try {
    const event = await eventOf(booth, slug);
    const path = { params: { path: { id: event.id } } };
    if (field(form, "intent") === "delete") {
      await booth.room.DELETE("/events/{id}", path);
      return redirect("/events?deleted=1");
    }
    const body = eventBody(form);
    // A room unchanged is not sent: moving an event into a room needs its moderators, keeping it there does not.
    const { roomUuid, ...rest } = body;
    const saved = await booth.room.PATCH("/events/{id}", {
      ...path,
      body: roomUuid === event.roomUuid ? rest : body,
    });
    const newSlug = saved.data?.slug ?? event.slug;
    return newSlug === slug ? { error: null, saved: true } : redirect(`/events/${newSlug}`);
  } catch (error) {
    if (error instanceof Response) return data({ error: "Event not found.", saved: false }, { status: 404 });
    return data({ error: userMessage(error, request), saved: false }, { status: 400 });
  }
}
