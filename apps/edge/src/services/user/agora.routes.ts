import { createRoute, z } from "@hono/zod-openapi";
// A CommonJS package whose named exports Node's ESM loader cannot see: take them off the default export.
import agoraToken from "agora-token";
import { rateLimit, requireToken } from "../../lib/auth.ts";
import { conflict, forbidden, HttpError } from "../../lib/errors.ts";
import { bearer, createRouter, errors, json, jsonBody } from "../../lib/openapi.ts";
import { requireSettings } from "../../ports/integrations.ts";
import { loadRoom, ROOM_RANK } from "../room/access.ts";
import { requireRoomAdmission } from "../room/admission.ts";

/**
 * Live audio of a room through Agora: an RTC token (AccessToken2, made locally with the app certificate) for the
 * room's channel. Speakers (PUBLISHER) are the room's DJs and moderators and up; anyone admitted listens.
 */
export const agoraRoutes = createRouter();
const { RtcRole, RtcTokenBuilder } = agoraToken;

/** An hour: the client asks again when Agora warns the token will expire. */
export const AGORA_TOKEN_SECONDS = 3600;

export const AGORA_MESSAGES = {
  audioOff: "Live audio is off in this room.",
  notSpeaker: "Only the room's DJs and moderators may speak.",
  badCredentials: "Agora is misconfigured: AGORA_APP_ID and AGORA_APP_CERTIFICATE must be 32 hexadecimal characters.",
} as const;

const AgoraRole = z.enum(["PUBLISHER", "SUBSCRIBER"]);

agoraRoutes.openapi(
  createRoute({
    method: "post",
    path: "/agora/token",
    tags: ["Agora"],
    summary: "An Agora RTC token for a room's live audio (the channel is the room's uuid)",
    security: bearer,
    request: jsonBody(
      z
        .object({
          channelName: z.uuid().openapi({ description: "The room's uuid" }),
          role: AgoraRole.default("SUBSCRIBER"),
          uid: z
            .number()
            .int()
            .min(1)
            .max(2 ** 32 - 1)
            .optional()
            .openapi({ description: "A numeric Agora uid; without it the token is for the caller's uuid as account" }),
        })
        .strict()
        .openapi("AgoraTokenRequest"),
    ),
    responses: {
      200: json(
        z
          .object({
            token: z.string(),
            appId: z.string(),
            channelName: z.string(),
            uid: z.number().int().nullable(),
            account: z.string().nullable(),
            role: AgoraRole,
            expiresAt: z.string(),
          })
          .openapi("AgoraToken"),
      ),
      ...errors(400, 401, 403, 404, 409, 429, 503),
    },
  }),
  async (c) => {
    const body = c.req.valid("json");
    const { db, clock, config } = c.var.deps;
    requireToken(c);
    const s = requireSettings("Agora", {
      AGORA_APP_ID: config.integrations?.agoraAppId,
      AGORA_APP_CERTIFICATE: config.integrations?.agoraAppCertificate,
    });
    const room = await loadRoom(db, { uuid: body.channelName });
    const caller = await requireRoomAdmission(c, room);
    if (!room.liveAudio) throw conflict(AGORA_MESSAGES.audioOff);
    if (body.role === "PUBLISHER" && caller.rank < ROOM_RANK.moderator && !caller.roles.includes("dj"))
      throw forbidden(AGORA_MESSAGES.notSpeaker);
    await rateLimit(c, `agora:${caller.uuid}`, 120, 3600);
    const role = body.role === "PUBLISHER" ? RtcRole.PUBLISHER : RtcRole.SUBSCRIBER;
    const args = [s.AGORA_APP_ID, s.AGORA_APP_CERTIFICATE, room.uuid] as const;
    const token =
      body.uid !== undefined
        ? RtcTokenBuilder.buildTokenWithUid(...args, body.uid, role, AGORA_TOKEN_SECONDS, AGORA_TOKEN_SECONDS)
        : RtcTokenBuilder.buildTokenWithUserAccount(
            ...args,
            caller.uuid,
            role,
            AGORA_TOKEN_SECONDS,
            AGORA_TOKEN_SECONDS,
          );
    // The builder answers "" when the app id or certificate is not in Agora's format.
    if (!token) throw new HttpError(503, AGORA_MESSAGES.badCredentials);
    return c.json(
      {
        token,
        appId: s.AGORA_APP_ID,
        channelName: room.uuid,
        uid: body.uid ?? null,
        account: body.uid === undefined ? caller.uuid : null,
        role: body.role,
        expiresAt: new Date(clock.now().getTime() + AGORA_TOKEN_SECONDS * 1000).toISOString(),
      },
      200,
    );
  },
);
