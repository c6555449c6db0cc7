/**
 * Vitest setup file (vitest.config.ts): a test that makes something call console.error fails, unless it declared
 * that it expects it with expectErrorLog() (./error-logs.ts). The edge's test logger (./logger.ts) writes server
 * errors (unhandled errors, 500 answers) to console.error, so a 500 fails the test that caused it even when the test
 * did not check the status. Applies to the edge's and the packages' tests; the browser and process tests of
 * apps/web, apps/cli and apps/rooms-party read other processes' output instead.
 */
import { afterAll, afterEach, beforeAll, beforeEach, expect, type MockInstance, vi } from "vitest";
import { stopLeftoverGroups } from "./child-server.ts";
import { declared, errorLogs, logLine } from "./error-logs.ts";

let unexpected: unknown[][] = [];
let spy: MockInstance<typeof console.error> | undefined;

function report(when: string) {
  const found = unexpected;
  unexpected = [];
  if (found.length === 0) return;
  throw new Error(
    `console.error was called ${found.length} time(s) ${when}, and nothing declared it (expectErrorLog() from ` +
      `apps/edge/src/testing/error-logs.ts, if the test means to cause it):\n${found.map(logLine).join("\n")}`,
  );
}

beforeAll(() => {
  if (/[\\/]apps[\\/](web|cli|rooms-party)[\\/]/.test(expect.getState().testPath ?? "")) return;
  const original = console.error.bind(console);
  spy = vi.spyOn(console, "error").mockImplementation((...args: unknown[]) => {
    if (declared(args)) return;
    unexpected.push(args);
    original(...args);
  });
});

beforeEach(() => {
  errorLogs.inTest = true;
});

afterEach(() => {
  errorLogs.inTest = false;
  errorLogs.test.length = 0;
  if (spy) report("during this test");
});

// Servers a test file started in their own process groups and did not stop (a test failed before its stop()).
afterAll(() => stopLeftoverGroups());

afterAll(() => {
  errorLogs.file.length = 0;
  if (!spy) return;
  spy.mockRestore();
  spy = undefined;
  report("outside the tests (in beforeAll or afterAll)");
});
