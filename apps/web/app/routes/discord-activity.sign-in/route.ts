import type { ActionFunctionArgs } from "@remix-run/node";
import { webConfig } from "../../config.server.ts";
import { isActivityRequest } from "../../lib/discord-activity.server.ts";
import { userMessage } from "../../lib/errors.server.ts";
import { isApiError } from "../../lib/errors.ts";
import { sdkFor } from "../../lib/sdk.server.ts";
import { startSession } from "../../lib/session.server.ts";

/** A Discord id: a guild's or a channel's (what the Activity's query names). */
const SNOWFLAKE = /^\d{5,25}$/;

const answer = (body: Record<string, unknown>, status = 200, setCookie?: string) =>
  Response.json(body, {
    status,
    headers: { "cache-control": "no-store", ...(setCookie ? { "set-cookie": setCookie } : {}) },
  });

/**
 * The Discord Activity's sign-in, without a second screen (docs/discord.md): the page sends the code the SDK's
 * `authorize` gave, and the guild and voice channel the Activity runs in. The edge exchanges the code for Discord's
 * access token (`/auth/exchange-code`), signs the Discord user in to Booth (`/auth/discord-auth`: their account, made
 * or linked now) and names the channel's room (`/rooms/discord/{guild}/activity`). The answer: Discord's access token
 * (the page hands it to the SDK's `authenticate`) and the room's slug; the Booth session is the cookie.
 */
export async function action({ request }: ActionFunctionArgs) {
  if (!isActivityRequest(request, webConfig()))
    return answer({ message: "This is the Discord Activity's sign-in: open Booth from Discord." }, 400);
  const body = (await request.json().catch(() => null)) as Record<string, unknown> | null;
  const code = typeof body?.code === "string" ? body.code.trim() : "";
  const guildId = typeof body?.guildId === "string" ? body.guildId : null;
  const channelId = typeof body?.channelId === "string" ? body.channelId : null;
  if (!code || code.length > 2048) return answer({ message: "Send the code Discord's authorize gave (code)." }, 400);
  if ((guildId && !SNOWFLAKE.test(guildId)) || (channelId && !SNOWFLAKE.test(channelId)))
    return answer({ message: "guildId and channelId are Discord ids." }, 400);
  try {
    const discord = (await sdkFor(null).user.POST("/auth/exchange-code", { body: { code } })).data;
    if (!discord) throw new Error("no access token");
    const signedIn = (
      await sdkFor(null).user.POST("/auth/discord-auth", { body: { accessToken: discord.accessToken } })
    ).data;
    if (!signedIn) throw new Error("no session");
    const setCookie = await startSession(request, signedIn);
    let room: { slug: string; name: string } | null = null;
    // A voice channel of a guild: its room. Elsewhere (a DM's call) the Activity opens on Booth's rooms.
    if (guildId && channelId) {
      const { data } = await sdkFor(signedIn.accessToken).room.POST("/rooms/discord/{guild}/activity", {
        params: { path: { guild: guildId } },
        body: { channelId, accessToken: discord.accessToken },
      });
      if (data) room = { slug: data.slug, name: data.name };
    }
    return answer({ accessToken: discord.accessToken, room }, 200, setCookie);
  } catch (error) {
    if (isApiError(error) && error.status < 500) return answer({ message: userMessage(error, request) }, error.status);
    if (isApiError(error)) return answer({ message: userMessage(error, request) }, 502);
    throw error;
  }
}
