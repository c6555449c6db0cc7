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
    // Three files at once on the 2-core CI machine: most files spend their time waiting (browsers, wrangler, song
    // clocks, a room's hibernation), and a run of two used a third of the CPU.
    maxWorkers: 3,
  },
});
