import type { Logger } from "../deps.ts";

/**
 * The logger of test apps: quiet, except for what a test should not cause unless it says so. A server error (an
 * unhandled error, a 500) and any entry logged at level "error" by a service go to console.error, which fails the
 * test unless it declared the error (expectErrorLog in ./console-errors.ts). Access lines of other 5xx answers
 * (a deliberate 502 or 503) stay quiet.
 */
const explained = new Set<unknown>();

export const testLogger: Logger = (entry) => {
  if (entry.level !== "error") return;
  const accessLine = "status" in entry && "method" in entry;
  if (accessLine && entry.status !== 500) return;
  // The 500 of an unhandled error, logged with its stack just before, needs no second line.
  if (entry.msg === "unhandled error") explained.add(entry.requestId);
  else if (accessLine && explained.delete(entry.requestId)) return;
  console.error(`[edge ${entry.level}]`, JSON.stringify(entry));
};
