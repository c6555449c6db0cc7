/**
 * Booth as a Discord Activity, in Chromium (discord-activity.suite.ts): the web server knows Booth's Discord
 * application (the edge's stand-in's), and lets the stand-in's pages (on loopback, any port) frame the Activity.
 */
import { FAKE_CREDENTIALS } from "@booth/edge/testing";
import { sharedSuites } from "./harness.ts";

sharedSuites(["discord-activity"], {
  webEnv: {
    DISCORD_CLIENT_ID: FAKE_CREDENTIALS.discord.id,
    DISCORD_FRAME_ANCESTORS: "http://localhost:*,http://127.0.0.1:*",
  },
});
