/**
 * Music screens: accessibility, crates, languages, audio quality, sync, the first sound before the live join, an
 * Audius song's stream (against the stand-in of Audius's API, whose address the web server allows for media), a
 * 7digital song's preview (against the stand-in of 7digital's API and preview service, likewise allowed), audio
 * from the bucket, and the catalogue brand.
 * The suites run one after another on one set of processes (the party, the web server, chromium), each on a fresh
 * edge and database: see shareStacks in harness.ts. The bucket's suite tells its web server the bucket (its page
 * policy depends on it), so it starts a set of its own; so does the catalogue brand's (BOOTH_BRAND).
 */
import { afterAll } from "vitest";
import { audiusStandIn } from "./audius-stand-in.ts";
import { sharedSuites } from "./harness.ts";
import { sevenDigitalStandIn } from "./seven-digital-stand-in.ts";

const audius = await audiusStandIn();
const sevenDigital = await sevenDigitalStandIn();
afterAll(() => Promise.all([audius.close(), sevenDigital.close()]));

sharedSuites(
  [
    ...["accessibility", "crates", "i18n", "quality", "sync", "early-sound", "audius", "seven-digital"],
    ...["bucket-audio", "brands"],
  ],
  { webEnv: { AUDIUS_MEDIA_HOSTS: audius.base, SEVENDIGITAL_PREVIEWS_URL: sevenDigital.previewsUrl } },
);
