import { createRoute, z } from "@hono/zod-openapi";
import { bearer, errors, json, jsonBody } from "../../lib/openapi.ts";
import { AuthResultSchema, Email, MessageSchema, TokenResultSchema } from "./schemas.ts";

const tags = ["Auth"];

export const login = createRoute({
  method: "post",
  path: "/auth/login",
  tags,
  summary: "Log in with email and password",
  request: jsonBody(z.object({ email: Email, password: z.string().min(1).max(1024) })),
  responses: { 200: json(AuthResultSchema), ...errors(400, 401, 403, 429) },
});

export const session = createRoute({
  method: "get",
  path: "/auth/session",
  tags,
  summary: "The signed-in user, with a fresh token (sessions slide while used; a live token is refused)",
  security: bearer,
  responses: { 200: json(AuthResultSchema), ...errors(401, 403) },
});

export const liveToken = createRoute({
  method: "post",
  path: "/auth/live-token",
  tags,
  summary:
    "A short-lived live token (15 minutes) for what a browser itself calls: the live room's socket, HLS playlists, listening events. It opens nothing else and cannot be renewed with itself",
  security: bearer,
  responses: { 200: json(TokenResultSchema), ...errors(401, 403, 429) },
});

export const publicKey = createRoute({
  method: "get",
  path: "/auth/pub-key",
  tags,
  summary: "The public key that verifies every token this edge signs",
  responses: {
    200: json(
      z
        .object({
          alg: z.string(),
          kid: z.string(),
          publicKey: z.string(),
          jwk: z.record(z.string(), z.unknown()),
        })
        .openapi("PublicKey"),
    ),
  },
});

export const guestToken = createRoute({
  method: "get",
  path: "/auth/guest",
  tags,
  summary: "A guest token: browse rooms and preview without an account",
  responses: { 200: json(TokenResultSchema.extend({ guestUuid: z.uuid() }).openapi("GuestToken")), ...errors(429) },
});

export const magicLink = createRoute({
  method: "get",
  path: "/auth/magic-link",
  tags,
  summary: "Email a one-time sign-in link (the answer is the same whether the email is registered or not)",
  request: { query: z.object({ email: Email }) },
  responses: { 200: json(MessageSchema), ...errors(400, 429) },
});

export const validateMagicLink = createRoute({
  method: "post",
  path: "/auth/validate-magic-link",
  tags,
  summary: "Exchange a sign-in link's token for a session",
  request: jsonBody(z.object({ token: z.string().min(1).max(256) })),
  responses: { 200: json(AuthResultSchema), ...errors(400, 401, 403, 429) },
});
