import { z } from "@hono/zod-openapi";
import { contracts, json, jsonBody, ok } from "../../lib/openapi.ts";
import { AuthResultSchema, Email, MessageSchema, TokenResultSchema } from "./schemas.ts";

const { authed, route } = contracts(["Auth"]);

export const login = route("post", "/auth/login", {
  summary: "Log in with email and password",
  request: jsonBody(z.object({ email: Email, password: z.string().min(1).max(1024) })),
  responses: ok(AuthResultSchema, 400, 401, 403, 429),
});

export const session = authed("get", "/auth/session", {
  summary: "The signed-in user, with a fresh token (sessions slide while used; a live token is refused)",
  responses: ok(AuthResultSchema, 401, 403),
});

export const liveToken = authed("post", "/auth/live-token", {
  summary:
    "A short-lived live token (15 minutes) for what a browser itself calls: the live room's socket, HLS playlists, listening events. It opens nothing else and cannot be renewed with itself",
  responses: ok(TokenResultSchema, 401, 403, 429),
});

export const publicKey = route("get", "/auth/pub-key", {
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

export const guestToken = route("get", "/auth/guest", {
  summary: "A guest token: browse rooms and preview without an account",
  responses: ok(TokenResultSchema.extend({ guestUuid: z.uuid() }).openapi("GuestToken"), 429),
});

export const magicLink = route("get", "/auth/magic-link", {
  summary: "Email a one-time sign-in link (the answer is the same whether the email is registered or not)",
  request: { query: z.object({ email: Email }) },
  responses: ok(MessageSchema, 400, 429),
});

export const validateMagicLink = route("post", "/auth/validate-magic-link", {
  summary: "Exchange a sign-in link's token for a session",
  request: jsonBody(z.object({ token: z.string().min(1).max(256) })),
  responses: ok(AuthResultSchema, 400, 401, 403, 429),
});
