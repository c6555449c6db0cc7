import { tmpdir } from "node:os";
import { join } from "node:path";
import { defineConfig } from "vitest/config";
import { BaseSequencer, type TestSpecification } from "vitest/node";

/**
 * The files that take a minute or more (a browser stack, real song clocks, child processes), longest first. They
 * start first: a clean clone (CI) has no timings of an earlier run to order by, and vitest would otherwise start
 * the smallest files last, which are here the group files of browser suites, each minutes long.
 */
const LONG_FIRST = [
  // Twenty rounds of three processes starting together: the longest file, and CPU-bound.
  "apps/edge/test/start-together.test.ts",
  "apps/web/test/room.test.ts",
  // Beside the web build the browser files wait for at the start: its timing tests are the most sensitive to load.
  "apps/rooms-party/test/live.test.ts",
  "apps/web/test/music-screens.test.ts",
  "apps/web/test/people-screens.test.ts",
  "apps/web/test/room-screens.test.ts",
  "apps/web/test/players.test.ts",
  "apps/web/test/social-screens.test.ts",
  "apps/cli/src/cli.test.ts",
  "apps/web/test/app-shell.test.ts",
  "apps/web/test/discord-activity.test.ts",
  "apps/web/test/room-crate.test.ts",
  "apps/cli/test/bots.test.ts",
  "apps/web/test/start.test.ts",
  "apps/edge/src/main.test.ts",
  "apps/edge/src/fuzz.test.ts",
  "apps/edge/test/scale-out.test.ts",
  "apps/edge/test/built.test.ts",
];

class LongFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]) {
    const rank = (file: TestSpecification) => {
      const i = LONG_FIRST.findIndex((path) => file.moduleId.endsWith(path));
      return i < 0 ? LONG_FIRST.length : i;
    };
    // A stable sort: the other files keep vitest's order (its timings of the last run, else the larger first).
    return (await super.sort(files)).sort((a, b) => rank(a) - rank(b));
  }
}

/**
 * The edge's tests that change or measure what a whole process shares, a process each: OpenTelemetry's global tracer
 * provider; the upload that measures the process's buffers after full collections (in a worker holding the modules
 * and garbage of the files before it, a collection every 100 ms took the test past its minute).
 */
const PROCESS_WIDE = ["apps/edge/src/ports/tracing.test.ts", "apps/edge/src/services/upload/upload-stream.test.ts"];

const shared = {
  // Migrations run once per run, into a template each test file's database is copied from; and a folder of the
  // run's own, where the demo songs a browser suite asks for are kept for the next suite that asks (decision 0017).
  globalSetup: ["packages/db/src/testing-setup.ts", "apps/edge/src/testing/run-setup.ts"],
  // A test that makes an unexpected error log (a 500 on the edge) fails.
  setupFiles: ["apps/edge/src/testing/vitest-setup.ts"],
  testTimeout: 30_000,
  hookTimeout: 60_000,
  pool: "forks" as const,
};

/**
 * Node's compile cache for every Node process of the run (the test workers, the edges, web servers and CLIs the tests
 * start): the same packages are compiled again by each of them otherwise. Node checks each entry against its source
 * and ignores a cache it cannot use.
 */
process.env.NODE_COMPILE_CACHE ??= join(tmpdir(), "booth-test-compile-cache");

/**
 * The edge's own tests run after the others, three files at once: they wait on the database much of their time (in
 * process, no browser), and took 171 s alone two at a time, 129 s three at a time (122 s four at a time).
 */
const EDGE_GROUP = { maxWorkers: 3, sequence: { groupOrder: 1 } };

export default defineConfig({
  test: {
    // Two files at once on the 2-core CI machine. Three paid while chromium drew animations for nobody (much of the
    // run was then waiting); with that gone (decision 0017) the run is CPU-bound, and a third file at once only
    // squeezed the timing of the browser and live-room tests (four different timing failures in three runs).
    maxWorkers: 2,
    sequence: { sequencer: LongFirst },
    projects: [
      {
        // The edge's own tests share their worker's modules (not their data: each file makes its own database and
        // key prefix). Importing the edge app took more time than most of its files' tests: 190 s of 3 minutes.
        test: {
          ...shared,
          ...EDGE_GROUP,
          name: "edge",
          include: ["apps/edge/src/**/*.test.ts"],
          exclude: PROCESS_WIDE,
          isolate: false,
        },
      },
      {
        test: { ...shared, ...EDGE_GROUP, name: "edge-process-wide", include: PROCESS_WIDE },
      },
      {
        test: {
          ...shared,
          name: "apps",
          include: [
            "apps/*/src/**/*.test.ts",
            "apps/*/test/**/*.test.ts",
            "packages/*/src/**/*.test.ts",
            "packages/*/test/**/*.test.ts",
            // The deploy files checked against the tree (no image can be built here).
            "deploy/**/*.test.ts",
            // The repository's own scripts and files: the release script, the versions, renovate.json.
            "scripts/*.test.ts",
          ],
          exclude: ["apps/edge/src/**", "**/node_modules/**"],
        },
      },
    ],
  },
});
