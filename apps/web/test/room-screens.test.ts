/**
 * Rooms' and shop screens: room settings, the shop, uploads, playlist imports, the installable app, communities, and
 * what a person sees of a full booth and of the header at a phone's and a desktop's widths.
 * The suites run one after another on one set of processes (the party, the web server, chromium), each on a fresh
 * edge and database: see shareStacks in harness.ts.
 */
import { sharedSuites } from "./harness.ts";

sharedSuites(["room-settings", "song-picker", "shop", "upload", "crates-import", "pwa", "communities"]);
