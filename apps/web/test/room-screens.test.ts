/**
 * Rooms' and shop screens: room settings, the shop, uploads, playlist imports, the installable app.
 * The suites run one after another on one set of processes (the party, the web server, chromium), each on a fresh
 * edge and database: see shareStacks in harness.ts.
 */
import { describe } from "vitest";
import { shareStacks } from "./harness.ts";

shareStacks();
describe("room-settings", async () => {
  await import("./room-settings.suite.ts");
});
describe("shop", async () => {
  await import("./shop.suite.ts");
});
describe("upload", async () => {
  await import("./upload.suite.ts");
});
describe("crates-import", async () => {
  await import("./crates-import.suite.ts");
});
describe("pwa", async () => {
  await import("./pwa.suite.ts");
});
describe("communities", async () => {
  await import("./communities.suite.ts");
});
