import { expect } from "vitest";
import { partyLiveRooms, unreachableLiveRooms } from "../ports/live-rooms.ts";
import { ok } from "./api.ts";
import { createTestApp, type TestApp } from "./app.ts";

/**
 * A test app whose live rooms cannot be reached (every event sent to a room fails), and what it logged: a change made
 * over REST must still succeed, and the failure be logged as a warning. Close `app` in the test.
 */
export async function createTestAppWithRoomsDown() {
  const logged: Record<string, unknown>[] = [];
  const app = await createTestApp({ liveRooms: unreachableLiveRooms(), logger: (e) => logged.push(e) });
  return { app, logged };
}

/**
 * A test app that tells the live rooms served at `partyUrl` (a real party a test started) of changes made over REST, and
 * tells the time by the real clock: the party checks the tokens it signs. Close it after the tests.
 */
export async function createTestAppForParty(partyUrl: string) {
  const app: TestApp = await createTestApp({
    liveRooms: partyLiveRooms({ baseUrl: partyUrl, serviceToken: () => app.serviceToken() }),
  });
  app.clock.now = () => new Date();
  return app;
}

/** A public room `owner` creates over REST; answers its uuid. */
export async function publicRoom(app: TestApp, owner: { token: string }, name: string) {
  const res = await app.api(owner.token).room.POST("/rooms/infrastructure", { body: { name, type: "PUBLIC" } });
  expect(res.response.status, JSON.stringify(res.error ?? res.data)).toBe(201);
  return ok(res).uuid as string;
}

/** The live room reports someone in it, as it does when they join. */
export async function reportPresent(app: TestApp, userUuid: string, roomUuid: string) {
  const res = await app
    .api(await app.serviceToken())
    .room.PATCH("/rooms/user/{user}", { params: { path: { user: userUuid } }, body: { roomUuid } });
  expect(res.response.status).toBe(204);
}

/**
 * Three public rooms of a new owner: `user` is present in the first two (`a` and `b`), a bystander in the third
 * (`elsewhere`). What the rooms are told of `user` must reach `a` and `b`, and not `elsewhere`.
 */
export async function presentInTwoRooms(app: TestApp, user: { user: { uuid: string } }) {
  const owner = await app.createUser();
  const bystander = await app.createUser();
  const [a, b, elsewhere] = [
    await publicRoom(app, owner, "Room A"),
    await publicRoom(app, owner, "Room B"),
    await publicRoom(app, owner, "Room C"),
  ];
  await reportPresent(app, user.user.uuid, a);
  await reportPresent(app, user.user.uuid, b);
  await reportPresent(app, bystander.user.uuid, elsewhere);
  return { a, b, elsewhere };
}
