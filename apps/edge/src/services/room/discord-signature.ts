import { createMiddleware } from "hono/factory";
import type { AppEnv } from "../../lib/context.ts";
import { unauthorized } from "../../lib/errors.ts";
import { requireSettings } from "../../ports/integrations.ts";

/** How far from now an interaction's timestamp may be: an older signed request is a replay. */
export const SIGNATURE_WINDOW_SECONDS = 5 * 60;

export const DISCORD_SIGNATURE_MESSAGES = {
  missing: "A Discord interaction must be signed: send X-Signature-Ed25519 and X-Signature-Timestamp.",
  malformed: "X-Signature-Ed25519 is not a hex Ed25519 signature, or X-Signature-Timestamp not a Unix time.",
  stale: "The interaction's timestamp is more than 5 minutes from now: a signed request is not replayed.",
  mismatch: "The interaction's signature does not match Booth's Discord application's public key.",
} as const;

const hexBytes = (hex: string) => Uint8Array.from(hex.match(/../g) ?? [], (pair) => Number.parseInt(pair, 16));

/**
 * Throws a 401 unless `signature` (hex) is the Ed25519 signature, by the key `publicKey` (hex), of `timestamp` then
 * the raw `body`, and `timestamp` (Unix seconds) is within five minutes of `now`. Node's WebCrypto verifies
 * (decision 0025).
 */
export async function verifyDiscordSignature(
  publicKey: string,
  headers: { signature: string | undefined; timestamp: string | undefined },
  body: string,
  now: Date,
) {
  const { signature, timestamp } = headers;
  if (!signature || !timestamp) throw unauthorized(DISCORD_SIGNATURE_MESSAGES.missing);
  if (!/^[0-9a-f]{128}$/i.test(signature) || !/^\d{1,12}$/.test(timestamp))
    throw unauthorized(DISCORD_SIGNATURE_MESSAGES.malformed);
  if (Math.abs(now.getTime() / 1000 - Number(timestamp)) > SIGNATURE_WINDOW_SECONDS)
    throw unauthorized(DISCORD_SIGNATURE_MESSAGES.stale);
  const key = await crypto.subtle.importKey("raw", hexBytes(publicKey), { name: "Ed25519" }, false, ["verify"]);
  const signed = new TextEncoder().encode(timestamp + body);
  if (!(await crypto.subtle.verify({ name: "Ed25519" }, key, hexBytes(signature), signed)))
    throw unauthorized(DISCORD_SIGNATURE_MESSAGES.mismatch);
}

/**
 * The interactions route's first step, before its body is validated: a 503 naming DISCORD_PUBLIC_KEY when it is not
 * set, else a 401 for a request Discord did not sign. The body is read raw here (Hono keeps the text, which the JSON
 * validator then parses), so the signature is checked over the bytes Discord sent.
 */
export const signedByDiscord = createMiddleware<AppEnv>(async (c, next) => {
  const { deps } = c.var;
  const { DISCORD_PUBLIC_KEY } = requireSettings("The Discord bot", {
    DISCORD_PUBLIC_KEY: deps.config.integrations?.discordPublicKey,
  });
  const headers = { signature: c.req.header("x-signature-ed25519"), timestamp: c.req.header("x-signature-timestamp") };
  await verifyDiscordSignature(DISCORD_PUBLIC_KEY, headers, await c.req.text(), deps.clock.now());
  await next();
});
