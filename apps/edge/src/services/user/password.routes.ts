import { z } from "@hono/zod-openapi";
import { contracts, jsonBody, noContentOr, ok } from "../../lib/openapi.ts";
import { Email, MessageSchema, Password, TokenResultSchema } from "./schemas.ts";

const { authed, route } = contracts(["Passwords"]);

export const forgotPassword = route("post", "/users/forgot-password", {
  summary: "Email a password-reset link (the answer is the same whether the email is registered or not)",
  request: jsonBody(z.object({ email: Email })),
  responses: ok(MessageSchema, 400, 429),
});

export const resetPassword = route("post", "/users/reset-password", {
  summary: "Set a new password with the token from a reset link; every session ends",
  request: jsonBody(z.object({ token: z.string().min(1).max(256), password: Password })),
  responses: noContentOr(400, 403, 429),
});

export const setPassword = authed("post", "/users/set-password", {
  summary: "Set or change the caller's password; other sessions end and a fresh token is answered",
  request: jsonBody(z.object({ password: Password, currentPassword: z.string().max(1024).optional() })),
  responses: ok(TokenResultSchema, 400, 401, 403, 429),
});

export const changePasswordAdmin = authed("post", "/users/change-password-admin", {
  summary: "An admin sets a user's password; the user's sessions end",
  tags: ["Admin"],
  request: jsonBody(z.object({ userUuid: z.uuid(), password: Password })),
  responses: noContentOr(400, 401, 403, 404),
});
