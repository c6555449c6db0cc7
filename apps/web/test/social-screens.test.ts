/**
 * Social screens: people (blocking, friends' activity, vouchers), the room's chat, connected accounts, direct messages.
 * The suites run one after another on one set of processes (the party, the web server, chromium), each on a fresh
 * edge and database: see shareStacks in harness.ts. The web server loads MusicKit JS from the local stand-in
 * (player-stand-ins.ts): the connected-accounts suite signs in to Apple Music through it.
 */
import { afterAll } from "vitest";
import { sharedSuites } from "./harness.ts";
import { startStandIns } from "./player-stand-ins.ts";

const standIns = await startStandIns();
afterAll(() => standIns.stop());
sharedSuites(["people", "chat", "accounts", "messages"], {
  webEnv: { MUSICKIT_JS_URL: `${standIns.url}/musickit/musickit.js` },
});
