/**
 * The log of Booth's Node processes (the edge, the job worker, the web server): JSON lines by pino, one entry a line,
 * with `level` as a word (`"info"`), `time` as an ISO date and `msg`, the fields the tools and tests read.
 *
 * - The level is LOG_LEVEL (`info` unless set): fatal, error, warn, info, debug, trace or silent. Another value is
 *   refused at start, named in the app's one line of bad settings (`logLevelSetting`, @booth/sdk/settings).
 * - What must not be kept in logs is censored before a line is written: pino's `redact` takes the headers
 *   (authorization, cookie, set-cookie) and the fields named like tokens, passwords and codes; URLs and texts have
 *   the values of their secret query parameters censored (`?code=[Redacted]`, ../privacy.ts), which `redact`'s paths
 *   cannot reach.
 * - Lines leave through pino's asynchronous destination (sonic-boom), which gathers what comes while a write is under
 *   way: a synchronous write a line cost the edge a fifth to a third of its throughput (bench/log-lines.bench.ts).
 *   What is still gathered when the process exits is written before it does.
 */
import pino, { type DestinationStream } from "pino";
import { censorText, REDACTED } from "../privacy.ts";
import { setting } from "../settings.ts";

/** One entry: `level` (a word; `info` when absent), `msg`, and any fields. */
export type LogEntry = Record<string, unknown>;
/** How the apps log: a function of one entry. */
export type Logger = (entry: LogEntry) => void;

export const LOG_LEVELS = ["fatal", "error", "warn", "info", "debug", "trace", "silent"] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

/** A level's name, in any case (`info` when empty); throws naming the accepted values (readSettings prints it). */
function levelOf(value: string | undefined): LogLevel {
  const level = value?.trim().toLowerCase() || "info";
  if ((LOG_LEVELS as readonly string[]).includes(level)) return level as LogLevel;
  throw new Error(`must be one of ${LOG_LEVELS.join(", ")} (it is "${value}")`);
}

/** LOG_LEVEL in an app's settings (@booth/sdk/settings): a level's name in any case, `info` when unset. */
export const logLevelSetting = () =>
  setting
    .parsed(LOG_LEVELS.join(" | "), levelOf)
    .default("info")
    .describe("How much the log says: fatal, error, warn, info, debug, trace or silent (any case).");

/** Fields whose value is a secret wherever they sit in an entry (at its top or one level down). */
const SECRET_FIELDS = [
  "authorization",
  "cookie",
  '["set-cookie"]',
  '["x-api-key"]',
  "password",
  "newPassword",
  "currentPassword",
  "token",
  "accessToken",
  "refreshToken",
  "liveToken",
  "botToken",
  "serviceToken",
  "guestToken",
  "idToken",
  "secret",
  "apiKey",
  "otp",
];
/** A `code` is a sign-in, reset or OAuth code inside a request's parts; elsewhere (an error's code) it is kept. */
const CODE_FIELDS = ["body", "query", "params", "req.body", "req.query"].map((parent) => `${parent}.code`);
const field = (name: string) => (name.startsWith("[") ? name : `.${name}`);
export const REDACT_PATHS = [
  ...SECRET_FIELDS,
  ...SECRET_FIELDS.map((name) => `*${field(name)}`),
  ...["req.headers", "res.headers", "request.headers", "response.headers"].flatMap((parent) =>
    SECRET_FIELDS.slice(0, 4).map((name) => `${parent}${field(name)}`),
  ),
  ...CODE_FIELDS,
];

export interface LoggerOptions {
  level?: LogLevel;
  /** Where the lines go; default: standard output, asynchronously (flushed when the process exits). */
  destination?: DestinationStream;
  /** Fields each line gets at the moment it is written (the request id of the request being handled). */
  mixin?: () => Record<string, unknown>;
}

const LEVELS = new Set<string>(["fatal", "error", "warn", "info", "debug", "trace"]);

/**
 * A logger writing JSON lines through pino. `log` is what the apps call (`log({ level: "warn", msg: "…", … })`);
 * `pino` is the instance, for what wants pino's own API.
 */
export function createLogger(options: LoggerOptions = {}): { log: Logger; pino: pino.Logger } {
  let destination = options.destination;
  if (!destination) {
    const boom = pino.destination({ dest: 1, sync: false });
    process.on("exit", () => boom.flushSync());
    destination = boom;
  }
  const instance = pino(
    {
      level: options.level ?? "info",
      base: null,
      timestamp: pino.stdTimeFunctions.isoTime,
      formatters: {
        level: (label) => ({ level: label }),
        // URLs and messages: the values of secret query parameters, and email addresses, censored.
        log: (entry) => {
          for (const key in entry) {
            const value = entry[key];
            if (typeof value === "string" && (value.includes("=") || value.includes("@")))
              entry[key] = censorText(value);
          }
          return entry;
        },
      },
      ...(options.mixin ? { mixin: options.mixin } : {}),
      redact: { paths: REDACT_PATHS, censor: REDACTED },
    },
    destination,
  );
  const log: Logger = (entry) => {
    const { level, ...rest } = entry;
    const method = typeof level === "string" && LEVELS.has(level) ? (level as Exclude<LogLevel, "silent">) : "info";
    instance[method](rest);
  };
  return { log, pino: instance };
}
