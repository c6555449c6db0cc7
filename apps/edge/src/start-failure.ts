/**
 * A start that fails (the edge's, the job worker's, the release step's) is a setting or a service to fix, not a crash:
 * the entries print one line naming the step and its cause, without a password, and exit 1. Nothing of a start
 * prints a stack.
 */
import { SettingsError } from "@booth/sdk/settings";

/** A step of a start that failed: what it was doing (its message), and why (its cause). */
export class StartStepError extends Error {
  override name = "StartStepError";
}

/** Runs one step of a start; a failure says which step it was ("migrating the database: ..."). */
export async function startStep<T>(step: string, action: () => Promise<T> | T): Promise<T> {
  try {
    return await action();
  } catch (err) {
    if (err instanceof SettingsError || err instanceof StartStepError) throw err;
    throw new StartStepError(step, { cause: err });
  }
}

const UNREACHABLE = new Set(["ECONNREFUSED", "ECONNRESET", "ENOTFOUND", "EAI_AGAIN", "ETIMEDOUT", "EHOSTUNREACH"]);

/** The one line that says why a start failed: its step, then its cause. */
export function startFailureLine(err: unknown): string {
  const steps: string[] = [];
  let cause = err;
  while (cause instanceof StartStepError) {
    steps.push(cause.message);
    cause = cause.cause;
  }
  return [...steps, causeOf(cause)].join(": ");
}

function causeOf(err: unknown): string {
  // A service that does not answer, wherever in the chain of causes its connection's error is.
  let cause = err;
  for (let depth = 0; cause instanceof Error && depth < 5; depth++) {
    const { code, address, port } = cause as NodeJS.ErrnoException & { address?: string; port?: number };
    if (code && UNREACHABLE.has(code)) {
      const where = address ? `${address}${port ? `:${port}` : ""}` : redact(cause.message) || "a service";
      return `${where} does not answer (${code}); check DATABASE_URL and REDIS_URL`;
    }
    cause = cause.cause;
  }
  if (!(err instanceof Error)) return redact(String(err));
  const code = (err as { code?: unknown }).code;
  // A database error's SQLSTATE (40P01: a deadlock), which names it better than its words do.
  const sqlState = typeof code === "string" && /^[0-9A-Z]{5}$/.test(code) ? ` (${code})` : "";
  return `${redact(err.message) || err.name}${sqlState}`;
}

/** On one line, and without the password of a URL that names one (postgres://user:secret@host). */
const redact = (text: string) =>
  text
    .replace(/(\/\/[^/\s:@]*:)[^@\s]*@/g, "$1***@")
    .replace(/\s*\n\s*/g, " ")
    .trim();

/**
 * For the entries: prints why the start failed, in one line after `who` ("Booth edge did not start: ..."; bad or
 * missing settings: "Booth edge cannot start: " and each of them, config.ts), and exits 1.
 */
export function exitOnStartFailure(who: string) {
  return (err: unknown): never => {
    if (err instanceof SettingsError) console.error(redact(err.message));
    else console.error(`${who} did not start: ${startFailureLine(err)}`);
    process.exit(1);
  };
}

/**
 * For the entries' servers: a port in use is a setting to change (`setting` names it), any other listen error a failed
 * start; either is one line, then `close` (the database, the cache) and exit 1.
 */
export function exitOnListenError(who: string, port: number, setting: string, close: () => Promise<unknown>) {
  return (err: NodeJS.ErrnoException) => {
    console.error(
      err.code === "EADDRINUSE"
        ? `${who}: port ${port} is in use (${setting})`
        : `${who} did not start: listening on port ${port}: ${startFailureLine(err)}`,
    );
    void close().then(() => process.exit(1));
  };
}
