import { randomBytes } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";

const trim = (url: string) => url.replace(/\/+$/, "");

/** Where the server reaches the edge and the party, and the addresses handed to the browser (the same by default). */
export const env = {
  apiUrl: trim(process.env.BOOTH_API_URL || "http://127.0.0.1:8787"),
  partyUrl: trim(process.env.PARTY_URL || "http://127.0.0.1:1999"),
  publicApiUrl: trim(process.env.BOOTH_PUBLIC_API_URL || process.env.BOOTH_API_URL || "http://127.0.0.1:8787"),
  publicPartyUrl: trim(process.env.PUBLIC_PARTY_URL || process.env.PARTY_URL || "http://127.0.0.1:1999"),
  secureCookies: (process.env.WEB_URL ?? "").startsWith("https:"),
  /**
   * SENTRY_BROWSER_DSN: the Sentry project the pages report their errors to (a DSN is public: it can only send).
   * Unset, the pages load no Sentry code. Apart from the server's SENTRY_DSN, so that reporting the server's errors
   * never starts the browsers' by itself, and each can go to a project of its own.
   */
  sentryBrowserDsn: process.env.SENTRY_BROWSER_DSN?.trim() || null,
  sentryEnvironment: sentryEnvironment(process.env),
};

type Env = Record<string, string | undefined>;

/** The deployment's name in Sentry: SENTRY_ENVIRONMENT, else BOOTH_ENV, else NODE_ENV, else "development". */
export function sentryEnvironment(environment: Env) {
  return environment.SENTRY_ENVIRONMENT || environment.BOOTH_ENV || environment.NODE_ENV || "development";
}

// Read from the object passed in, never as `process.env.NODE_ENV`: the build would write its own mode in its place.
const production = (environment: Env) =>
  environment.NODE_ENV === "production" || environment.BOOTH_ENV === "production";

/** What a production web server lacks to start: it makes up no secret another web server would not share. */
export function missingProductionSettings(environment: Env): string[] {
  if (!production(environment) || environment.SESSION_SECRET) return [];
  return ["SESSION_SECRET: the key that signs session cookies, the same on every web server (openssl rand -base64 32)"];
}

let secret: string | undefined;
/** SESSION_SECRET, else (not in production) one generated once and kept in DATA_DIR, like the edge's signing key. */
export function sessionSecret(): string {
  if (secret) return secret;
  if (process.env.SESSION_SECRET) {
    secret = process.env.SESSION_SECRET;
    return secret;
  }
  if (production(process.env)) throw new Error("SESSION_SECRET is required in production.");
  // `npm start` runs in apps/web; DATA_DIR is relative to where npm was started, as for the edge.
  const dir = resolve(process.env.INIT_CWD ?? process.cwd(), process.env.DATA_DIR ?? ".data");
  const file = join(dir, "web-session-secret");
  if (existsSync(file)) {
    secret = readFileSync(file, "utf8").trim();
    return secret;
  }
  mkdirSync(dir, { recursive: true });
  secret = randomBytes(32).toString("base64url");
  writeFileSync(file, secret, { mode: 0o600 });
  return secret;
}
