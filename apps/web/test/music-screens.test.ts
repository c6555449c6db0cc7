/**
 * Music screens: accessibility, crates, languages, audio quality and sync.
 * The suites run one after another on one set of processes (the party, the web server, chromium), each on a fresh
 * edge and database: see shareStacks in harness.ts.
 */
import { describe } from "vitest";
import { shareStacks } from "./harness.ts";

shareStacks();
describe("accessibility", async () => {
  await import("./accessibility.suite.ts");
});
describe("crates", async () => {
  await import("./crates.suite.ts");
});
describe("i18n", async () => {
  await import("./i18n.suite.ts");
});
describe("quality", async () => {
  await import("./quality.suite.ts");
});
describe("sync", async () => {
  await import("./sync.suite.ts");
});
