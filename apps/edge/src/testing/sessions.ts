import type { TestApp } from "./app.ts";

/** Logs in by email, with the password `createUser()` gives: the typed answer (`data.accessToken`, or the refusal). */
export function login(t: TestApp, email: string, password = "password123") {
  return t.api().user.POST("/auth/login", { body: { email, password } });
}

/** The session `token` opens (`data.user`), or its refusal: 401 once the token is revoked, 403 for a banned user. */
export function session(t: TestApp, token: string) {
  return t.api(token).user.GET("/auth/session");
}
