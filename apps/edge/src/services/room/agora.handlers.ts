import { rateLimit, requireToken } from "../../lib/auth.ts";
import { conflict, forbidden } from "../../lib/errors.ts";
import type { AppRouteHandler } from "../../lib/openapi.ts";
import { requireSettings } from "../../ports/integrations.ts";
import { AGORA_MESSAGES, AGORA_TOKEN_SECONDS, type agoraRoutes, rtcToken } from "../user/public.ts";
import { loadRoom, ROOM_RANK } from "./access.ts";
import { requireRoomAdmission } from "./admission.ts";

/**
 * `POST /agora/token` of the user service's document: a token for a room's voice channel, which only the room can
 * grant (who is admitted, who may speak). The user service registers it where its contract is (`userService(needs)`).
 */
export const agoraToken: AppRouteHandler<typeof agoraRoutes.agoraToken> = async (c) => {
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
  const token = rtcToken({
    appId: s.AGORA_APP_ID,
    certificate: s.AGORA_APP_CERTIFICATE,
    channel: room.uuid,
    role: body.role,
    uid: body.uid,
    account: caller.uuid,
  });
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
};
