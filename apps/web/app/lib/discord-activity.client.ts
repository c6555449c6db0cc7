/**
 * The Discord Activity with Discord's Embedded App SDK (@discord/embedded-app-sdk): loaded on demand, in the Activity
 * only (lib/discord-activity.tsx).
 *
 * 1. The URL mappings: the SDK's `patchUrlMappings` rewrites every fetch, XHR, WebSocket and `src` attribute whose
 *    host is a mapping's target to the frame's own origin under the mapping's prefix (`/.proxy/edge/...`), where
 *    Discord's proxy forwards it.
 * 2. The sign-in, with no second screen: the SDK's handshake (`ready`), `authorize` (Discord's consent, silent once
 *    given) for a code, which the web server turns into Discord's access token, the person's Booth session and the
 *    channel's room (routes/discord-activity.sign-in); the SDK's `authenticate` with that token.
 */
import { DiscordSDK, patchUrlMappings } from "@discord/embedded-app-sdk";
import type { ActivitySettings, ActivityStart } from "./discord-activity.tsx";
import { browserStorage } from "./storage.ts";

/** The query Discord opened the Activity with, kept for a page loaded again (the SDK reads it at its start). */
const QUERY_KEY = "booth.discord-activity.query";

class ActivitySdk extends DiscordSDK {
  override _getSearch() {
    const search = window.location.search;
    // Where the frame may keep nothing (third-party storage blocked), a page loaded again starts without the query.
    const storage = browserStorage("sessionStorage");
    try {
      if (new URLSearchParams(search).has("frame_id")) {
        storage?.setItem(QUERY_KEY, search);
        return search;
      }
      return storage?.getItem(QUERY_KEY) ?? search;
    } catch {
      return search;
    }
  }
}

export async function begin(settings: ActivitySettings): Promise<ActivityStart> {
  patchUrlMappings(settings.mappings, { patchSrcAttributes: true });
  const discord = new ActivitySdk(settings.clientId);
  await discord.ready();
  const { code } = await discord.commands.authorize({
    client_id: settings.clientId,
    response_type: "code",
    state: "",
    prompt: "none",
    scope: ["identify", "email", "guilds"],
  });
  const res = await fetch("/discord-activity/sign-in", {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ code, guildId: discord.guildId, channelId: discord.channelId }),
  });
  const body = (await res.json().catch(() => ({}))) as {
    accessToken?: string;
    room?: ActivityStart["room"];
    message?: string;
  };
  if (!res.ok || !body.accessToken) throw new Error(body.message ?? `Booth's sign-in answered ${res.status}.`);
  await discord.commands.authenticate({ access_token: body.accessToken });
  return { room: body.room ?? null };
}
