/**
 * What must not leave a Booth process in a log line or an error report: sign-in codes, tokens, passwords, secrets and
 * email addresses, wherever they sit in a URL's query (`/magic-link?token=…`, an OAuth callback's `?code=…&state=…`,
 * a presigned URL's signature) or in a text. Shared by the Node servers' logger (node/logger.ts) and every Sentry SDK
 * Booth starts (the edge's, the web server's, the browser's, the rooms' Worker's). No Node API: the browser and the
 * Worker load it too.
 */

/** What a censored value reads as. */
export const REDACTED = "[Redacted]";

/**
 * Query parameters whose value is a secret or personal: sign-in, reset and OAuth codes, OAuth state, every kind of
 * token, passwords, secrets, signatures, credentials, API keys, emails.
 */
export const SECRET_PARAM =
  /^(code|state|email|otp|ticket|sig|key)$|token|secret|passw|signature|credential|api[-_]?key/i;

// A query parameter: what comes after ? & or ; up to the next separator, a space, a quote or a bracket.
const PARAM = /([?&;])([^=&#\s"'<>?]+)=([^&#\s"'<>]*)/g;
const EMAIL = /[\w.!#$%&'*+/=?^`{|}~-]+@[\w-]+(\.[\w-]+)*\.[a-z]{2,}/gi;

/**
 * A text with the values of the secret query parameters of any URL in it censored (`?code=abc&page=2` becomes
 * `?code=[Redacted]&page=2`) and its email addresses replaced. Texts without `=` or `@` come back as they are.
 */
export function censorText(text: string): string {
  let out = text;
  if (out.includes("="))
    out = out.replace(PARAM, (all, sep: string, name: string) =>
      SECRET_PARAM.test(safeDecode(name)) ? `${sep}${name}=${REDACTED}` : all,
    );
  if (out.includes("@")) out = out.replace(EMAIL, "[email]");
  return out;
}

const safeDecode = (name: string) => {
  try {
    return decodeURIComponent(name);
  } catch {
    return name;
  }
};

/** The parts of a Sentry event (any of its SDKs) that can carry someone's data. */
interface EventParts {
  user?: unknown;
  request?: {
    url?: string;
    query_string?: unknown;
    cookies?: unknown;
    headers?: Record<string, string>;
    data?: unknown;
    env?: unknown;
  };
  message?: string;
  exception?: { values?: { value?: string }[] };
  breadcrumbs?: { message?: string; data?: Record<string, unknown> }[];
  extra?: Record<string, unknown>;
  server_name?: string;
}

/** Request headers an error report may keep: none that identify or authenticate someone. */
const KEPT_HEADERS = new Set(["user-agent", "content-type", "accept", "x-request-id"]);

/**
 * A Sentry event stripped of what is personal, for `beforeSend` (with `sendDefaultPii: false`, which keeps the SDKs
 * from adding IP addresses and cookies of their own): no user, no cookies, no request body, only harmless headers,
 * and the URLs and texts it keeps (the request's, the breadcrumbs', the exception's message, the extras) censored
 * with `censorText`.
 */
export function scrubEvent<T>(event: T): T {
  const e = event as EventParts;
  delete e.user;
  if (e.request) {
    delete e.request.cookies;
    delete e.request.data;
    delete e.request.env;
    if (e.request.url) e.request.url = censorText(e.request.url);
    if (typeof e.request.query_string === "string")
      e.request.query_string = censorText(`?${e.request.query_string}`).slice(1);
    else delete e.request.query_string;
    if (e.request.headers)
      e.request.headers = Object.fromEntries(
        Object.entries(e.request.headers).filter(([name]) => KEPT_HEADERS.has(name.toLowerCase())),
      );
  }
  if (e.message) e.message = censorText(e.message);
  for (const value of e.exception?.values ?? []) if (value.value) value.value = censorText(value.value);
  for (const crumb of e.breadcrumbs ?? []) {
    if (crumb.message) crumb.message = censorText(crumb.message);
    if (crumb.data) crumb.data = censorValues(crumb.data);
  }
  if (e.extra) e.extra = censorValues(e.extra);
  return event;
}

/** An object's string values (one level) censored with `censorText`. */
function censorValues(data: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(data).map(([k, v]) => [k, typeof v === "string" ? censorText(v) : v]));
}
