// Vitest globalSetup (vitest.config.ts): a folder of the test run's own, for what one test file makes and others of
// the same run may reuse (./demo-catalogue-once.ts), removed when the run ends.
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { TestProject } from "vitest/node";

export default async function setup(project: TestProject) {
  const folder = await mkdtemp(join(tmpdir(), "booth-test-run-"));
  project.provide("testRunFolder", folder);
  return () => rm(folder, { recursive: true, force: true });
}
