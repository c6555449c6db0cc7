/**
 * The error logs tests declare they cause. A test that makes something call console.error fails unless it declared
 * it with expectErrorLog() (checked by ./vitest-setup.ts; the edge's test logger, ./logger.ts, writes server errors
 * there). No vitest import here, so scripts that build a test app (bench/) can load it.
 */
export const errorLogs = {
  /** Declared by the file's setup (beforeAll): they hold for all its tests. */
  file: [] as (string | RegExp)[],
  /** Declared by the running test. */
  test: [] as (string | RegExp)[],
  /** Set by the setup file while a test runs. */
  inTest: false,
};

/**
 * Declares that the current test (or, called in beforeAll, every test of the file) makes an error log whose text
 * contains `pattern` (any error log when it is absent). Declared logs are not printed.
 */
export function expectErrorLog(pattern: string | RegExp = /[\s\S]*/) {
  (errorLogs.inTest ? errorLogs.test : errorLogs.file).push(pattern);
}

const text = (a: unknown) => (typeof a === "string" ? a : a instanceof Error ? `${a.message}\n${a.stack}` : String(a));

/** The line console.error would print. */
export const logLine = (args: unknown[]) => args.map(text).join(" ");

/** Whether a console.error call was declared. */
export function declared(args: unknown[]) {
  const line = logLine(args);
  return [...errorLogs.file, ...errorLogs.test].some((p) => (typeof p === "string" ? line.includes(p) : p.test(line)));
}
