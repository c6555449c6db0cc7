import { createRoute, z } from "@hono/zod-openapi";
import { bearer, errors, json, jsonBody, noContent } from "../../lib/openapi.ts";
import { Email, MessageSchema, Password, TokenResultSchema } from "./schemas.ts";

const tags = ["Passwords"];

export const forgotPassword = createRoute({
  method: "post",
  path: "/users/forgot-password",
  tags,
  summary: "Email a password-reset link (the answer is the same whether the email is registered or not)",
  request: jsonBody(z.object({ email: Email })),
  responses: { 200: json(MessageSchema), ...errors(400, 429) },
});

export const resetPassword = createRoute({
  method: "post",
  path: "/users/reset-password",
  tags,
  summary: "Set a new password with the token from a reset link; every session ends",
  request: jsonBody(z.object({ token: z.string().min(1).max(256), password: Password })),
  responses: { ...noContent, ...errors(400, 403, 429) },
});

export const setPassword = createRoute({
  method: "post",
  path: "/users/set-password",
  tags,
  summary: "Set or change the caller's password; other sessions end and a fresh token is answered",
  security: bearer,
  request: jsonBody(z.object({ password: Password, currentPassword: z.string().max(1024).optional() })),
  responses: { 200: json(TokenResultSchema), ...errors(400, 401, 403, 429) },
});

export const changePasswordAdmin = createRoute({
  method: "post",
  path: "/users/change-password-admin",
  tags: ["Admin"],
  summary: "An admin sets a user's password; the user's sessions end",
  security: bearer,
  request: jsonBody(z.object({ userUuid: z.uuid(), password: Password })),
  responses: { ...noContent, ...errors(400, 401, 403, 404) },
});
