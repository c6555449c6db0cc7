import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: [
      "apps/*/src/**/*.test.ts",
      "apps/*/test/**/*.test.ts",
      "packages/*/src/**/*.test.ts",
      "packages/*/test/**/*.test.ts",
    ],
    // Migrations run once per run, into a template each test file's database is copied from.
    globalSetup: ["packages/db/src/testing-setup.ts"],
    // A test that makes an unexpected error log (a 500 on the edge) fails.
    setupFiles: ["apps/edge/src/testing/vitest-setup.ts"],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: "forks",
    maxWorkers: 2,
  },
});
