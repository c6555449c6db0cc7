// Vitest globalSetup (vitest.config.ts): migrates once per run, into the template every test file's database is
// copied from (a database on TEST_DATABASE_URL, or a PGlite dump), before the test files start in parallel.
import { testTemplate } from "./testing.ts";

export default async function setup() {
  await testTemplate();
}
