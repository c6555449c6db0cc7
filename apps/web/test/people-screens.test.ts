/**
 * People's screens: signing in, avatars, profiles, and how the header and a full booth fit a screen.
 * The suites run one after another on one set of processes (the party, the web server, chromium), each on a fresh
 * edge and database: see shareStacks in harness.ts.
 */
import { sharedSuites } from "./harness.ts";

sharedSuites(["auth", "avatars", "profile", "layout"]);
