import { z } from "@hono/zod-openapi";
import { contracts, jsonBody, ok, UuidParam } from "../../lib/openapi.ts";

/**
 * Apple Music: MusicKit on the client signs the user in with Booth's developer token and gets a music user token;
 * the edge checks it with Apple (which also tells the user's storefront) and keeps it for the user and services.
 */

const { authed } = contracts(["Apple Music"]);

const AppleTokenSchema = z
  .object({
    developerToken: z.string(),
    musicUserToken: z.string().nullable(),
    storefront: z.string().nullable(),
  })
  .openapi("AppleMusicTokens");

export const saveUserToken = authed("post", "/apple/user-token", {
  summary: "Connect Apple Music: store the caller's music user token once Apple accepts it",
  request: jsonBody(z.object({ musicUserToken: z.string().trim().min(1).max(4096) }).openapi("AppleUserTokenInput")),
  responses: ok(AppleTokenSchema, 400, 401, 403, 429, 502, 503),
});

export const getUserToken = authed("get", "/apple/user-token/{id}", {
  summary:
    "The developer token, and the user's music user token and storefront (null until connected); the user or services",
  request: { params: UuidParam },
  responses: ok(AppleTokenSchema, 400, 401, 403, 503),
});
