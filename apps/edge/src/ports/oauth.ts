import { HttpError } from "../lib/errors.ts";
import { answered, fetchProvider } from "./provider-post.ts";

/** An OAuth 2 client of one provider: its token endpoint and Booth's credentials there. */
export interface OAuthClient {
  /** The provider's name as people know it, for messages ("Spotify"). */
  provider: string;
  tokenUrl: string;
  clientId: string;
  clientSecret: string;
}

export interface TokenSet {
  accessToken: string;
  /** Providers rotate it on refresh, or leave it out (keep the old one then). */
  refreshToken: string | null;
  /** Seconds the access token lasts, when the provider says. */
  expiresIn: number | null;
  scope: string | null;
  tokenType: string;
}

const TIMEOUT_MS = 15_000;

/** The OAuth error codes that mean "this code or refresh token is no good" (RFC 6749 section 5.2). */
const GRANT_ERRORS = new Set(["invalid_grant", "invalid_request", "unsupported_grant_type", "invalid_scope"]);

/** A 400: the provider refused the code or refresh token Booth sent; `oauthError` is its OAuth error (invalid_grant...). */
export class OAuthGrantError extends HttpError {
  constructor(
    message: string,
    readonly oauthError: string,
  ) {
    super(400, message, "PROVIDER_GRANT_REFUSED");
  }
}

/** A request to a provider, with a timeout; a provider that cannot be reached is a 502 naming it. */
export const providerFetch = (provider: string, url: string, init: RequestInit = {}, timeoutMs = TIMEOUT_MS) =>
  fetchProvider(url, init, {
    timeoutMs,
    unreachable: () => new HttpError(502, `${provider} could not be reached.`),
  });

/** A 502: the provider refused with a status that says nothing Booth can act on. */
export const providerRefused = (provider: string, status: number) =>
  new HttpError(502, `${answered(provider, status)}.`);

/** A 503: the provider is limiting Booth's requests. */
export const providerLimiting = (provider: string) =>
  new HttpError(503, `${provider} is limiting requests, please try again later.`);

/**
 * Calls the token endpoint (client credentials in a Basic header, RFC 6749 section 2.3.1). A refused grant is a
 * 400 naming what was refused, with the OAuth error as `code` (`invalid_grant`); Booth's own credentials refused
 * or any other failure is a 502.
 */
export async function requestToken(
  client: OAuthClient,
  params: Record<string, string | undefined>,
  what: string,
): Promise<TokenSet> {
  const body = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) if (v !== undefined) body.set(k, v);
  const res = await providerFetch(client.provider, client.tokenUrl, {
    method: "POST",
    headers: {
      authorization: `Basic ${btoa(`${client.clientId}:${client.clientSecret}`)}`,
      "content-type": "application/x-www-form-urlencoded",
      accept: "application/json",
    },
    body,
  });
  const json = (await res.json().catch(() => null)) as Record<string, unknown> | null;
  const oauthError = typeof json?.error === "string" ? json.error : null;
  if (!res.ok) {
    if (res.status === 429) throw providerLimiting(client.provider);
    if (oauthError === "invalid_client" || oauthError === "unauthorized_client")
      throw new HttpError(502, `${client.provider} refused Booth's client credentials (${oauthError}).`);
    if (res.status < 500 && oauthError && GRANT_ERRORS.has(oauthError))
      throw new OAuthGrantError(`${client.provider} refused the ${what} (${oauthError}).`, oauthError);
    throw providerRefused(client.provider, res.status);
  }
  if (!json || typeof json.access_token !== "string" || !json.access_token)
    throw new HttpError(502, `${client.provider} answered without an access token.`);
  return {
    accessToken: json.access_token,
    refreshToken: typeof json.refresh_token === "string" && json.refresh_token ? json.refresh_token : null,
    expiresIn: typeof json.expires_in === "number" ? json.expires_in : Number(json.expires_in) || null,
    scope: typeof json.scope === "string" ? json.scope : null,
    tokenType: typeof json.token_type === "string" ? json.token_type : "Bearer",
  };
}

/**
 * A JSON call to a provider's API on behalf of a user (their access token). The provider refusing the token is a
 * 400 (the token the caller brought is no good; Booth's own session is fine); any other failure a 502.
 */
export async function providerJson(
  provider: string,
  url: string,
  init: RequestInit & { tokenRefused?: string } = {},
): Promise<Record<string, unknown>> {
  const { tokenRefused, ...rest } = init;
  const res = await providerFetch(provider, url, rest);
  if (res.status === 401 || res.status === 403)
    throw new HttpError(400, tokenRefused ?? `${provider} refused the access token.`);
  if (res.status === 429) throw providerLimiting(provider);
  if (!res.ok) throw providerRefused(provider, res.status);
  return providerObject(provider, res);
}

/** The JSON object a provider answered; anything else is a 502. */
export async function providerObject(provider: string, res: Response): Promise<Record<string, unknown>> {
  const json = (await res.json().catch(() => null)) as unknown;
  if (!json || typeof json !== "object") throw new HttpError(502, `${provider} answered something that is not JSON.`);
  return json as Record<string, unknown>;
}
