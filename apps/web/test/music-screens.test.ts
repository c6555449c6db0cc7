/**
 * Music screens: accessibility, crates, languages, audio quality, sync, the first sound before the live join, an
 * Audius song's stream (against the stand-in of Audius's API, whose address the web server allows for media), and
 * audio from the bucket, and the catalogue brand.
 * The suites run one after another on one set of processes (the party, the web server, chromium), each on a fresh
 * edge and database: see shareStacks in harness.ts. The bucket's suite tells its web server the bucket (its page
 * policy depends on it), so it starts a set of its own; so does the catalogue brand's (BOOTH_BRAND).
 */
import { afterAll } from "vitest";
import { audiusStandIn } from "./audius-stand-in.ts";
import { sharedSuites } from "./harness.ts";

const audius = await audiusStandIn();
afterAll(() => audius.close());

sharedSuites(
  ["accessibility", "crates", "i18n", "quality", "sync", "early-sound", "audius", "bucket-audio", "brands"],
  {
    webEnv: { AUDIUS_MEDIA_HOSTS: audius.base },
  },
);
