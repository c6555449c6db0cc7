import { createBoothClient } from "@booth/sdk";
import { webConfig } from "../config.server.ts";
import { activitySettings } from "./discord-activity.server.ts";
import { sdkFor } from "./sdk.server.ts";
import { readSession } from "./session.server.ts";
import { inActivity } from "./visitor.server.ts";

/**
 * Pictures are decoration: asked without the patience the other calls have while the edge starts (edge-fetch.server.ts
 * waits up to 20 s for a refused connection), and given up after 2 s, so no page waits for them.
 */
let pictures: ReturnType<typeof createBoothClient> | undefined;
const picturesClient = () => {
  pictures ??= createBoothClient({
    baseUrl: webConfig().edgeUrl,
    token: null,
    fetch: (input, init) => fetch(input, { ...init, signal: AbortSignal.timeout(2000) }),
  });
  return pictures;
};

/**
 * The pictures of the avatars, by slug (paths on the edge). Every page draws people, so the root has them; without an
 * answer from the edge people are drawn with their initials.
 */
async function avatarImages(): Promise<Record<string, string>> {
  try {
    const { data } = await picturesClient().merch.GET("/avatar-images");
    return data?.images ?? {};
  } catch {
    return {};
  }
}

/** The header's count of unread direct messages (then kept live by lib/direct-messages.tsx); 0 when it cannot be had. */
async function unreadMessages(token: string) {
  try {
    const { data } = await sdkFor(token).social.GET("/direct-messages/unread");
    return data?.unreadTotal ?? 0;
  } catch {
    return 0;
  }
}

/**
 * What every page gets: who is signed in, their unread direct messages, the audio quality, where the browser reaches the edge and the party, the
 * brand, and the avatars' pictures.
 */
export async function rootData(request: Request) {
  const [{ viewer, audioQuality, setCookie, token }, images] = await Promise.all([
    readSession(request),
    avatarImages(),
  ]);
  const { publicEdgeUrl, publicPartyUrl, players, settings, sentryEnvironment, brand } = webConfig();
  return {
    body: {
      viewer,
      unreadMessages: token ? await unreadMessages(token) : 0,
      audioQuality,
      avatarImages: images,
      env: {
        apiUrl: publicEdgeUrl,
        partyUrl: publicPartyUrl,
        players,
        brand,
        // The Discord Activity (lib/discord-activity.ts): Booth's application and the URL mappings; null elsewhere.
        activity: inActivity() ? activitySettings(webConfig()) : null,
        // The pages' error reports (lib/error-reports.ts): null when SENTRY_BROWSER_DSN is unset.
        sentry: settings.SENTRY_BROWSER_DSN
          ? { dsn: settings.SENTRY_BROWSER_DSN, environment: sentryEnvironment }
          : null,
      },
    },
    setCookie,
  };
}
