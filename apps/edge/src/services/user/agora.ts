// A CommonJS package whose named exports Node's ESM loader cannot see: take them off the default export.
import agoraToken from "agora-token";
import { HttpError } from "../../lib/errors.ts";

/**
 * Live audio of a room through Agora: an RTC token (AccessToken2, made locally with the app certificate) for the
 * room's channel. Speakers (PUBLISHER) are the room's DJs and moderators and up; anyone admitted listens.
 */
const { RtcRole, RtcTokenBuilder } = agoraToken;

/** An hour: the client asks again when Agora warns the token will expire. */
export const AGORA_TOKEN_SECONDS = 3600;

export const AGORA_MESSAGES = {
  audioOff: "Live audio is off in this room.",
  notSpeaker: "Only the room's DJs and moderators may speak.",
  badCredentials: "Agora is misconfigured: AGORA_APP_ID and AGORA_APP_CERTIFICATE must be 32 hexadecimal characters.",
} as const;

/** An RTC token for the room's channel, for a numeric uid or (without one) the caller's uuid as account. */
export function rtcToken(input: {
  appId: string;
  certificate: string;
  channel: string;
  role: "PUBLISHER" | "SUBSCRIBER";
  uid: number | undefined;
  account: string;
}) {
  const role = input.role === "PUBLISHER" ? RtcRole.PUBLISHER : RtcRole.SUBSCRIBER;
  const args = [input.appId, input.certificate, input.channel] as const;
  const token =
    input.uid !== undefined
      ? RtcTokenBuilder.buildTokenWithUid(...args, input.uid, role, AGORA_TOKEN_SECONDS, AGORA_TOKEN_SECONDS)
      : RtcTokenBuilder.buildTokenWithUserAccount(
          ...args,
          input.account,
          role,
          AGORA_TOKEN_SECONDS,
          AGORA_TOKEN_SECONDS,
        );
  // The builder answers "" when the app id or certificate is not in Agora's format.
  if (!token) throw new HttpError(503, AGORA_MESSAGES.badCredentials);
  return token;
}
