/**
 * People's screens: signing in, avatars, profiles.
 * The suites run one after another on one set of processes (the party, the web server, chromium), each on a fresh
 * edge and database: see shareStacks in harness.ts.
 */
import { describe } from "vitest";
import { shareStacks } from "./harness.ts";

shareStacks();
describe("auth", async () => {
  await import("./auth.suite.ts");
});
describe("avatars", async () => {
  await import("./avatars.suite.ts");
});
describe("profile", async () => {
  await import("./profile.suite.ts");
});
