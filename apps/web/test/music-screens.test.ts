/**
 * Music screens: accessibility, crates, languages, audio quality, sync, the first sound before the live join, and
 * audio from the bucket.
 * The suites run one after another on one set of processes (the party, the web server, chromium), each on a fresh
 * edge and database: see shareStacks in harness.ts. The bucket's suite tells its web server the bucket (its page
 * policy depends on it), so it starts a set of its own.
 */
import { sharedSuites } from "./harness.ts";

sharedSuites(["accessibility", "crates", "i18n", "quality", "sync", "early-sound", "bucket-audio"]);
