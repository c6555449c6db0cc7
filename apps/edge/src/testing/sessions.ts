import { expect } from "vitest";
import { ok } from "./api.ts";
import type { TestApp } from "./app.ts";

/** Logs in by email, with the password `createUser()` gives: the typed answer (`data.accessToken`, or the refusal). */
export function login(t: TestApp, email: string, password = "password123") {
  return t.api().user.POST("/auth/login", { body: { email, password } });
}

/** The session `token` opens (`data.user`), or its refusal: 401 once the token is revoked, 403 for a banned user. */
export function session(t: TestApp, token: string) {
  return t.api(token).user.GET("/auth/session");
}

/** Expects `email` to log in again (with createUser's password) and the new token to open a session. */
export async function expectLogsIn(t: TestApp, email: string) {
  const again = await login(t, email);
  expect(again.response.status).toBe(200);
  expect((await session(t, ok(again).accessToken)).response.status).toBe(200);
}
