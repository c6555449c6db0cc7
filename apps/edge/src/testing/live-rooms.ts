import { unreachableLiveRooms } from "../ports/live-rooms.ts";
import { createTestApp } from "./app.ts";

/**
 * A test app whose live rooms cannot be reached (every event sent to a room fails), and what it logged: a change made
 * over REST must still succeed, and the failure be logged as a warning. Close `app` in the test.
 */
export async function createTestAppWithRoomsDown() {
  const logged: Record<string, unknown>[] = [];
  const app = await createTestApp({ liveRooms: unreachableLiveRooms(), logger: (e) => logged.push(e) });
  return { app, logged };
}
