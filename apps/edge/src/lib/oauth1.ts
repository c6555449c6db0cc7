import { createHmac, randomBytes } from "node:crypto";

/**
 * OAuth 1.0 signatures (RFC 5849) with HMAC-SHA1, as 7digital wants its preview clips' addresses signed: the request's
 * parameters (the query's and the oauth_* ones), sorted and encoded, make the signature base string with the method
 * and the base URI (section 3.4.1); the key is the consumer secret and the token secret, each encoded, joined by "&"
 * (3.4.2). Only query parameters are signed (no form body), which is all a GET needs.
 */

/** RFC 3986 percent-encoding of every character but the unreserved ones (RFC 5849 section 3.6). */
export const oauthEncode = (value: string) =>
  encodeURIComponent(value).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);

/** The signature base string of a request (section 3.4.1): method, base URI and the normalized parameters. */
export function signatureBaseString(method: string, url: string, params: [string, string][]) {
  const target = new URL(url);
  // The base URI: scheme and host in lower case, the default port left out, no query or fragment (URL does the first two).
  const base = `${target.origin}${target.pathname}`;
  const all: [string, string][] = [...target.searchParams.entries(), ...params];
  const normalized = all
    .map(([k, v]) => [oauthEncode(k), oauthEncode(v)] as const)
    .sort(([ak, av], [bk, bv]) => (ak < bk ? -1 : ak > bk ? 1 : av < bv ? -1 : av > bv ? 1 : 0))
    .map(([k, v]) => `${k}=${v}`)
    .join("&");
  return `${method.toUpperCase()}&${oauthEncode(base)}&${oauthEncode(normalized)}`;
}

/** The HMAC-SHA1 signature (base64) of a signature base string (section 3.4.2). */
export const hmacSha1Signature = (baseString: string, consumerSecret: string, tokenSecret = "") =>
  createHmac("sha1", `${oauthEncode(consumerSecret)}&${oauthEncode(tokenSecret)}`)
    .update(baseString)
    .digest("base64");

export interface OAuthConsumer {
  key: string;
  secret: string;
}

/**
 * `url` (a GET, its own query kept) signed for `consumer` with the protocol parameters in its query (section 3.5.3):
 * oauth_consumer_key, oauth_nonce, oauth_signature_method, oauth_timestamp (seconds, from `nowMs`), oauth_version and
 * oauth_signature. Two-legged: no token.
 */
export function signedUrl(
  url: string,
  consumer: OAuthConsumer,
  nowMs: number,
  nonce = randomBytes(16).toString("hex"),
) {
  const oauth: [string, string][] = [
    ["oauth_consumer_key", consumer.key],
    ["oauth_nonce", nonce],
    ["oauth_signature_method", "HMAC-SHA1"],
    ["oauth_timestamp", String(Math.floor(nowMs / 1000))],
    ["oauth_version", "1.0"],
  ];
  const signature = hmacSha1Signature(signatureBaseString("GET", url, oauth), consumer.secret);
  const signed = new URL(url);
  for (const [k, v] of oauth) signed.searchParams.set(k, v);
  signed.searchParams.set("oauth_signature", signature);
  return signed.toString();
}
