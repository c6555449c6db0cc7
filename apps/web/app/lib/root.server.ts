import { env } from "./env.server.ts";
import { readSession } from "./session.server.ts";

/** What every page gets: who is signed in, the audio quality, and where the browser reaches the edge and the party. */
export async function rootData(request: Request) {
  const { viewer, audioQuality, setCookie } = await readSession(request);
  return {
    body: { viewer, audioQuality, env: { apiUrl: env.publicApiUrl, partyUrl: env.publicPartyUrl } },
    setCookie,
  };
}
